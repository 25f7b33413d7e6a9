//! Go's well-known standard-library interfaces, by their method names: the one table the
//! graph keeps of code it does not index.
//!
//! "Which types implement sort.Interface" names an interface the repository does not
//! define, so the graph has no symbol to follow `implements` edges into. Go's interfaces
//! are structural, though: a type implements `sort.Interface` when its method set has
//! `Len`, `Less` and `Swap`, wherever the interface is declared. So `implementations` of a
//! name in this table matches each Go type's methods against the standard library's
//! definition (`query::method_set_matches`), and says it did. Method names are compared,
//! not signatures (the extractor records neither parameter counts nor types), as for the
//! repository's own interfaces.
//!
//! The table lists interfaces a question names and a type implements on purpose; ones
//! every value satisfies in practice or that nobody implements outside the standard
//! library (`context.Context`, `reflect.Type`) are left out. Embedded interfaces are
//! written out (`io.ReadCloser` is `Read`, `Close`).

/// A standard-library interface: its package's import path, its name and its methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StdInterface {
    /// The import path (`sort`, `net/http`); empty for the predeclared `error`.
    pub package: &'static str,
    /// The interface's name (`Interface`, `Handler`).
    pub name: &'static str,
    /// Its method set, embedded interfaces written out.
    pub methods: &'static [&'static str],
}

impl StdInterface {
    /// The name as Go code writes it: `sort.Interface`, `http.Handler`, `error`.
    pub fn written(&self) -> String {
        match self.package.rsplit('/').next() {
            Some(p) if !p.is_empty() => format!("{p}.{}", self.name),
            _ => self.name.to_string(),
        }
    }
}

const fn iface(
    package: &'static str,
    name: &'static str,
    methods: &'static [&'static str],
) -> StdInterface {
    StdInterface {
        package,
        name,
        methods,
    }
}

/// The table.
pub const INTERFACES: &[StdInterface] = &[
    iface("", "error", &["Error"]),
    iface("sort", "Interface", &["Len", "Less", "Swap"]),
    iface(
        "container/heap",
        "Interface",
        &["Len", "Less", "Swap", "Push", "Pop"],
    ),
    iface("fmt", "Stringer", &["String"]),
    iface("fmt", "GoStringer", &["GoString"]),
    iface("fmt", "Formatter", &["Format"]),
    iface("io", "Reader", &["Read"]),
    iface("io", "Writer", &["Write"]),
    iface("io", "Closer", &["Close"]),
    iface("io", "Seeker", &["Seek"]),
    iface("io", "ReadWriter", &["Read", "Write"]),
    iface("io", "ReadCloser", &["Read", "Close"]),
    iface("io", "WriteCloser", &["Write", "Close"]),
    iface("io", "ReadWriteCloser", &["Read", "Write", "Close"]),
    iface("io", "ReadSeeker", &["Read", "Seek"]),
    iface("io", "ReaderAt", &["ReadAt"]),
    iface("io", "WriterAt", &["WriteAt"]),
    iface("io", "ReaderFrom", &["ReadFrom"]),
    iface("io", "WriterTo", &["WriteTo"]),
    iface("io", "ByteReader", &["ReadByte"]),
    iface("io", "ByteWriter", &["WriteByte"]),
    iface("io", "RuneReader", &["ReadRune"]),
    iface("io", "StringWriter", &["WriteString"]),
    iface("io/fs", "FS", &["Open"]),
    iface("io/fs", "ReadDirFS", &["Open", "ReadDir"]),
    iface("io/fs", "StatFS", &["Open", "Stat"]),
    iface("io/fs", "DirEntry", &["Name", "IsDir", "Type", "Info"]),
    iface("io/fs", "File", &["Stat", "Read", "Close"]),
    iface(
        "io/fs",
        "FileInfo",
        &["Name", "Size", "Mode", "ModTime", "IsDir", "Sys"],
    ),
    iface("net/http", "Handler", &["ServeHTTP"]),
    iface("net/http", "RoundTripper", &["RoundTrip"]),
    iface(
        "net/http",
        "ResponseWriter",
        &["Header", "Write", "WriteHeader"],
    ),
    iface("net/http", "Flusher", &["Flush"]),
    iface("net/http", "Hijacker", &["Hijack"]),
    iface("net", "Error", &["Error", "Timeout", "Temporary"]),
    iface(
        "net",
        "Conn",
        &[
            "Read",
            "Write",
            "Close",
            "LocalAddr",
            "RemoteAddr",
            "SetDeadline",
            "SetReadDeadline",
            "SetWriteDeadline",
        ],
    ),
    iface("net", "Addr", &["Network", "String"]),
    iface("net", "Listener", &["Accept", "Close", "Addr"]),
    iface("net/http", "CookieJar", &["SetCookies", "Cookies"]),
    iface("net/http", "FileSystem", &["Open"]),
    iface("net/http", "Pusher", &["Push"]),
    iface("crypto", "Signer", &["Public", "Sign"]),
    iface(
        "crypto/cipher",
        "Block",
        &["BlockSize", "Encrypt", "Decrypt"],
    ),
    iface("crypto/cipher", "Stream", &["XORKeyStream"]),
    iface(
        "crypto/cipher",
        "AEAD",
        &["NonceSize", "Overhead", "Seal", "Open"],
    ),
    iface("encoding", "TextMarshaler", &["MarshalText"]),
    iface("encoding", "TextUnmarshaler", &["UnmarshalText"]),
    iface("encoding", "BinaryMarshaler", &["MarshalBinary"]),
    iface("encoding", "BinaryUnmarshaler", &["UnmarshalBinary"]),
    iface("encoding/json", "Marshaler", &["MarshalJSON"]),
    iface("encoding/json", "Unmarshaler", &["UnmarshalJSON"]),
    iface("encoding/xml", "Marshaler", &["MarshalXML"]),
    iface("encoding/xml", "Unmarshaler", &["UnmarshalXML"]),
    iface("encoding/gob", "GobEncoder", &["GobEncode"]),
    iface("encoding/gob", "GobDecoder", &["GobDecode"]),
    iface("database/sql", "Scanner", &["Scan"]),
    iface("database/sql/driver", "Valuer", &["Value"]),
    iface("database/sql/driver", "Driver", &["Open"]),
    iface("database/sql/driver", "DriverContext", &["OpenConnector"]),
    iface("database/sql/driver", "Connector", &["Connect", "Driver"]),
    iface(
        "database/sql/driver",
        "Conn",
        &["Prepare", "Close", "Begin"],
    ),
    iface("database/sql/driver", "ConnBeginTx", &["BeginTx"]),
    iface(
        "database/sql/driver",
        "ConnPrepareContext",
        &["PrepareContext"],
    ),
    iface("database/sql/driver", "ExecerContext", &["ExecContext"]),
    iface("database/sql/driver", "QueryerContext", &["QueryContext"]),
    iface("database/sql/driver", "Pinger", &["Ping"]),
    iface("database/sql/driver", "SessionResetter", &["ResetSession"]),
    iface("database/sql/driver", "Validator", &["IsValid"]),
    iface(
        "database/sql/driver",
        "NamedValueChecker",
        &["CheckNamedValue"],
    ),
    iface(
        "database/sql/driver",
        "Stmt",
        &["Close", "NumInput", "Exec", "Query"],
    ),
    iface("database/sql/driver", "StmtExecContext", &["ExecContext"]),
    iface("database/sql/driver", "StmtQueryContext", &["QueryContext"]),
    iface("database/sql/driver", "Tx", &["Commit", "Rollback"]),
    iface("database/sql/driver", "Rows", &["Columns", "Close", "Next"]),
    iface(
        "database/sql/driver",
        "Result",
        &["LastInsertId", "RowsAffected"],
    ),
    iface("flag", "Value", &["String", "Set"]),
    iface("flag", "Getter", &["String", "Set", "Get"]),
    iface("sync", "Locker", &["Lock", "Unlock"]),
    iface("os", "Signal", &["String", "Signal"]),
    iface(
        "hash",
        "Hash",
        &["Write", "Sum", "Reset", "Size", "BlockSize"],
    ),
    iface("image", "Image", &["ColorModel", "Bounds", "At"]),
    iface(
        "log/slog",
        "Handler",
        &["Enabled", "Handle", "WithAttrs", "WithGroup"],
    ),
    iface("log/slog", "LogValuer", &["LogValue"]),
];

/// The interface a `symbol` argument names: `sort.Interface`, `heap.Interface`,
/// `net/http.Handler` (the package's last element or its whole import path, then the
/// name), or `error`. A bare name other than `error` names none: `Interface` or `Handler`
/// alone could be anything.
pub fn lookup(symbol: &str) -> Option<&'static StdInterface> {
    let s = symbol.trim().trim_end_matches("()");
    INTERFACES.iter().find(|i| {
        if i.package.is_empty() {
            return s == i.name;
        }
        let Some((pkg, name)) = s.rsplit_once('.') else {
            return false;
        };
        name == i.name && (pkg == i.package || Some(pkg) == i.package.rsplit('/').next())
    })
}

/// Standard-library types Go code embeds in its own structs, with their exported methods
/// (pointer receivers included): a struct embedding `*sql.DB` has `Query` and `Exec`, one
/// embedding `sync.Mutex` has `Lock` and `Unlock`, so it implements the repository's
/// interfaces that ask for them. The graph has no symbols for these types; without the
/// table such a struct implemented nothing that needed a promoted method (sqlx's `DB` and
/// `Tx`, which add `Queryx` to `*sql.DB`'s `Query`, did not implement its `Queryer`).
/// Embedded interfaces of [`INTERFACES`] promote their methods the same way.
pub const TYPES: &[StdInterface] = &[
    iface(
        "database/sql",
        "DB",
        &[
            "Begin",
            "BeginTx",
            "Close",
            "Conn",
            "Driver",
            "Exec",
            "ExecContext",
            "Ping",
            "PingContext",
            "Prepare",
            "PrepareContext",
            "Query",
            "QueryContext",
            "QueryRow",
            "QueryRowContext",
            "SetConnMaxIdleTime",
            "SetConnMaxLifetime",
            "SetMaxIdleConns",
            "SetMaxOpenConns",
            "Stats",
        ],
    ),
    iface(
        "database/sql",
        "Tx",
        &[
            "Commit",
            "Exec",
            "ExecContext",
            "Prepare",
            "PrepareContext",
            "Query",
            "QueryContext",
            "QueryRow",
            "QueryRowContext",
            "Rollback",
            "Stmt",
            "StmtContext",
        ],
    ),
    iface(
        "database/sql",
        "Conn",
        &[
            "BeginTx",
            "Close",
            "ExecContext",
            "PingContext",
            "PrepareContext",
            "QueryContext",
            "QueryRowContext",
            "Raw",
        ],
    ),
    iface(
        "database/sql",
        "Stmt",
        &[
            "Close",
            "Exec",
            "ExecContext",
            "Query",
            "QueryContext",
            "QueryRow",
            "QueryRowContext",
        ],
    ),
    iface(
        "database/sql",
        "Rows",
        &[
            "Close",
            "ColumnTypes",
            "Columns",
            "Err",
            "Next",
            "NextResultSet",
            "Scan",
        ],
    ),
    iface("database/sql", "Row", &["Err", "Scan"]),
    iface("sync", "Mutex", &["Lock", "TryLock", "Unlock"]),
    iface(
        "sync",
        "RWMutex",
        &[
            "Lock", "RLock", "RLocker", "RUnlock", "TryLock", "TryRLock", "Unlock",
        ],
    ),
    iface("sync", "WaitGroup", &["Add", "Done", "Wait"]),
    iface("sync", "Once", &["Do"]),
    iface(
        "bytes",
        "Buffer",
        &[
            "Available",
            "AvailableBuffer",
            "Bytes",
            "Cap",
            "Grow",
            "Len",
            "Next",
            "Read",
            "ReadByte",
            "ReadBytes",
            "ReadFrom",
            "ReadRune",
            "ReadString",
            "Reset",
            "String",
            "Truncate",
            "UnreadByte",
            "UnreadRune",
            "Write",
            "WriteByte",
            "WriteRune",
            "WriteString",
            "WriteTo",
        ],
    ),
    iface(
        "strings",
        "Builder",
        &[
            "Cap",
            "Grow",
            "Len",
            "Reset",
            "String",
            "Write",
            "WriteByte",
            "WriteRune",
            "WriteString",
        ],
    ),
    iface(
        "strings",
        "Reader",
        &[
            "Len",
            "Read",
            "ReadAt",
            "ReadByte",
            "ReadRune",
            "Reset",
            "Seek",
            "Size",
            "UnreadByte",
            "UnreadRune",
            "WriteTo",
        ],
    ),
    iface(
        "bufio",
        "Reader",
        &[
            "Buffered",
            "Discard",
            "Peek",
            "Read",
            "ReadByte",
            "ReadBytes",
            "ReadLine",
            "ReadRune",
            "ReadSlice",
            "ReadString",
            "Reset",
            "Size",
            "UnreadByte",
            "UnreadRune",
            "WriteTo",
        ],
    ),
    iface(
        "bufio",
        "Writer",
        &[
            "Available",
            "AvailableBuffer",
            "Buffered",
            "Flush",
            "ReadFrom",
            "Reset",
            "Size",
            "Write",
            "WriteByte",
            "WriteRune",
            "WriteString",
        ],
    ),
    iface(
        "os",
        "File",
        &[
            "Chdir",
            "Chmod",
            "Chown",
            "Close",
            "Fd",
            "Name",
            "Read",
            "ReadAt",
            "ReadDir",
            "ReadFrom",
            "Readdir",
            "Readdirnames",
            "Seek",
            "SetDeadline",
            "SetReadDeadline",
            "SetWriteDeadline",
            "Stat",
            "Sync",
            "SyscallConn",
            "Truncate",
            "Write",
            "WriteAt",
            "WriteString",
            "WriteTo",
        ],
    ),
    iface(
        "log",
        "Logger",
        &[
            "Fatal",
            "Fatalf",
            "Fatalln",
            "Flags",
            "Output",
            "Panic",
            "Panicf",
            "Panicln",
            "Prefix",
            "Print",
            "Printf",
            "Println",
            "SetFlags",
            "SetOutput",
            "SetPrefix",
            "Writer",
        ],
    ),
    iface(
        "net/http",
        "Client",
        &[
            "CloseIdleConnections",
            "Do",
            "Get",
            "Head",
            "Post",
            "PostForm",
        ],
    ),
    iface(
        "net/http",
        "ServeMux",
        &["Handle", "HandleFunc", "Handler", "ServeHTTP"],
    ),
];

/// The methods a Go struct gains by embedding the standard library's `package.name` (a
/// type of [`TYPES`] or an interface of [`INTERFACES`]); `None` for anything else.
pub fn promoted(package: &str, name: &str) -> Option<&'static [&'static str]> {
    TYPES
        .iter()
        .chain(INTERFACES)
        .find(|t| t.package == package && t.name == name)
        .map(|t| t.methods)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_written_or_by_import_path() {
        assert_eq!(
            lookup("sort.Interface").map(|i| i.methods),
            Some(&["Len", "Less", "Swap"][..])
        );
        assert_eq!(
            lookup("heap.Interface").map(|i| i.package),
            Some("container/heap")
        );
        // Two `Conn`s, told apart by their package.
        assert_eq!(
            lookup("driver.Conn").map(|i| i.methods),
            Some(&["Prepare", "Close", "Begin"][..])
        );
        assert_eq!(lookup("net.Conn").map(|i| i.methods.len()), Some(8));
        assert_eq!(
            lookup("net/http.Handler").map(|i| i.written()),
            Some("http.Handler".to_string())
        );
        assert_eq!(
            lookup("error").map(|i| i.written()),
            Some("error".to_string())
        );
        assert_eq!(lookup("Interface"), None);
        assert_eq!(lookup("mypkg.Reader"), None);
    }

    #[test]
    fn every_entry_is_found_by_its_written_name() {
        for i in INTERFACES {
            assert!(!i.methods.is_empty(), "{}", i.written());
            assert_eq!(lookup(&i.written()).map(|f| f.package), Some(i.package));
        }
    }
}
