//! The frame the local engine's index files share (`lexfile`, `contentfile`): a prefix
//! that says what wrote the file and for what (magic, format version, build digest, the
//! keys of what it was derived from), then a postcard header with its length and blake3,
//! then the sections at offsets from the end of the header. A file is written whole and
//! renamed into place; it is opened by checking the prefix and the header, and each
//! section is read on demand. One frame, so that a check added to one file's reader (a
//! bound, a key) cannot be missing from the other's.

use std::fs::File;
use std::path::Path;

use super::lexfile::{
    LexFileError, SectionRef, first16, hash16, len_u32, put_u32, read_at, u32_at,
};

/// Headers larger than this are corrupt (a real one is about a hundred bytes plus the
/// root).
const MAX_HEADER: u32 = 64 * 1024;

/// The digest of the source texts whose change changes what a file holds (its build
/// digest): each text's length, then the text.
pub(super) fn digest_of(sources: &[&str]) -> [u8; 16] {
    let mut h = blake3::Hasher::new();
    for s in sources {
        h.update(&(s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    }
    first16(h.finalize().as_bytes())
}

/// What a file's prefix holds, written and expected alike.
pub(super) struct Frame<'a> {
    /// The file's first bytes: which kind of file it is.
    pub magic: &'static [u8],
    /// The layout's version, bumped when the layout changes meaning.
    pub version: u32,
    /// The digest of the sources that wrote it: another build's file is not read.
    pub digest: [u8; 16],
    /// What the file was derived from (the code store's key, the lexical index's id): a
    /// file derived from anything else is stale.
    pub keys: &'a [[u8; 16]],
}

/// A file's header and sections, encoded: everything but the prefix, whose keys (the
/// code store's key) may be known only later. `explore index` encodes its lexical and
/// content files while the code store is written, and adds the prefix once the store's
/// key is known.
pub(super) struct Body {
    /// The postcard header.
    pub header: Vec<u8>,
    /// The sections, in file order.
    pub sections: Vec<Vec<u8>>,
}

impl Body {
    /// The file's id: the blake3 of its header, which does not depend on the prefix.
    pub fn id(&self) -> [u8; 16] {
        hash16(&self.header)
    }
}

/// A file whose prefix and header were checked.
pub(super) struct Opened {
    /// The open file, for reading sections.
    pub file: File,
    /// Its length.
    pub len: u64,
    /// The header's bytes, their blake3 checked.
    pub header: Vec<u8>,
    /// Where the sections start.
    pub body: u64,
}

impl Frame<'_> {
    /// Bytes before the header: magic, version, digest, keys, header length and hash.
    pub fn prefix_len(&self) -> usize {
        self.magic.len() + 4 + 16 + 16 * self.keys.len() + 4 + 16
    }

    /// The places and hashes of `sections`, in order: each from where the previous one
    /// ended, hashed whole when its flag says so (record sections are checked per record).
    pub fn layout<'s>(sections: impl IntoIterator<Item = (&'s [u8], bool)>) -> Vec<SectionRef> {
        let mut offset = 0u64;
        sections
            .into_iter()
            .map(|(bytes, whole)| {
                let r = SectionRef {
                    offset,
                    len: bytes.len() as u64,
                    hash: if whole { hash16(bytes) } else { [0; 16] },
                };
                offset += bytes.len() as u64;
                r
            })
            .collect()
    }

    /// The bytes before the first section (the prefix, then `header`), and the header's
    /// blake3: the file's id.
    pub fn head(&self, header: &[u8]) -> std::io::Result<(Vec<u8>, [u8; 16])> {
        let id = hash16(header);
        let mut head = Vec::with_capacity(self.prefix_len() + header.len());
        head.extend_from_slice(self.magic);
        put_u32(&mut head, self.version);
        head.extend_from_slice(&self.digest);
        for key in self.keys {
            head.extend_from_slice(key);
        }
        put_u32(&mut head, len_u32(header.len())?);
        head.extend_from_slice(&id);
        head.extend_from_slice(header);
        Ok((head, id))
    }

    /// The whole file's bytes, in order: the prefix and header, then `body`'s sections;
    /// and its id.
    pub fn parts(&self, body: Body) -> std::io::Result<(Vec<Vec<u8>>, [u8; 16])> {
        let (head, id) = self.head(&body.header)?;
        let mut out = Vec::with_capacity(body.sections.len() + 1);
        out.push(head);
        out.extend(body.sections);
        Ok((out, id))
    }

    /// Opens `path` and checks its prefix against this frame (kind, version, build, keys)
    /// and its header's length and blake3.
    pub fn open(&self, path: &Path) -> Result<Opened, LexFileError> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        let prefix_len = self.prefix_len();
        if len < prefix_len as u64 {
            return Err(LexFileError::NotALexFile);
        }
        let mut prefix = vec![0u8; prefix_len];
        read_at(&file, 0, &mut prefix)?;
        let rest = prefix
            .strip_prefix(self.magic)
            .ok_or(LexFileError::NotALexFile)?;
        let (version, rest) = rest.split_at(4);
        let found = u32_at(version, 0).ok_or(LexFileError::NotALexFile)?;
        if found != self.version {
            return Err(LexFileError::Version {
                found,
                reads: self.version,
            });
        }
        let (digest, mut rest) = rest.split_at(16);
        if digest != self.digest {
            return Err(LexFileError::Build);
        }
        for key in self.keys {
            let (found, more) = rest.split_at(16);
            if found != key {
                return Err(LexFileError::Stale);
            }
            rest = more;
        }
        let (header_len, header_hash) = rest.split_at(4);
        let header_len = u32_at(header_len, 0).ok_or(LexFileError::Header)?;
        if header_len > MAX_HEADER || prefix_len as u64 + u64::from(header_len) > len {
            return Err(LexFileError::Header);
        }
        let mut header = vec![0u8; header_len as usize];
        read_at(&file, prefix_len as u64, &mut header)?;
        if hash16(&header) != header_hash {
            return Err(LexFileError::Header);
        }
        Ok(Opened {
            file,
            len,
            header,
            body: prefix_len as u64 + u64::from(header_len),
        })
    }
}

impl Opened {
    /// Checks that every section of `refs` lies within the file; `name` names the section
    /// at an index, for the error.
    pub fn check_sections(
        &self,
        refs: &[SectionRef],
        name: impl Fn(usize) -> &'static str,
    ) -> Result<(), LexFileError> {
        for (i, r) in refs.iter().enumerate() {
            let end = r
                .offset
                .checked_add(r.len)
                .and_then(|e| e.checked_add(self.body));
            if end.is_none_or(|e| e > self.len) {
                return Err(LexFileError::Truncated(name(i)));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_opens_what_it_wrote_and_refuses_other_keys_builds_and_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.idx");
        let keys = [[1u8; 16], [2u8; 16]];
        let frame = Frame {
            magic: b"explore test frame\n",
            version: 3,
            digest: [7; 16],
            keys: &keys,
        };
        let sections: [&[u8]; 2] = [b"alpha", b"bravo!"];
        let refs = Frame::layout(sections.iter().map(|s| (*s, true)));
        assert_eq!((refs[1].offset, refs[1].len), (5, 6));
        let header = b"a header".to_vec();
        let (head, id) = frame.head(&header).unwrap();
        assert_eq!(id, hash16(&header));
        let mut bytes = head.clone();
        for s in sections {
            bytes.extend_from_slice(s);
        }
        std::fs::write(&path, &bytes).unwrap();
        let opened = frame.open(&path).unwrap();
        assert_eq!(opened.header, header);
        assert_eq!(opened.body, head.len() as u64);
        opened.check_sections(&refs, |_| "s").unwrap();

        let other = [[1u8; 16], [9u8; 16]];
        let stale = Frame {
            keys: &other,
            ..frame
        };
        assert!(matches!(stale.open(&path), Err(LexFileError::Stale)));
        let build = Frame {
            digest: [8; 16],
            keys: &keys,
            ..stale
        };
        assert!(matches!(build.open(&path), Err(LexFileError::Build)));
        let frame = Frame {
            digest: [7; 16],
            ..build
        };
        // A flipped header byte, then a file cut inside its last section.
        let mut damaged = bytes.clone();
        let at = head.len() - 1;
        damaged[at] ^= 1;
        std::fs::write(&path, &damaged).unwrap();
        assert!(matches!(frame.open(&path), Err(LexFileError::Header)));
        std::fs::write(&path, &bytes[..bytes.len() - 2]).unwrap();
        let cut = frame.open(&path).unwrap();
        assert!(matches!(
            cut.check_sections(&refs, |i| ["alpha", "bravo"][i]),
            Err(LexFileError::Truncated("bravo"))
        ));
    }
}
