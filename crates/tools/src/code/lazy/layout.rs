//! The store file's layout: a fixed prefix, a small header naming the sections, and the
//! sections themselves, each checked before use.
//!
//! ```text
//! MAGIC ("explore code store\n")
//! u32   STORE_VERSION (little-endian)
//! [16]  the index fingerprint (format version, extraction queries, path tables, crate version)
//! u32   header length
//! [16]  blake3 of the header (first 16 bytes)
//! ...   header: postcard Header { root, symbols, files, sections: [SectionRef; COUNT] }
//! ...   the sections, at offsets relative to the end of the header
//! ```
//!
//! A section is read whole and its blake3 checked, except the two record tables' data
//! ([`Sec::SymbolData`], [`Sec::FileData`]), which are read one record at a time; each
//! record carries its own checksum. So a warm query reads the header, the sections it
//! needs and the records it shows, and every byte it uses has been checked.

use std::fs::File;

use serde::{Deserialize, Serialize};

/// The first bytes of a store file.
pub const MAGIC: &[u8] = b"explore code store\n";
/// Bumped whenever the layout changes meaning.
pub const STORE_VERSION: u32 = 3;
/// Bytes before the header: magic, version, fingerprint, header length, header hash.
pub const PREFIX_LEN: usize = MAGIC.len() + 4 + 16 + 4 + 16;
/// Headers larger than this are corrupt (a real one is a few hundred bytes plus the root).
pub const MAX_HEADER: u32 = 64 * 1024;

/// The sections, in file order (the edge lists last, where a cut-short file ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sec {
    /// Postcard `Vec<Watched>`: the paths whose stats decide freshness.
    Watch = 0,
    /// Lower-case bare names: `u32 n`, `n + 1` u32 offsets into the blob, `n` u32 ids
    /// sorted by (name, id), then the blob (names in id order).
    Names,
    /// `n + 1` u64 offsets of the symbol records in [`Sec::SymbolData`].
    SymbolOffsets,
    /// Symbol records: 8 checksum bytes, then a postcard `Symbol`.
    SymbolData,
    /// `files + 1` u64 offsets of the file records in [`Sec::FileData`].
    FileOffsets,
    /// File records: 8 checksum bytes, then a postcard `FileInfo`.
    FileData,
    /// The symbols' qualified names: `u32 n`, `n + 1` u32 offsets, `n` u32 ids sorted by
    /// (qname, id), then the blob (qnames in id order).
    Qnames,
    /// Symbols by file path: `u32 k`, `k + 1` u32 offsets into the path blob, `k + 1` u32
    /// offsets into the id list, the path blob (distinct paths, sorted), the ids (u32,
    /// each path's in id order).
    Paths,
    /// `files + 1` u64 offsets of the link's per-file records.
    LinkFileOffsets,
    /// Per file: 8 checksum bytes, then its language, scope, first symbol, symbol count
    /// and state (content hash, surface hash, syntax errors).
    LinkFileData,
    /// `n + 1` u64 offsets of the link's per-symbol records.
    LinkSymOffsets,
    /// Per symbol: 8 checksum bytes, then its surface (file, kind, qualified name, name,
    /// container, fields, results) and its tables (methods, bases, owner).
    LinkSymData,
    /// The link's qualified names: a map to the symbol id (u32).
    LinkQnames,
    /// Methods by language family and name: a map from the family byte and the name to
    /// up to `MAX_NAME_MATCHES` ids (u32 each).
    LinkNamed,
    /// Modules: a map from the name to the module's index (u32).
    LinkModules,
    /// Files: a map from the path to the file id (u32).
    FilePaths,
    /// Postcard: module names, module files and file counts, Rust crates, whether the
    /// lookups are complete and every file is Go or Python, and the refresh's counts.
    LinkMisc,
    /// What each file's link looked up: a map from the lookup's hash (`link::lookup`,
    /// 8 bytes big-endian) to the files (u32 each, ascending) that made it.
    LinkLookups,
    /// Go method sets: a map from a method name to the postcard lists of the concrete Go
    /// types whose method set has it (id, module) and of the interfaces whose method set
    /// has it (id, module, set size, whether it has an unexported method).
    LinkGo,
    /// Outgoing edges: `u32 n`, `n + 1` u32 offsets, then 10-byte records (the other end
    /// u32, line u32, kind u8, inferred u8) in the embedded store's order.
    Out,
    /// Incoming edges, as [`Sec::Out`].
    In,
}

/// How many sections a store has.
pub const COUNT: usize = 21;

impl Sec {
    /// Every section, in file order.
    pub const ALL: [Sec; COUNT] = [
        Sec::Watch,
        Sec::Names,
        Sec::SymbolOffsets,
        Sec::SymbolData,
        Sec::FileOffsets,
        Sec::FileData,
        Sec::Qnames,
        Sec::Paths,
        Sec::LinkFileOffsets,
        Sec::LinkFileData,
        Sec::LinkSymOffsets,
        Sec::LinkSymData,
        Sec::LinkQnames,
        Sec::LinkNamed,
        Sec::LinkModules,
        Sec::FilePaths,
        Sec::LinkMisc,
        Sec::LinkLookups,
        Sec::LinkGo,
        Sec::Out,
        Sec::In,
    ];

    /// Whether the section is checked whole (record data is checked per record).
    pub fn hashed_whole(self) -> bool {
        !matches!(
            self,
            Sec::SymbolData | Sec::FileData | Sec::LinkFileData | Sec::LinkSymData
        )
    }

    /// Whether it holds the link's tables (kept from an old store when the graph is).
    pub fn is_link(self) -> bool {
        matches!(
            self,
            Sec::LinkFileOffsets
                | Sec::LinkFileData
                | Sec::LinkSymOffsets
                | Sec::LinkSymData
                | Sec::LinkQnames
                | Sec::LinkNamed
                | Sec::LinkModules
                | Sec::FilePaths
                | Sec::LinkMisc
                | Sec::LinkLookups
                | Sec::LinkGo
        )
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Sec::Watch => "watch",
            Sec::Names => "names",
            Sec::SymbolOffsets => "symbol offsets",
            Sec::SymbolData => "symbols",
            Sec::FileOffsets => "file offsets",
            Sec::FileData => "files",
            Sec::Qnames => "qualified names",
            Sec::Paths => "paths",
            Sec::Out => "outgoing edges",
            Sec::In => "incoming edges",
            Sec::LinkFileOffsets => "link file offsets",
            Sec::LinkFileData => "link files",
            Sec::LinkSymOffsets => "link symbol offsets",
            Sec::LinkSymData => "link symbols",
            Sec::LinkQnames => "link qualified names",
            Sec::LinkNamed => "link method names",
            Sec::LinkModules => "link modules",
            Sec::FilePaths => "file paths",
            Sec::LinkMisc => "link tables",
            Sec::LinkLookups => "link lookups",
            Sec::LinkGo => "link method sets",
        }
    }
}

/// Where one section lies and what it hashes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionRef {
    /// Offset from the end of the header.
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
    /// blake3 of the section (first 16 bytes); zero for record data.
    pub hash: [u8; 16],
}

/// The header: which repository, how many symbols and files, where the sections are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The canonical repository root the store was built for.
    pub root: String,
    /// Number of symbols.
    pub symbols: u32,
    /// Number of files.
    pub files: u32,
    /// What this store holds (a hash of its sections' hashes and lengths): a delta file
    /// names the store it patches by it.
    pub generation: [u8; 16],
    /// One entry per [`Sec`], in order.
    pub sections: Vec<SectionRef>,
}

/// The first 16 bytes of the blake3 of `bytes`.
pub fn hash16(bytes: &[u8]) -> [u8; 16] {
    let mut out = [0u8; 16];
    out.copy_from_slice(&blake3::hash(bytes).as_bytes()[..16]);
    out
}

/// The first 8 bytes of the blake3 of `bytes`: a record's checksum.
pub fn hash8(bytes: &[u8]) -> [u8; 8] {
    let mut out = [0u8; 8];
    out.copy_from_slice(&blake3::hash(bytes).as_bytes()[..8]);
    out
}

/// The little-endian u32 at index `i` of a packed array, if in bounds.
pub fn u32_at(bytes: &[u8], i: usize) -> Option<u32> {
    let start = i.checked_mul(4)?;
    let b = bytes.get(start..start.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The little-endian u64 at index `i` of a packed array, if in bounds.
pub fn u64_at(bytes: &[u8], i: usize) -> Option<u64> {
    let start = i.checked_mul(8)?;
    let b = bytes.get(start..start.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Some(u64::from_le_bytes(a))
}

/// Fills `buf` from `file` at `offset` without moving a shared cursor, so concurrent
/// lookups on one store need no lock.
#[cfg(unix)]
pub fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

/// Fills `buf` from `file` at `offset` (Windows: `seek_read` until full).
#[cfg(windows)]
pub fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    let mut done = 0;
    while done < buf.len() {
        let n = file.seek_read(&mut buf[done..], offset + done as u64)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        done += n;
    }
    Ok(())
}
