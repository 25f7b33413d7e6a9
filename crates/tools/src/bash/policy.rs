//! Layers 3 and 4: what each program may be asked to do, and which paths it may touch.
//!
//! Deny by default. A program runs only if it is in [`program_spec`]; each of its options
//! must be on that program's list (an unknown option is refused, so a GNU abbreviation
//! like `sort --out=x` for `--output` never gets through), and every argument that names a
//! file (positional or inside an option value such as `--exclude-from=x`) goes through
//! [`RepoRoot::resolve`] and the secrets rule. The checks run on the final argument list,
//! after globs and `$(…)` were expanded, so an expansion cannot smuggle an option in.

use std::path::{Path, PathBuf};

use super::redact::OutputFilter;
use super::{readers, scripts};
use crate::display::escape_for_display;
use crate::{ErrorKind, RepoRoot, secrets};

pub use super::refusal::{Blocked, RefusedBy};

/// How an option's value is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A {
    /// The option takes no value.
    No,
    /// Any value.
    Val,
    /// An optional value, only ever attached: `--color=always`, `-w32`. GNU getopt never
    /// takes the next word for such an option, so neither may we: reading
    /// `grep --color SECRET .env` as `--color=SECRET` would leave `.env` unchecked while
    /// grep reads it as the file.
    Opt,
    /// A file inside the repository.
    Path,
    /// Refused, with the reason.
    Deny(&'static str),
}

/// The options of one program.
#[derive(Debug)]
pub struct Spec {
    /// Short options.
    pub short: &'static [(char, A)],
    /// Long options, without the leading `--`.
    pub long: &'static [(&'static str, A)],
    /// Whether `-20` style numeric options are accepted (head, tail, grep context).
    pub digits: bool,
}

/// What a vetted simple command will do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// `cd DIR`: the repo-relative directory.
    Cd(String),
    /// `echo …`: the bytes to print.
    Echo(String),
    /// `pwd`: prints the repo-relative directory.
    Pwd,
    /// `true` / `false`.
    Status(i32),
    /// A program to spawn.
    Exec(Exec),
    /// `xargs [opts] PROGRAM ARGS…`: we do xargs's job. The items read from stdin are
    /// appended to the target, and every resulting command line is vetted like a typed
    /// one before any of them runs.
    Xargs {
        /// Items are NUL-separated (`-0`).
        null: bool,
        /// At most this many items per run (`-n`).
        max_args: Option<usize>,
        /// The target command as typed (program first), without the items.
        target: Vec<String>,
        /// The locale prefix given to xargs, passed on to the target.
        env: Vec<(String, String)>,
        /// The target reads files: items are checked as paths first (a masked or outside
        /// item is skipped with a note rather than refusing the whole command), and one
        /// that starts with `-` gets `./` so it stays a file name.
        files: bool,
    },
}

/// A program to spawn with its final arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exec {
    /// The program name (looked up in the system directories).
    pub program: String,
    /// Arguments after the program name.
    pub args: Vec<String>,
    /// Extra environment (locale prefixes, git's safety settings).
    pub env: Vec<(String, String)>,
    /// How its output is redacted before it goes anywhere.
    pub filter: OutputFilter,
}

/// The context a command is checked in.
pub struct Ctx<'a> {
    /// The repository.
    pub root: &'a RepoRoot,
    /// The repo-relative working directory (`.` for the root).
    pub cwd: &'a str,
    /// Names of multiply-linked or secret files found in the repository (masked).
    pub masked: &'a [String],
}

impl Ctx<'_> {
    /// The repo-relative form of `arg` given relative to the working directory.
    pub fn join(&self, arg: &str) -> String {
        if self.cwd == "." || arg.starts_with('/') {
            arg.to_string()
        } else {
            format!("{}/{arg}", self.cwd)
        }
    }

    /// The absolute working directory.
    pub fn cwd_abs(&self) -> PathBuf {
        if self.cwd == "." {
            self.root.path().to_path_buf()
        } else {
            self.root.path().join(self.cwd)
        }
    }

    /// Checks a path argument: containment (symlinks resolved) and the secrets rule.
    /// A path that does not exist passes (the program reports it), unless its spelling
    /// alone leaves the repository.
    pub fn check_path(&self, arg: &str, prog: &str) -> Result<(), Blocked> {
        let shown = escape_for_display(arg);
        if arg == "-" {
            return Ok(());
        }
        if arg.starts_with('/') {
            return Err(Blocked::path(format!(
                "`{prog}` was given the absolute path `{shown}`; only files inside the repository can be read. Use a path relative to the repository root, such as `src`"
            )));
        }
        let joined = self.join(arg);
        match self.root.resolve(&joined) {
            Ok(resolved) => {
                let meta = std::fs::metadata(&resolved.abs)
                    .map_err(|e| Blocked::path(format!("cannot inspect `{shown}`: {e}")))?;
                if let Some(what) = special_file(&meta) {
                    // Reading a FIFO waits for a writer that never comes (until the
                    // timeout); a device or socket is not repository content either.
                    return Err(Blocked::path(format!(
                        "`{shown}` is {what}, not a regular file; only files and directories can be read"
                    )));
                }
                if secrets::is_git_config(&resolved.rel) {
                    return Err(Blocked::secrets(secrets::git_config_refusal(
                        &shown,
                        &resolved.rel,
                    )));
                }
                if let Some(why) = secrets::refusal(Path::new(&joined), &resolved.abs, &meta) {
                    return Err(Blocked::secrets(format!(
                        "`{shown}` is masked. {}",
                        why.trim_start_matches("Refused: ")
                    )));
                }
                Ok(())
            }
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::Failed) => {
                if secrets::is_secret_path(Path::new(arg)) {
                    return Err(Blocked::secrets(format!(
                        "`{shown}` is on the secrets list and is never shown to the model"
                    )));
                }
                Ok(())
            }
            Err(e) => Err(Blocked::path(format!(
                "`{prog}` was given the path `{shown}`, which {}",
                path_reason(e.message())
            ))),
        }
    }

    /// Whether `arg` is a git directory or inside one, the repository's own or a nested
    /// repository's (symlinks resolved). Recursive searches there would read git's
    /// configuration by its short name (`config`), which no `--exclude` of ours can tell
    /// from other files.
    pub fn in_git_dir(&self, arg: &str) -> bool {
        self.root
            .resolve(&self.join(arg))
            .is_ok_and(|r| secrets::in_git_dir(&r.rel))
    }

    /// Whether `arg` names a directory (symlinks resolved; false when it cannot be
    /// resolved, which the path check reports).
    pub fn is_dir(&self, arg: &str) -> bool {
        self.root
            .resolve(&self.join(arg))
            .is_ok_and(|r| r.abs.is_dir())
    }

    /// Checks a directory to `cd` into and returns its repo-relative form.
    pub fn check_dir(&self, arg: &str) -> Result<String, Blocked> {
        let shown = escape_for_display(arg);
        if arg.starts_with('/') || arg == "-" || arg.starts_with('~') {
            return Err(Blocked::path(format!(
                "`cd {shown}` leaves the repository; `cd` accepts directories inside it, relative to the current one"
            )));
        }
        match self.root.resolve(&self.join(arg)) {
            Ok(r) if secrets::in_git_dir(&r.rel) => Err(Blocked::secrets(format!(
                "`cd {shown}` enters git's own files, among them its configuration, which can hold credentials; use git commands (`git log`, `git config --list`) from the repository"
            ))),
            Ok(r) if r.abs.is_dir() => Ok(r.rel),
            Ok(_) => Err(Blocked::path(format!("`cd {shown}`: not a directory"))),
            Err(e) if e.kind() == ErrorKind::NotFound => Err(Blocked::path(format!(
                "`cd {shown}`: no such directory. Use `ls` or the tree tool to see what exists"
            ))),
            Err(e) => Err(Blocked::path(format!(
                "`cd {shown}`: the path {}",
                path_reason(e.message())
            ))),
        }
    }
}

/// What a non-regular, non-directory file is, for the refusal message.
fn special_file(meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if t.is_socket() {
        Some("a socket")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else {
        None
    }
}

/// Turns `RepoRoot`'s "Path refused: `x` is absolute; …" into a clause.
fn path_reason(msg: &str) -> String {
    let body = msg.trim_start_matches("Path refused: ");
    let after = body.find("` ").map(|i| &body[i + 2..]).unwrap_or(body);
    let first = after.split(". ").next().unwrap_or(after);
    format!("{first}; only paths inside the repository may be used")
}

/// The programs that may run; everything else is refused with a reason.
pub const ALLOWED: &[&str] = &[
    "cat",
    "head",
    "tail",
    "wc",
    "nl",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "find",
    "ls",
    "tree",
    "sed",
    "awk",
    "sort",
    "uniq",
    "cut",
    "tr",
    "file",
    "stat",
    "du",
    "xargs",
    "basename",
    "dirname",
    "git",
    "diff",
    "jq",
    "od",
    "xxd",
    "hexdump",
    "sha256sum",
    "md5sum",
    "base64",
    "column",
    "fd",
    "ag",
];

/// Targets of `xargs` whose items are file names.
const XARGS_FILE_READERS: [&str; 27] = [
    "cat",
    "head",
    "tail",
    "wc",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ls",
    "file",
    "stat",
    "du",
    "nl",
    "sed",
    "awk",
    "sort",
    "uniq",
    "cut",
    "diff",
    "od",
    "xxd",
    "hexdump",
    "sha256sum",
    "md5sum",
    "base64",
    "column",
    "jq",
];

/// Why a program that is not allowed is refused.
pub fn unknown_program(name: &str) -> Blocked {
    let shown = escape_for_display(name);
    Blocked::program(match name {
        "rm" | "mv" | "cp" | "tee" | "touch" | "mkdir" | "rmdir" | "chmod" | "chown" | "ln"
        | "dd" | "truncate" | "install" | "shred" | "patch" | "chgrp" | "mkfifo" | "mknod"
        | "unlink" | "sponge" | "rsync" => {
            format!("`{shown}` changes files, and the bash tool is read-only")
        }
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "fish" | "csh" | "tcsh" | "python" | "python3"
        | "python2" | "perl" | "ruby" | "node" | "nodejs" | "deno" | "bun" | "php" | "lua"
        | "tclsh" | "pwsh" | "go" | "cargo" | "java" | "make" | "npm" | "npx" | "pip" | "gawk"
        | "mawk" | "nawk" | "busybox" => format!(
            "`{shown}` runs arbitrary code; only read-only programs may run. Read the code with the read tool or search it with grep/rg"
        ),
        "eval" | "exec" | "source" | "." | "builtin" | "command" | "hash" | "alias" | "unalias"
        | "set" | "export" | "env" | "nohup" | "timeout" | "nice" | "sudo" | "su" | "watch"
        | "time" | "trap" | "declare" | "typeset" | "local" | "read" | "unset" | "shopt"
        | "enable" | "kill" | "exit" | "return" | "fc" | "history" | "jobs" | "fg" | "bg"
        | "wait" | "coproc" | "ulimit" | "umask" | "chroot" | "setsid" | "stdbuf" | "script" => {
            format!(
                "`{shown}` would change the shell or run another command; send the command itself"
            )
        }
        "curl" | "wget" | "nc" | "ncat" | "netcat" | "ssh" | "scp" | "sftp" | "ftp" | "telnet"
        | "socat" | "ping" | "dig" | "nslookup" | "host" => {
            format!("`{shown}` uses the network, and there is no network here")
        }
        "less" | "more" | "most" | "vi" | "vim" | "nvim" | "nano" | "emacs" | "ed" | "view"
        | "pg" | "man" => {
            format!("`{shown}` is interactive; use `sed -n '1,80p' FILE`, `head`, or the read tool")
        }
        "realpath" | "readlink" | "pwd" => {
            format!("`{shown}` is not available; paths here are relative to the repository root")
        }
        _ if name.contains('/') => format!(
            "`{shown}` runs a program by path; only the listed programs may run ({})",
            ALLOWED.join(", ")
        ),
        _ => format!(
            "`{shown}` is not an allowed program. Allowed: {}, plus cd, echo, true and false",
            ALLOWED.join(", ")
        ),
    })
}

/// The option table of `name`, or `None` when it has none of its own (find, git, xargs).
pub fn program_spec(name: &str) -> Option<&'static Spec> {
    use A::*;
    const DIFF_R: &str = "`diff -r` follows links inside the directories it walks; compare files one by one, or use `git diff`";
    const READ_MANY: &str = "reads a list of files from a file; pass the paths as arguments";
    static CAT: Spec = Spec {
        short: &[
            ('n', No),
            ('A', No),
            ('b', No),
            ('e', No),
            ('E', No),
            ('s', No),
            ('t', No),
            ('T', No),
            ('v', No),
            ('u', No),
        ],
        long: &[
            ("number", No),
            ("show-all", No),
            ("number-nonblank", No),
            ("show-ends", No),
            ("squeeze-blank", No),
            ("show-tabs", No),
            ("show-nonprinting", No),
        ],
        digits: false,
    };
    static HEAD: Spec = Spec {
        short: &[('n', Val), ('c', Val), ('q', No), ('v', No), ('z', No)],
        long: &[
            ("lines", Val),
            ("bytes", Val),
            ("quiet", No),
            ("silent", No),
            ("verbose", No),
            ("zero-terminated", No),
        ],
        digits: true,
    };
    static TAIL: Spec = Spec {
        short: &[
            ('n', Val),
            ('c', Val),
            ('q', No),
            ('v', No),
            ('z', No),
            ('f', Deny("`tail -f` waits forever; use `tail -n 50 FILE`")),
            ('F', Deny("`tail -F` waits forever; use `tail -n 50 FILE`")),
        ],
        long: &[
            ("lines", Val),
            ("bytes", Val),
            ("quiet", No),
            ("silent", No),
            ("verbose", No),
            ("zero-terminated", No),
            (
                "follow",
                Deny("`tail --follow` waits forever; use `tail -n 50 FILE`"),
            ),
        ],
        digits: true,
    };
    static WC: Spec = Spec {
        short: &[('l', No), ('w', No), ('c', No), ('m', No), ('L', No)],
        long: &[
            ("lines", No),
            ("words", No),
            ("bytes", No),
            ("chars", No),
            ("max-line-length", No),
            ("files0-from", Deny(READ_MANY)),
            ("total", Val),
        ],
        digits: false,
    };
    static NL: Spec = Spec {
        short: &[
            ('b', Val),
            ('n', Val),
            ('w', Val),
            ('s', Val),
            ('v', Val),
            ('i', Val),
            ('h', Val),
            ('f', Val),
        ],
        long: &[
            ("body-numbering", Val),
            ("number-format", Val),
            ("number-width", Val),
            ("number-separator", Val),
            ("starting-line-number", Val),
            ("line-increment", Val),
        ],
        digits: false,
    };
    static GREP: Spec = Spec {
        short: &[
            ('i', No),
            ('y', No),
            ('v', No),
            ('n', No),
            ('l', No),
            ('L', No),
            ('c', No),
            ('w', No),
            ('x', No),
            ('E', No),
            ('F', No),
            ('G', No),
            ('P', No),
            ('o', No),
            ('q', No),
            ('s', No),
            ('h', No),
            ('H', No),
            ('r', No),
            ('I', No),
            ('a', No),
            ('z', No),
            ('Z', No),
            ('b', No),
            ('U', No),
            ('T', No),
            (
                'R',
                Deny(
                    "`grep -R` follows symlinks that may lead out of the repository; use `grep -r`",
                ),
            ),
            ('A', Val),
            ('B', Val),
            ('C', Val),
            ('m', Val),
            ('e', Val),
            ('f', Path),
            ('d', Val),
            ('D', Deny("devices are not searched here")),
        ],
        long: &[
            ("ignore-case", No),
            ("no-ignore-case", No),
            ("invert-match", No),
            ("line-number", No),
            ("files-with-matches", No),
            ("files-without-match", No),
            ("count", No),
            ("word-regexp", No),
            ("line-regexp", No),
            ("extended-regexp", No),
            ("fixed-strings", No),
            ("basic-regexp", No),
            ("perl-regexp", No),
            ("only-matching", No),
            ("quiet", No),
            ("silent", No),
            ("no-messages", No),
            ("no-filename", No),
            ("with-filename", No),
            ("recursive", No),
            ("text", No),
            ("null", No),
            ("null-data", No),
            ("byte-offset", No),
            ("binary", No),
            ("initial-tab", No),
            ("line-buffered", No),
            (
                "dereference-recursive",
                Deny(
                    "`grep -R` follows symlinks that may lead out of the repository; use `grep -r`",
                ),
            ),
            ("after-context", Val),
            ("before-context", Val),
            ("context", Val),
            ("max-count", Val),
            ("regexp", Val),
            ("file", Path),
            ("include", Val),
            ("exclude", Val),
            ("exclude-dir", Val),
            ("exclude-from", Path),
            ("color", Opt),
            ("colour", Opt),
            ("label", Val),
            ("binary-files", Val),
            ("directories", Val),
            ("devices", Deny("devices are not searched here")),
        ],
        digits: true,
    };
    static RG: Spec = Spec {
        short: &[
            ('i', No),
            ('S', No),
            ('s', No),
            ('v', No),
            ('n', No),
            ('N', No),
            ('l', No),
            ('c', No),
            ('w', No),
            ('x', No),
            ('F', No),
            ('o', No),
            ('q', No),
            ('H', No),
            ('I', No),
            ('U', No),
            ('P', No),
            ('u', No),
            ('a', No),
            ('0', No),
            ('b', No),
            ('p', No),
            (
                'L',
                Deny("`rg -L` follows symlinks that may lead out of the repository; drop it"),
            ),
            (
                'z',
                Deny("`rg -z` runs decompression programs; search the plain files"),
            ),
            ('A', Val),
            ('B', Val),
            ('C', Val),
            ('m', Val),
            ('e', Val),
            ('g', Val),
            ('t', Val),
            ('T', Val),
            ('M', Val),
            ('d', Val),
            ('j', Val),
            ('r', Val),
            ('E', Val),
            ('f', Path),
        ],
        long: &[
            ("ignore-case", No),
            ("smart-case", No),
            ("case-sensitive", No),
            ("invert-match", No),
            ("line-number", No),
            ("no-line-number", No),
            ("files-with-matches", No),
            ("files-without-match", No),
            ("count", No),
            ("count-matches", No),
            ("word-regexp", No),
            ("line-regexp", No),
            ("fixed-strings", No),
            ("only-matching", No),
            ("quiet", No),
            ("with-filename", No),
            ("no-filename", No),
            ("no-heading", No),
            ("heading", No),
            ("hidden", No),
            ("no-ignore", No),
            ("no-ignore-vcs", No),
            ("no-ignore-parent", No),
            ("no-ignore-dot", No),
            ("multiline", No),
            ("multiline-dotall", No),
            ("pcre2", No),
            ("text", No),
            ("null", No),
            ("files", No),
            ("type-list", No),
            ("vimgrep", No),
            ("json", No),
            ("column", No),
            ("no-messages", No),
            ("stats", No),
            ("passthru", No),
            ("trim", No),
            ("glob-case-insensitive", No),
            ("binary", No),
            ("byte-offset", No),
            ("crlf", No),
            ("max-columns-preview", No),
            ("no-config", No),
            ("one-file-system", No),
            ("pretty", No),
            ("no-unicode", No),
            ("null-data", No),
            ("invert-match", No),
            (
                "follow",
                Deny("`rg --follow` follows symlinks that may lead out of the repository; drop it"),
            ),
            (
                "search-zip",
                Deny("`rg --search-zip` runs decompression programs; search the plain files"),
            ),
            (
                "pre",
                Deny("`rg --pre` runs another program on every file; search the files directly"),
            ),
            (
                "pre-glob",
                Deny("`rg --pre-glob` belongs to `--pre`, which runs another program"),
            ),
            (
                "ignore-file",
                Deny("extra ignore files are not supported; use `-g '!pattern'`"),
            ),
            ("after-context", Val),
            ("before-context", Val),
            ("context", Val),
            ("max-count", Val),
            ("regexp", Val),
            ("glob", Val),
            ("iglob", Val),
            ("type", Val),
            ("type-not", Val),
            ("max-columns", Val),
            ("max-depth", Val),
            ("max-filesize", Val),
            ("threads", Val),
            ("replace", Val),
            ("sort", Val),
            ("sortr", Val),
            ("color", Val),
            ("colors", Val),
            ("encoding", Val),
            ("engine", Val),
            ("context-separator", Val),
            ("field-match-separator", Val),
            ("field-context-separator", Val),
            ("path-separator", Val),
            ("type-add", Val),
            ("type-clear", Val),
            ("file", Path),
            ("regex-size-limit", Val),
            ("dfa-size-limit", Val),
        ],
        digits: false,
    };
    static LS: Spec = Spec {
        short: &[
            ('l', No),
            ('a', No),
            ('A', No),
            ('h', No),
            ('R', No),
            ('t', No),
            ('S', No),
            ('r', No),
            ('1', No),
            ('d', No),
            ('F', No),
            ('p', No),
            ('i', No),
            ('s', No),
            ('n', No),
            ('x', No),
            ('X', No),
            ('u', No),
            ('c', No),
            ('U', No),
            ('v', No),
            ('g', No),
            ('o', No),
            ('G', No),
            ('B', No),
            ('k', No),
            ('m', No),
            ('C', No),
            ('Q', No),
            ('N', No),
            ('q', No),
            (
                'L',
                Deny("`ls -L` follows symlinks that may lead out of the repository; drop it"),
            ),
            ('I', Val),
            ('w', Val),
            ('T', Val),
        ],
        long: &[
            ("all", No),
            ("almost-all", No),
            ("human-readable", No),
            ("recursive", No),
            ("reverse", No),
            ("directory", No),
            ("classify", No),
            ("inode", No),
            ("size", No),
            ("numeric-uid-gid", No),
            ("group-directories-first", No),
            ("color", Opt),
            ("sort", Val),
            ("time-style", Val),
            ("time", Val),
            ("format", Val),
            ("ignore", Val),
            ("hide", Val),
            ("full-time", No),
            ("si", No),
            ("indicator-style", Val),
            ("width", Val),
            ("quoting-style", Val),
            ("literal", No),
            ("escape", No),
            ("file-type", No),
            ("no-group", No),
            ("author", No),
            (
                "dereference",
                Deny("`ls -L` follows symlinks that may lead out of the repository; drop it"),
            ),
        ],
        digits: false,
    };
    static TREE: Spec = Spec {
        short: &[
            ('a', No),
            ('d', No),
            ('f', No),
            ('i', No),
            ('F', No),
            ('s', No),
            ('h', No),
            ('D', No),
            ('C', No),
            ('n', No),
            ('p', No),
            ('u', No),
            ('g', No),
            ('Q', No),
            ('N', No),
            ('q', No),
            ('v', No),
            ('t', No),
            ('c', No),
            ('r', No),
            ('U', No),
            ('x', No),
            ('L', Val),
            ('I', Val),
            ('P', Val),
            (
                'o',
                Deny("`tree -o` writes a file; the output is shown to you already"),
            ),
            ('R', Deny("`tree -R` writes files into every directory")),
            ('H', Deny("`tree -H` writes HTML; drop it")),
            (
                'l',
                Deny("`tree -l` follows symlinks that may lead out of the repository; drop it"),
            ),
        ],
        long: &[
            ("noreport", No),
            ("dirsfirst", No),
            ("filesfirst", No),
            ("prune", No),
            ("matchdirs", No),
            ("gitignore", No),
            ("ignore-case", No),
            ("du", No),
            ("charset", Val),
            ("filelimit", Val),
            ("sort", Val),
            ("timefmt", Val),
            (
                "info",
                Deny(
                    "`tree --info` prints comments from `.info` files, which may be links out of the repository; drop it",
                ),
            ),
            (
                "fromfile",
                Deny("`tree --fromfile` reads a listing from a file; pass a directory"),
            ),
            (
                "gitfile",
                Deny("`tree --gitfile` reads another file; use --gitignore"),
            ),
            (
                "infofile",
                Deny("`tree --infofile` reads another file; drop it"),
            ),
        ],
        digits: false,
    };
    static SED: Spec = Spec {
        short: &[
            ('n', No),
            ('E', No),
            ('r', No),
            ('s', No),
            ('u', No),
            ('z', No),
            ('e', Val),
            (
                'i',
                Deny(
                    "`sed -i` edits files in place; the bash tool is read-only. Use `sed -n 'START,ENDp' FILE` to view lines",
                ),
            ),
            (
                'f',
                Deny("`sed -f` runs a script from a file; write the script inline"),
            ),
            ('l', Val),
        ],
        long: &[
            ("quiet", No),
            ("silent", No),
            ("regexp-extended", No),
            ("separate", No),
            ("unbuffered", No),
            ("null-data", No),
            ("posix", No),
            ("sandbox", No),
            ("debug", No),
            ("expression", Val),
            ("line-length", Val),
            (
                "in-place",
                Deny("`sed --in-place` edits files; the bash tool is read-only"),
            ),
            (
                "file",
                Deny("`sed --file` runs a script from a file; write the script inline"),
            ),
        ],
        digits: false,
    };
    static AWK: Spec = Spec {
        short: &[
            ('F', Val),
            ('v', Val),
            (
                'f',
                Deny("`awk -f` runs a program from a file; write the program inline"),
            ),
        ],
        long: &[],
        digits: false,
    };
    static SORT: Spec = Spec {
        short: &[
            ('n', No),
            ('r', No),
            ('u', No),
            ('f', No),
            ('h', No),
            ('V', No),
            ('b', No),
            ('s', No),
            ('g', No),
            ('M', No),
            ('d', No),
            ('i', No),
            ('z', No),
            ('R', No),
            ('c', No),
            ('C', No),
            ('k', Val),
            ('t', Val),
            ('S', Val),
            (
                'o',
                Deny("`sort -o` writes a file; the sorted output is shown to you already"),
            ),
            (
                'T',
                Deny("`sort -T` picks a directory to write into; drop it"),
            ),
        ],
        long: &[
            ("numeric-sort", No),
            ("reverse", No),
            ("unique", No),
            ("ignore-case", No),
            ("human-numeric-sort", No),
            ("version-sort", No),
            ("ignore-leading-blanks", No),
            ("stable", No),
            ("general-numeric-sort", No),
            ("month-sort", No),
            ("dictionary-order", No),
            ("zero-terminated", No),
            ("key", Val),
            ("field-separator", Val),
            ("buffer-size", Val),
            ("parallel", Val),
            ("check", No),
            (
                "output",
                Deny("`sort --output` writes a file; the sorted output is shown to you already"),
            ),
            (
                "temporary-directory",
                Deny("`sort -T` picks a directory to write into; drop it"),
            ),
            (
                "compress-program",
                Deny("`sort --compress-program` runs another program"),
            ),
            ("files0-from", Deny(READ_MANY)),
            (
                "random-source",
                Deny("`sort --random-source` reads another file"),
            ),
        ],
        digits: false,
    };
    static UNIQ: Spec = Spec {
        short: &[
            ('c', No),
            ('d', No),
            ('u', No),
            ('i', No),
            ('z', No),
            ('D', No),
            ('f', Val),
            ('s', Val),
            ('w', Val),
        ],
        long: &[
            ("count", No),
            ("repeated", No),
            ("unique", No),
            ("ignore-case", No),
            ("zero-terminated", No),
            ("skip-fields", Val),
            ("skip-chars", Val),
            ("check-chars", Val),
            ("all-repeated", No),
        ],
        digits: false,
    };
    static CUT: Spec = Spec {
        short: &[
            ('d', Val),
            ('f', Val),
            ('c', Val),
            ('b', Val),
            ('s', No),
            ('n', No),
            ('z', No),
        ],
        long: &[
            ("delimiter", Val),
            ("fields", Val),
            ("characters", Val),
            ("bytes", Val),
            ("only-delimited", No),
            ("complement", No),
            ("output-delimiter", Val),
            ("zero-terminated", No),
        ],
        digits: false,
    };
    static TR: Spec = Spec {
        short: &[('d', No), ('s', No), ('c', No), ('C', No), ('t', No)],
        long: &[
            ("delete", No),
            ("squeeze-repeats", No),
            ("complement", No),
            ("truncate-set1", No),
        ],
        digits: false,
    };
    static FILE: Spec = Spec {
        short: &[
            ('b', No),
            ('i', No),
            ('L', No),
            ('h', No),
            ('k', No),
            ('r', No),
            ('N', No),
            ('E', No),
            ('0', No),
            ('e', Val),
            ('F', Val),
            (
                'f',
                Deny("`file -f` reads a list of names from a file; pass the paths"),
            ),
            ('m', Deny("`file -m` loads another magic file")),
            (
                'z',
                Deny("`file -z` looks inside compressed files; drop it"),
            ),
            (
                'Z',
                Deny("`file -Z` looks inside compressed files; drop it"),
            ),
            ('C', Deny("`file -C` writes a compiled magic file")),
        ],
        long: &[
            ("brief", No),
            ("mime", No),
            ("mime-type", No),
            ("mime-encoding", No),
            ("dereference", No),
            ("no-dereference", No),
            ("keep-going", No),
            ("raw", No),
            ("no-pad", No),
            ("extension", No),
            ("exclude", Val),
            ("separator", Val),
            (
                "files-from",
                Deny("`file --files-from` reads a list of names from a file; pass the paths"),
            ),
            (
                "magic-file",
                Deny("`file --magic-file` loads another magic file"),
            ),
            (
                "uncompress",
                Deny("`file -z` looks inside compressed files; drop it"),
            ),
            ("compile", Deny("`file -C` writes a compiled magic file")),
        ],
        digits: false,
    };
    static STAT: Spec = Spec {
        short: &[('c', Val), ('L', No), ('t', No), ('f', No)],
        long: &[
            ("format", Val),
            ("printf", Val),
            ("dereference", No),
            ("terse", No),
            ("file-system", No),
        ],
        digits: false,
    };
    static DU: Spec = Spec {
        short: &[
            ('s', No),
            ('h', No),
            ('a', No),
            ('c', No),
            ('k', No),
            ('m', No),
            ('b', No),
            ('S', No),
            ('x', No),
            ('d', Val),
            ('t', Val),
            (
                'L',
                Deny("`du -L` follows symlinks that may lead out of the repository; drop it"),
            ),
            (
                'X',
                Deny("`du -X` reads patterns from a file; use --exclude=PATTERN"),
            ),
        ],
        long: &[
            ("summarize", No),
            ("human-readable", No),
            ("all", No),
            ("total", No),
            ("bytes", No),
            ("apparent-size", No),
            ("max-depth", Val),
            ("exclude", Val),
            ("threshold", Val),
            ("block-size", Val),
            ("inodes", No),
            ("one-file-system", No),
            ("time", No),
            (
                "dereference",
                Deny("`du -L` follows symlinks that may lead out of the repository; drop it"),
            ),
            (
                "exclude-from",
                Deny("`du -X` reads patterns from a file; use --exclude=PATTERN"),
            ),
            ("files0-from", Deny(READ_MANY)),
        ],
        digits: false,
    };
    static DIFF: Spec = Spec {
        short: &[
            ('u', No),
            ('q', No),
            ('s', No),
            ('r', Deny(DIFF_R)),
            ('N', No),
            ('i', No),
            ('w', No),
            ('b', No),
            ('B', No),
            ('a', No),
            ('y', No),
            ('c', No),
            ('t', No),
            ('p', No),
            ('U', Val),
            ('C', Val),
            ('W', Val),
            ('x', Val),
            ('I', Val),
            (
                'X',
                Deny("`diff -X` reads patterns from a file; use -x PATTERN"),
            ),
        ],
        long: &[
            ("unified", Opt),
            ("brief", No),
            ("report-identical-files", No),
            ("recursive", Deny(DIFF_R)),
            ("new-file", No),
            ("ignore-case", No),
            ("ignore-all-space", No),
            ("ignore-space-change", No),
            ("ignore-blank-lines", No),
            ("text", No),
            ("side-by-side", No),
            ("exclude", Val),
            ("color", Opt),
            ("strip-trailing-cr", No),
            ("ignore-matching-lines", Val),
            ("width", Val),
            ("context", Opt),
            ("show-c-function", No),
            ("expand-tabs", No),
            (
                "exclude-from",
                Deny("`diff -X` reads patterns from a file; use -x PATTERN"),
            ),
            ("to-file", Deny("pass both files as arguments")),
            ("from-file", Deny("pass both files as arguments")),
        ],
        digits: false,
    };
    static NONE: Spec = Spec {
        short: &[],
        long: &[],
        digits: false,
    };
    static OD: Spec = Spec {
        short: &[
            ('A', Val),
            ('j', Val),
            ('N', Val),
            ('S', Val),
            ('t', Val),
            ('w', Opt),
            ('v', No),
            ('a', No),
            ('b', No),
            ('c', No),
            ('d', No),
            ('f', No),
            ('i', No),
            ('l', No),
            ('o', No),
            ('s', No),
            ('x', No),
        ],
        long: &[
            ("address-radix", Val),
            ("skip-bytes", Val),
            ("read-bytes", Val),
            ("strings", Opt),
            ("format", Val),
            ("width", Opt),
            ("endian", Val),
            ("output-duplicates", No),
            ("traditional", No),
        ],
        digits: false,
    };
    static HEXDUMP: Spec = Spec {
        short: &[
            ('b', No),
            ('c', No),
            ('C', No),
            ('d', No),
            ('o', No),
            ('x', No),
            ('X', No),
            ('v', No),
            ('e', Val),
            ('f', Path),
            ('n', Val),
            ('s', Val),
        ],
        long: &[
            ("one-byte-octal", No),
            ("one-byte-hex", No),
            ("one-byte-char", No),
            ("canonical", No),
            ("two-bytes-decimal", No),
            ("two-bytes-octal", No),
            ("two-bytes-hex", No),
            ("no-squeezing", No),
            ("format", Val),
            ("format-file", Path),
            ("length", Val),
            ("skip", Val),
        ],
        digits: false,
    };
    static SUM: Spec = Spec {
        short: &[('b', No), ('t', No), ('z', No), ('c', No), ('w', No)],
        long: &[
            ("binary", No),
            ("text", No),
            ("zero", No),
            ("tag", No),
            ("check", No),
            ("ignore-missing", No),
            ("quiet", No),
            ("status", No),
            ("strict", No),
            ("warn", No),
        ],
        digits: false,
    };
    static BASE64: Spec = Spec {
        short: &[('d', No), ('i', No), ('w', Val)],
        long: &[("decode", No), ("ignore-garbage", No), ("wrap", Val)],
        digits: false,
    };
    static COLUMN: Spec = Spec {
        short: &[
            ('t', No),
            ('x', No),
            ('d', No),
            ('e', No),
            ('J', No),
            ('L', No),
            ('c', Val),
            ('E', Val),
            ('H', Val),
            ('i', Val),
            ('l', Val),
            ('n', Val),
            ('N', Val),
            ('O', Val),
            ('o', Val),
            ('p', Val),
            ('r', Val),
            ('R', Val),
            ('s', Val),
            ('T', Val),
            ('W', Val),
        ],
        long: &[
            ("table", No),
            ("fillrows", No),
            ("table-noheadings", No),
            ("table-header-repeat", No),
            ("json", No),
            ("keep-empty-lines", No),
            ("output-width", Val),
            ("table-noextreme", Val),
            ("table-hide", Val),
            ("tree-id", Val),
            ("table-columns-limit", Val),
            ("table-name", Val),
            ("table-columns", Val),
            ("table-order", Val),
            ("output-separator", Val),
            ("tree-parent", Val),
            ("tree", Val),
            ("table-right", Val),
            ("separator", Val),
            ("table-truncate", Val),
            ("table-wrap", Val),
        ],
        digits: false,
    };
    const FD_EXEC: &str = "`fd -x/-X` runs a program on every match; pipe the names instead: `fd PATTERN | xargs grep -n TEXT`";
    const FD_LINKS: &str = "`fd -L` follows symlinks that may lead out of the repository; drop it";
    static FD: Spec = Spec {
        short: &[
            ('H', No),
            ('I', No),
            ('u', No),
            ('s', No),
            ('i', No),
            ('g', No),
            ('F', No),
            ('a', No),
            ('p', No),
            ('0', No),
            ('1', No),
            ('q', No),
            ('d', Val),
            ('e', Val),
            ('E', Val),
            ('t', Val),
            ('S', Val),
            ('c', Val),
            ('j', Val),
            ('x', Deny(FD_EXEC)),
            ('X', Deny(FD_EXEC)),
            (
                'l',
                Deny("`fd -l` runs `ls` on every match; pipe into `xargs ls -l` instead"),
            ),
            ('L', Deny(FD_LINKS)),
        ],
        long: &[
            ("hidden", No),
            ("no-ignore", No),
            ("no-ignore-vcs", No),
            ("no-ignore-parent", No),
            ("no-require-git", No),
            ("unrestricted", No),
            ("case-sensitive", No),
            ("ignore-case", No),
            ("glob", No),
            ("regex", No),
            ("fixed-strings", No),
            ("absolute-path", No),
            ("full-path", No),
            ("print0", No),
            ("prune", No),
            ("one-file-system", No),
            ("strip-cwd-prefix", No),
            ("show-errors", No),
            ("quiet", No),
            ("max-depth", Val),
            ("min-depth", Val),
            ("exact-depth", Val),
            ("type", Val),
            ("extension", Val),
            ("exclude", Val),
            ("size", Val),
            ("changed-within", Val),
            ("changed-before", Val),
            ("max-results", Val),
            ("color", Val),
            ("threads", Val),
            ("and", Val),
            ("search-path", Path),
            ("base-directory", Path),
            ("exec", Deny(FD_EXEC)),
            ("exec-batch", Deny(FD_EXEC)),
            ("batch-size", Deny(FD_EXEC)),
            (
                "list-details",
                Deny("`fd -l` runs `ls` on every match; pipe into `xargs ls -l` instead"),
            ),
            ("follow", Deny(FD_LINKS)),
            (
                "ignore-file",
                Deny("extra ignore files are not supported; use `-E PATTERN`"),
            ),
        ],
        digits: false,
    };
    const AG_ALL: &str = "`ag -u/-a` searches past the ignore rules that keep masked files out; use `--hidden` and `-U`";
    static AG: Spec = Spec {
        short: &[
            ('c', No),
            ('i', No),
            ('l', No),
            ('L', No),
            ('n', No),
            ('o', No),
            ('Q', No),
            ('s', No),
            ('S', No),
            ('t', Deny(AG_ALL)),
            ('U', No),
            ('v', No),
            ('w', No),
            ('0', No),
            ('A', Val),
            ('B', Val),
            ('C', Val),
            ('G', Val),
            ('g', Val),
            ('m', Val),
            ('p', Path),
            (
                'f',
                Deny("`ag -f` follows symlinks that may lead out of the repository; drop it"),
            ),
            (
                'z',
                Deny("`ag -z` looks inside compressed files; search the plain files"),
            ),
            ('u', Deny(AG_ALL)),
            ('a', Deny(AG_ALL)),
            ('D', Deny("`ag -D` prints debugging output; drop it")),
        ],
        long: &[
            ("count", No),
            ("ignore-case", No),
            ("smart-case", No),
            ("case-sensitive", No),
            ("files-with-matches", No),
            ("files-without-matches", No),
            ("literal", No),
            ("word-regexp", No),
            ("invert-match", No),
            ("only-matching", No),
            ("column", No),
            ("vimgrep", No),
            ("noheading", No),
            ("heading", No),
            ("nobreak", No),
            ("filename", No),
            ("nofilename", No),
            ("nocolor", No),
            ("null", No),
            ("hidden", No),
            ("skip-vcs-ignores", No),
            ("one-device", No),
            ("silent", No),
            ("stats", No),
            ("numbers", No),
            ("nonumbers", No),
            ("after", Opt),
            ("before", Opt),
            ("context", Opt),
            ("max-count", Val),
            ("depth", Val),
            ("file-search-regex", Val),
            ("ignore", Val),
            ("ignore-dir", Val),
            ("workers", Val),
            ("path-to-ignore", Path),
            (
                "follow",
                Deny("`ag --follow` follows symlinks that may lead out of the repository; drop it"),
            ),
            (
                "search-zip",
                Deny("`ag -z` looks inside compressed files; search the plain files"),
            ),
            ("pager", Deny("`ag --pager` runs another program; drop it")),
            ("unrestricted", Deny(AG_ALL)),
            ("all-types", Deny(AG_ALL)),
            ("all-text", Deny(AG_ALL)),
            ("search-binary", Deny(AG_ALL)),
        ],
        digits: false,
    };
    static BASENAME: Spec = Spec {
        short: &[('a', No), ('z', No), ('s', Val)],
        long: &[("multiple", No), ("suffix", Val), ("zero", No)],
        digits: false,
    };
    Some(match name {
        "cat" => &CAT,
        "head" => &HEAD,
        "tail" => &TAIL,
        "wc" => &WC,
        "nl" => &NL,
        "grep" | "egrep" | "fgrep" => &GREP,
        "rg" => &RG,
        "ls" => &LS,
        "tree" => &TREE,
        "sed" => &SED,
        "awk" => &AWK,
        "sort" => &SORT,
        "uniq" => &UNIQ,
        "cut" => &CUT,
        "tr" => &TR,
        "file" => &FILE,
        "stat" => &STAT,
        "du" => &DU,
        "diff" => &DIFF,
        "basename" => &BASENAME,
        "dirname" => &NONE,
        "od" => &OD,
        "hexdump" => &HEXDUMP,
        "sha256sum" | "md5sum" => &SUM,
        "base64" => &BASE64,
        "column" => &COLUMN,
        "fd" => &FD,
        "ag" => &AG,
        _ => return None,
    })
}

/// One option as given: its spelling (`-n`, `--max-count`) and value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opt {
    /// `-x` or `--long`.
    pub name: String,
    /// The value, if the option takes one.
    pub value: Option<String>,
}

/// Options and positional arguments after checking against `spec`.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Options, in order.
    pub opts: Vec<Opt>,
    /// Positional arguments, in order.
    pub pos: Vec<String>,
}

impl Parsed {
    /// Whether an option spelled any of `names` was given.
    pub fn has(&self, names: &[&str]) -> bool {
        self.opts.iter().any(|o| names.contains(&o.name.as_str()))
    }
}

/// Checks `args` against `spec`, checking path-valued options on the way.
pub fn parse_opts(
    prog: &str,
    spec: &Spec,
    args: &[String],
    ctx: &Ctx<'_>,
) -> Result<Parsed, Blocked> {
    let mut out = Parsed::default();
    let mut i = 0;
    let mut only_pos = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_pos || arg == "-" || !arg.starts_with('-') {
            out.pos.push(arg.clone());
            continue;
        }
        if arg == "--" {
            only_pos = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let Some(&(_, kind)) = spec.long.iter().find(|(n, _)| *n == name) else {
                return Err(unknown_option(prog, &format!("--{name}"), spec));
            };
            let value = match kind {
                A::No => {
                    if inline.is_some() {
                        return Err(format!("`{prog} --{name}` takes no value").into());
                    }
                    None
                }
                A::Deny(why) => return Err(why.into()),
                A::Opt => inline,
                A::Val | A::Path => match inline {
                    Some(v) => Some(v),
                    None => {
                        let v = args
                            .get(i)
                            .cloned()
                            .ok_or_else(|| format!("`{prog} --{name}` needs a value"))?;
                        i += 1;
                        Some(v)
                    }
                },
            };
            if kind == A::Path
                && let Some(v) = &value
            {
                ctx.check_path(v, prog)?;
            }
            out.opts.push(Opt {
                name: format!("--{name}"),
                value,
            });
            continue;
        }
        // A cluster of short options: `-rn`, `-A3`, `-n 5`, `-20`.
        let body = &arg[1..];
        if spec.digits && body.chars().all(|c| c.is_ascii_digit()) {
            out.opts.push(Opt {
                name: arg.clone(),
                value: None,
            });
            continue;
        }
        let chars: Vec<char> = body.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            j += 1;
            let Some(&(_, kind)) = spec.short.iter().find(|(s, _)| *s == c) else {
                if spec.digits && c.is_ascii_digit() {
                    continue;
                }
                return Err(unknown_option(prog, &format!("-{c}"), spec));
            };
            match kind {
                A::No => out.opts.push(Opt {
                    name: format!("-{c}"),
                    value: None,
                }),
                A::Deny(why) => return Err(why.into()),
                A::Opt => {
                    let rest: String = chars[j..].iter().collect();
                    j = chars.len();
                    out.opts.push(Opt {
                        name: format!("-{c}"),
                        value: (!rest.is_empty()).then_some(rest),
                    });
                }
                A::Val | A::Path => {
                    let rest: String = chars[j..].iter().collect();
                    if old_count_syntax(prog, &chars[..j - 1]) {
                        // head and tail read `-5c` as "5 bytes" (their old syntax): the
                        // letter is a unit and the next word is a file, which we would
                        // otherwise have taken, unchecked, as the value of `-c`.
                        let n: String = chars[..j - 1].iter().collect();
                        return Err(format!(
                            "`{prog} -{n}{c}` is {prog}'s old syntax for a count of {n}, so the word after it would be read as a file, not as the value of `-{c}`; write `{prog} -{c} {n} FILE`"
                        )
                        .into());
                    }
                    let value = if rest.is_empty() {
                        let v = args
                            .get(i)
                            .cloned()
                            .ok_or_else(|| format!("`{prog} -{c}` needs a value"))?;
                        i += 1;
                        v
                    } else {
                        rest
                    };
                    j = chars.len();
                    if kind == A::Path {
                        ctx.check_path(&value, prog)?;
                    }
                    out.opts.push(Opt {
                        name: format!("-{c}"),
                        value: Some(value),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Whether a cluster that starts with `before` (the characters ahead of an option that
/// takes a value) is head's or tail's old `-NUM[bcklm]…` form, in which the letter after
/// the count is a unit and takes no value.
fn old_count_syntax(prog: &str, before: &[char]) -> bool {
    matches!(prog, "head" | "tail") && !before.is_empty() && before.iter().all(char::is_ascii_digit)
}

fn unknown_option(prog: &str, opt: &str, spec: &Spec) -> Blocked {
    let mut names: Vec<String> = spec
        .short
        .iter()
        .filter(|(_, k)| !matches!(k, A::Deny(_)))
        .map(|(c, _)| format!("-{c}"))
        .collect();
    names.extend(
        spec.long
            .iter()
            .filter(|(_, k)| !matches!(k, A::Deny(_)))
            .map(|(n, _)| format!("--{n}")),
    );
    format!(
        "`{prog}` option `{}` is not on the allowed list. Allowed: {}",
        escape_for_display(opt),
        names.join(" ")
    )
    .into()
}

/// Checks one simple command (already expanded) and says what to run.
pub fn vet(
    words: &[String],
    assigns: &[(String, String)],
    ctx: &Ctx<'_>,
) -> Result<Stage, Blocked> {
    let Some(prog) = words.first() else {
        return Err("empty command".into());
    };
    let args = &words[1..];
    let mut env = Vec::new();
    for (k, v) in assigns {
        let locale = matches!(k.as_str(), "LC_ALL" | "LANG" | "LANGUAGE")
            || (k.starts_with("LC_") && k[3..].chars().all(|c| c.is_ascii_uppercase()));
        let value_ok = !v.is_empty()
            && v.len() < 40
            && v.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'));
        if !locale || !value_ok {
            return Err(format!(
                "the variable prefix `{}=…` is not allowed; only locale settings such as `LC_ALL=C` are",
                escape_for_display(k)
            ).into());
        }
        env.push((k.clone(), v.clone()));
    }
    match prog.as_str() {
        "cd" => {
            if !env.is_empty() {
                return Err("`cd` takes no variable prefix".into());
            }
            return match args {
                [] => Ok(Stage::Cd(".".into())),
                [dir] => ctx.check_dir(dir).map(Stage::Cd),
                _ => Err("`cd` takes one directory".into()),
            };
        }
        "echo" => {
            let (newline, rest) = match args.first().map(String::as_str) {
                Some("-n") => (false, &args[1..]),
                _ => (true, args),
            };
            let mut s = rest.join(" ");
            if newline {
                s.push('\n');
            }
            return Ok(Stage::Echo(s));
        }
        "true" | ":" => return Ok(Stage::Status(0)),
        "false" => return Ok(Stage::Status(1)),
        "pwd" => return Ok(Stage::Pwd),
        _ => {}
    }
    if !ALLOWED.contains(&prog.as_str()) {
        return Err(unknown_program(prog));
    }
    let exec = |args: Vec<String>, mut extra: Vec<(String, String)>| {
        let mut all = env.clone();
        all.append(&mut extra);
        Ok(Stage::Exec(Exec {
            program: prog.clone(),
            args,
            env: all,
            filter: OutputFilter::Urls,
        }))
    };
    match prog.as_str() {
        "find" => exec(vet_find(args, ctx)?, vec![]),
        "git" => Err("git is checked separately; send `git …` as its own command".into()),
        "xargs" => vet_xargs(args, env.clone()),
        "jq" => exec(readers::vet_jq(args, ctx)?, vec![]),
        "xxd" => exec(readers::vet_xxd(args, ctx)?, vec![]),
        p => {
            let spec = program_spec(p).ok_or_else(|| unknown_program(p))?;
            let parsed = parse_opts(p, spec, args, ctx)?;
            let args = vet_positionals(p, parsed, args, ctx)?;
            exec(args, vec![])
        }
    }
}

/// Program-specific meaning of positional arguments; returns the final argument list.
fn vet_positionals(
    prog: &str,
    parsed: Parsed,
    original: &[String],
    ctx: &Ctx<'_>,
) -> Result<Vec<String>, Blocked> {
    let mut args: Vec<String> = original.to_vec();
    let paths: &[String] = match prog {
        "grep" | "egrep" | "fgrep" => {
            // `-d recurse` is `-r` under another name (and GNU accepts `-d rec`): the
            // masks below are added for `-r` only, so `-d` takes `read` or `skip`.
            if let Some(v) = parsed
                .opts
                .iter()
                .filter(|o| o.name == "-d" || o.name == "--directories")
                .filter_map(|o| o.value.as_deref())
                .find(|v| !matches!(*v, "read" | "skip"))
            {
                return Err(format!(
                    "`grep -d {}`: only `-d read` and `-d skip` are accepted; to search directories use `grep -r`, which keeps masked files out",
                    escape_for_display(v)
                )
                .into());
            }
            let has_pattern = parsed.has(&["-e", "-f", "--regexp", "--file"]);
            let files = if has_pattern {
                &parsed.pos[..]
            } else {
                parsed.pos.get(1..).unwrap_or(&[])
            };
            if parsed.has(&["-r", "--recursive"]) {
                // Masked files never reach the output of a recursive search.
                let mut extra: Vec<String> = secrets::secret_globs()
                    .map(|g| format!("--exclude={g}"))
                    .collect();
                extra.extend(ctx.masked.iter().map(|m| format!("--exclude={}", base(m))));
                extra.push("--exclude-dir=.git".into());
                insert_last(&mut args, extra);
            }
            files
        }
        "rg" => {
            let has_pattern =
                parsed.has(&["-e", "-f", "--regexp", "--file", "--files", "--type-list"]);
            let files = if has_pattern {
                &parsed.pos[..]
            } else {
                parsed.pos.get(1..).unwrap_or(&[])
            };
            // rg adds every `--iglob` after every `--glob`, and the last matching glob
            // wins: masks given as `--glob` would lose to a user's `--iglob '*'`, so
            // they are `--iglob`s, after the user's.
            // `!.git` prunes every git directory (`--hidden` searches them otherwise),
            // whose configuration files can hold credentials.
            let mut extra: Vec<String> = vec!["--no-config".into(), "--iglob=!.git".into()];
            extra.extend(secrets::secret_globs().map(|g| format!("--iglob=!{g}")));
            extra.extend(ctx.masked.iter().map(|m| format!("--iglob=!{}", base(m))));
            insert_last(&mut args, extra);
            files
        }
        "sed" => {
            let scripts_given: Vec<&String> = parsed
                .opts
                .iter()
                .filter(|o| o.name == "-e" || o.name == "--expression")
                .filter_map(|o| o.value.as_ref())
                .collect();
            let (scripts, files): (Vec<&String>, &[String]) = if scripts_given.is_empty() {
                let first = parsed
                    .pos
                    .first()
                    .ok_or("`sed` needs a script, such as `sed -n '10,40p' FILE`")?;
                (vec![first], &parsed.pos[1..])
            } else {
                (scripts_given, &parsed.pos[..])
            };
            for s in scripts {
                scripts::check_sed(s)?;
            }
            // GNU sed's own sandbox refuses e/w/r too: a second lock on the same door.
            args.insert(0, "--sandbox".into());
            files
        }
        "awk" => {
            let prog_text = parsed
                .pos
                .first()
                .ok_or("`awk` needs a program, such as `awk '{print $1}' FILE`")?;
            scripts::check_awk(prog_text)?;
            let files = &parsed.pos[1..];
            // `var=value` operands are assignments, not files.
            for f in files {
                if is_awk_assignment(f) {
                    continue;
                }
                ctx.check_path(f, prog)?;
            }
            return Ok(args);
        }
        "uniq" => {
            if parsed.pos.len() > 1 {
                return Err("`uniq` with two file arguments writes the second one; give it one input (or pipe into it)".into());
            }
            &parsed.pos[..]
        }
        "sha256sum" | "md5sum" => {
            if parsed.has(&["-c", "--check"]) {
                readers::check_sum_lists(prog, &parsed.pos, ctx)?;
            }
            &parsed.pos[..]
        }
        "fd" => parsed.pos.get(1..).unwrap_or(&[]),
        "ag" => {
            let has_pattern = parsed.has(&["-g", "--file-search-regex"]);
            let files = if has_pattern {
                &parsed.pos[..]
            } else {
                parsed.pos.get(1..).unwrap_or(&[])
            };
            // ag reads no config file; its `--ignore` patterns keep masked files out.
            let mut extra: Vec<String> = secrets::secret_globs()
                .map(|g| format!("--ignore={g}"))
                .collect();
            extra.extend(ctx.masked.iter().map(|m| format!("--ignore={}", base(m))));
            extra.push("--ignore=.git".into());
            insert_last(&mut args, extra);
            files
        }
        "diff" => {
            // Given a directory, diff compares every file of it with its namesake in the
            // other operand (`-N`: with nothing), masked files and links out included.
            for p in &parsed.pos {
                if p != "-" && ctx.is_dir(p) {
                    return Err(format!(
                        "`diff` would read every file in the directory `{}`, masked files and links out of the repository included; compare two files, or use `git diff --stat`",
                        escape_for_display(p)
                    )
                    .into());
                }
            }
            &parsed.pos[..]
        }
        "tr" | "basename" | "dirname" => &[],
        "tree" => {
            args.insert(0, "-n".into());
            &parsed.pos[..]
        }
        _ => &parsed.pos[..],
    };
    let recursive = match prog {
        "rg" | "ag" => true,
        "grep" | "egrep" | "fgrep" => parsed.has(&["-r", "--recursive"]),
        _ => false,
    };
    for p in paths {
        ctx.check_path(p, prog)?;
        if recursive && ctx.in_git_dir(p) {
            return Err(Blocked::secrets(format!(
                "`{prog}` would search git's own files, among them its configuration, which can hold credentials; search history with `git grep`/`git log -S`, read settings with `git config --list`"
            )));
        }
    }
    Ok(args)
}

/// Adds options after the user's (the last matching glob or `--exclude` wins in rg and
/// grep, so ours must come last) but before a `--` that ends the options.
fn insert_last(args: &mut Vec<String>, extra: Vec<String>) {
    let at = args.iter().position(|a| a == "--").unwrap_or(args.len());
    args.splice(at..at, extra);
}

fn is_awk_assignment(s: &str) -> bool {
    match s.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `find`: starting points are paths; the expression is checked primary by primary.
fn vet_find(args: &[String], ctx: &Ctx<'_>) -> Result<Vec<String>, Blocked> {
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-H" | "-P" => i += 1,
            "-L" => {
                return Err(
                    "`find -L` follows symlinks that may lead out of the repository; drop it"
                        .into(),
                );
            }
            "-D" | "-O" | "-O1" | "-O2" | "-O3" => {
                return Err("`find -D/-O` are not supported; drop them".into());
            }
            _ => break,
        }
    }
    while i < args.len() {
        let a = args[i].as_str();
        if a.starts_with('-') || a == "(" || a == "!" || a == ")" || a == "," {
            break;
        }
        ctx.check_path(a, "find")?;
        i += 1;
    }
    const NOARG: [&str; 36] = [
        "-print",
        "-print0",
        "-prune",
        "-o",
        "-or",
        "-a",
        "-and",
        "-not",
        "!",
        "(",
        ")",
        ",",
        "-empty",
        "-readable",
        "-writable",
        "-executable",
        "-true",
        "-false",
        "-quit",
        "-ls",
        "-depth",
        "-d",
        "-mount",
        "-xdev",
        "-noleaf",
        "-daystart",
        "-nouser",
        "-nogroup",
        "-ignore_readdir_race",
        "-noignore_readdir_race",
        "-nowarn",
        "-warn",
        "-help",
        "--help",
        "-version",
        "--version",
    ];
    const ONEARG: [&str; 25] = [
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-regex",
        "-iregex",
        "-lname",
        "-ilname",
        "-type",
        "-xtype",
        "-maxdepth",
        "-mindepth",
        "-size",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-perm",
        "-links",
        "-regextype",
        "-printf",
    ];
    const ONEARG_MORE: [&str; 7] = [
        "-user", "-group", "-uid", "-gid", "-inum", "-used", "-fstype",
    ];
    const PATHARG: [&str; 4] = ["-newer", "-anewer", "-cnewer", "-samefile"];
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if NOARG.contains(&a) {
            continue;
        }
        let takes = ONEARG.contains(&a) || ONEARG_MORE.contains(&a);
        let path =
            PATHARG.contains(&a) || (a.len() == 8 && a.starts_with("-newer") && !a.ends_with('t'));
        let value = a.len() == 8 && a.starts_with("-newer") && a.ends_with('t');
        if takes || path || value {
            let v = args
                .get(i)
                .ok_or_else(|| format!("`find {a}` needs a value"))?;
            i += 1;
            if path {
                ctx.check_path(v, "find")?;
            }
            continue;
        }
        let why = match a {
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                "`find -exec` runs other programs; drop it and pipe the names instead: `find … -print | xargs grep -l PATTERN`"
                    .to_string()
            }
            "-delete" => "`find -delete` deletes files; the bash tool is read-only".into(),
            "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                format!("`find {a}` writes a file; use `-print` (the output is shown to you)")
            }
            "-follow" => "`find -follow` follows symlinks that may lead out of the repository; drop it".into(),
            "-files0-from" => "`find -files0-from` reads a list of paths from a file; pass the paths".into(),
            other => format!(
                "`find` primary `{}` is not on the allowed list (allowed: -name -iname -path -type -maxdepth -mindepth -size -mtime -newer -empty -prune -print -print0 -printf -ls -not -o -a and similar tests)",
                escape_for_display(other)
            ),
        };
        return Err(why.into());
    }
    Ok(args.to_vec())
}

/// `xargs`: only a few options, and only into a vetted reader.
fn vet_xargs(args: &[String], env: Vec<(String, String)>) -> Result<Stage, Blocked> {
    let mut null = false;
    let mut max_args = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !a.starts_with('-') {
            break;
        }
        i += 1;
        match a {
            "-0" | "--null" => null = true,
            "-r" | "--no-run-if-empty" | "-t" | "--verbose" => {}
            "-n" | "--max-args" => {
                let v = args.get(i).ok_or("`xargs -n` needs a number")?;
                i += 1;
                max_args = Some(
                    v.parse::<usize>()
                        .map_err(|_| "`xargs -n` needs a number")?,
                );
            }
            s if s.starts_with("-n") && s[2..].parse::<usize>().is_ok() => {
                max_args = s[2..].parse::<usize>().ok();
            }
            s if s.starts_with("-I") || s.starts_with("-i") || s.starts_with("--replace") => {
                return Err("`xargs -I` builds commands from templates; use plain `xargs PROGRAM ARGS`, which appends the names".into());
            }
            "-P" | "--max-procs" => {
                return Err("`xargs -P` is not supported; drop it".into());
            }
            s if s.starts_with("-a") || s.starts_with("--arg-file") => {
                return Err("`xargs -a` reads from a file; pipe the names in instead".into());
            }
            other => {
                return Err(format!(
                    "`xargs` option `{}` is not supported (allowed: -0, -r, -n N)",
                    escape_for_display(other)
                )
                .into());
            }
        }
    }
    let target = &args[i..];
    let Some(program) = target.first() else {
        return Err("`xargs` needs a program, such as `xargs grep -l PATTERN`".into());
    };
    if program == "xargs" || !(ALLOWED.contains(&program.as_str()) || program == "echo") {
        return Err(format!(
            "`xargs` may feed the allowed programs ({}) and echo; `{}` is not one of them",
            ALLOWED
                .iter()
                .filter(|p| **p != "xargs")
                .copied()
                .collect::<Vec<_>>()
                .join(", "),
            escape_for_display(program)
        )
        .into());
    }
    Ok(Stage::Xargs {
        null,
        max_args,
        target: target.to_vec(),
        env,
        files: XARGS_FILE_READERS.contains(&program.as_str()),
    })
}
