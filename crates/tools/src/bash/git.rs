//! `git` against a repository that may be hostile.
//!
//! A repository's own `.git/config` can make read-only looking commands run programs:
//! `core.fsmonitor` runs on `git status`, `core.pager` and `pager.*` on any paged output,
//! `diff.external` and textconv drivers on `git diff`/`log -p`, clean filters when a stat-
//! dirty file is compared, `core.hooksPath` hooks, `log.showSignature` gpg. Aliases cannot
//! shadow the builtin subcommands we allow, but they are never reachable anyway since only
//! builtin names pass. So git runs with no system or global config, with every one of those
//! settings overridden on the command line (which outranks every config file), with
//! `--no-ext-diff --no-textconv`, without optional locks (so `status` never writes the
//! index), and with `GIT_DIR`/`GIT_WORK_TREE` pinned to the repository (a hostile
//! `core.worktree` cannot point it elsewhere).

use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::policy::{Blocked, Ctx};
use super::redact::{self, OutputFilter};
use crate::display::escape_for_display;
use crate::secrets;

/// Environment variables to set.
pub type Env = Vec<(String, String)>;

/// Subcommands that only read.
const READ_SUBS: [&str; 17] = [
    "log",
    "show",
    "diff",
    "blame",
    "annotate",
    "status",
    "branch",
    "tag",
    "ls-files",
    "ls-tree",
    "grep",
    "rev-parse",
    "shortlog",
    "describe",
    "rev-list",
    "merge-base",
    "show-branch",
];

/// Subcommands with a write form, allowed only in their read forms ([`vet_read_form`]).
const READ_FORMS: [&str; 6] = [
    "remote", "cat-file", "stash", "config", "reflog", "worktree",
];

/// Subcommands whose output can show file contents and that take pathspecs after `--`.
const CONTENT_SUBS: [&str; 4] = ["log", "show", "diff", "grep"];

/// Settings forced on every git run; `-c` outranks every config file.
const FORCED: [&str; 23] = [
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.attributesFile=/dev/null",
    "core.untrackedCache=false",
    "core.sshCommand=false",
    "core.askPass=false",
    "log.showSignature=false",
    "protocol.allow=never",
    "safe.directory=*",
    "color.ui=never",
    "submodule.recurse=false",
    "status.submoduleSummary=false",
    "diff.ignoreSubmodules=all",
    "credential.helper=",
    "gpg.program=false",
    // A signature is verified by the program of its own format, whatever `gpg.format`
    // says (`%G?` on an SSH-signed commit runs `gpg.ssh.program`).
    "gpg.openpgp.program=false",
    "gpg.ssh.program=false",
    "gpg.x509.program=false",
    "uploadpack.packObjectsHook=false",
    "core.alternateRefsCommand=false",
    // Settings that name a file git reads, which a hostile config may point outside the
    // repository (`blame.ignoreRevsFile`, which prints the first line of a file it cannot
    // parse, is a list that `-c` cannot empty: blame gets `--no-ignore-revs-file`).
    "mailmap.file=",
    "diff.orderFile=/dev/null",
];

/// The environment every git run gets (on top of the sandbox's PATH and locale).
pub fn env(ctx: &Ctx<'_>) -> Vec<(String, String)> {
    let root = ctx.root.path();
    let parent = root
        .parent()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "/".into());
    [
        ("GIT_CONFIG_NOSYSTEM", "1".to_string()),
        ("GIT_CONFIG_GLOBAL", "/dev/null".to_string()),
        ("GIT_OPTIONAL_LOCKS", "0".to_string()),
        ("GIT_TERMINAL_PROMPT", "0".to_string()),
        ("GIT_PAGER", "cat".to_string()),
        ("PAGER", "cat".to_string()),
        ("GIT_NO_REPLACE_OBJECTS", "1".to_string()),
        ("GIT_ATTR_NOSYSTEM", "1".to_string()),
        ("GIT_ALLOW_PROTOCOL", "none".to_string()),
        ("GIT_CEILING_DIRECTORIES", parent),
        ("GIT_DIR", root.join(".git").to_string_lossy().into_owned()),
        ("GIT_WORK_TREE", root.to_string_lossy().into_owned()),
        ("HOME", "/nonexistent".to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// `-c` overrides for the filter and diff drivers the repository's config defines, found
/// once by asking git for the names (reading config runs nothing).
pub fn driver_overrides<'a>(
    ctx: &Ctx<'_>,
    cache: &'a OnceLock<Vec<String>>,
    git: &str,
) -> &'a [String] {
    cache.get_or_init(|| {
        let mut cmd = Command::new(git);
        cmd.env_clear()
            .envs(env(ctx))
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .current_dir(ctx.root.path())
            .args([
                "config",
                "--name-only",
                "--get-regexp",
                r"^(filter|diff|merge)\.",
            ])
            .stdin(Stdio::null())
            .stderr(Stdio::null());
        let out = match cmd.output() {
            Ok(o) => String::from_utf8_lossy(&o.stdout).into_owned(),
            Err(_) => String::new(),
        };
        let mut overrides = Vec::new();
        for name in out.lines() {
            let mut parts = name.splitn(2, '.');
            let (Some(section), Some(rest)) = (parts.next(), parts.next()) else {
                continue;
            };
            let Some((driver, _key)) = rest.rsplit_once('.') else {
                continue;
            };
            let keys: &[&str] = match section {
                "filter" => &["clean=", "smudge=", "process=", "required=false"],
                "diff" => &["textconv=", "command=", "cachetextconv=false"],
                "merge" => &["driver="],
                _ => &[],
            };
            for k in keys {
                let o = format!("{section}.{driver}.{k}");
                if !overrides.contains(&o) {
                    overrides.push(o);
                }
            }
        }
        overrides
    })
}

/// Most entries of `.git` looked at by [`dir_hazard`].
const MAX_GIT_DIR_ENTRIES: usize = 200_000;

/// Why git must not run on this repository although `.git` is a directory, if it must
/// not: git follows what `.git` holds, and a hostile repository can make it read another
/// repository or any file. `commondir` moves refs, objects and config elsewhere (`git log
/// --all -p` would show another repository); `objects/info/alternates` borrows another
/// object store; a link such as `packed-refs -> /etc/passwd` is read by every command,
/// which prints the first line it cannot parse. Landlock and bubblewrap would deny those
/// reads; this check keeps them out under the fallback too, and says why.
pub fn dir_hazard(root: &std::path::Path) -> Option<String> {
    let dotgit = root.join(".git");
    if !std::fs::symlink_metadata(&dotgit).is_ok_and(|m| m.is_dir()) {
        return None;
    }
    if std::fs::symlink_metadata(dotgit.join("commondir")).is_ok() {
        return Some("this repository's `.git/commondir` makes git read refs and objects from another directory, so git is not available here; use grep, find and the read tool".into());
    }
    for f in ["objects/info/alternates", "objects/info/http-alternates"] {
        if let Ok(text) = std::fs::read_to_string(dotgit.join(f))
            && text
                .lines()
                .any(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            return Some(format!(
                "this repository's `.git/{f}` makes git read objects from another repository, so git is not available here; use grep, find and the read tool"
            ));
        }
    }
    let canon_root = root.canonicalize().ok()?;
    let mut stack = vec![dotgit];
    let mut seen = 0usize;
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in rd.filter_map(Result::ok) {
            seen += 1;
            if seen > MAX_GIT_DIR_ENTRIES {
                return None;
            }
            let Ok(ft) = entry.file_type() else { continue };
            let p = entry.path();
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_symlink() {
                let inside = p.canonicalize().is_ok_and(|t| t.starts_with(&canon_root));
                if !inside {
                    let rel = p.strip_prefix(root).unwrap_or(&p);
                    return Some(format!(
                        "`{}` in this repository's git directory is a link that leads outside the repository (or nowhere), so git is not available here; use grep, find and the read tool",
                        escape_for_display(&rel.to_string_lossy())
                    ));
                }
            }
        }
    }
    None
}

/// A vetted git command line.
#[derive(Debug)]
pub struct Vetted {
    /// The arguments to run, the forced settings included.
    pub args: Vec<String>,
    /// The extra environment.
    pub env: Env,
    /// How its output is redacted.
    pub filter: OutputFilter,
}

/// Checks `git ARGS` and returns the arguments to run (with the forced settings), the
/// extra environment and the output filter.
pub fn vet(
    args: &[String],
    ctx: &Ctx<'_>,
    drivers: &[String],
    git_bin: &str,
) -> Result<Vetted, Blocked> {
    let dotgit = ctx.root.path().join(".git");
    match std::fs::symlink_metadata(&dotgit) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(Blocked::unavailable(
                "this repository's `.git` is a link or a file that may point outside it, so git is not available here; use grep, find and the read tool",
            ));
        }
        Err(_) => {
            return Err(Blocked::unavailable(
                "this directory is not a git repository, so git is not available; use grep, find and the read tool",
            ));
        }
    }
    let mut globals: Vec<String> = Vec::new();
    let mut i = 0;
    let mut cwd = ctx.cwd.to_string();
    while i < args.len() {
        let a = args[i].as_str();
        if !a.starts_with('-') {
            break;
        }
        i += 1;
        match a {
            "--no-pager"
            | "-P"
            | "--no-optional-locks"
            | "--literal-pathspecs"
            | "--glob-pathspecs"
            | "--noglob-pathspecs"
            | "--icase-pathspecs"
            | "--no-replace-objects" => globals.push(a.into()),
            "-C" => {
                let dir = args.get(i).ok_or("`git -C` needs a directory")?;
                i += 1;
                cwd = ctx.check_dir(dir).map_err(|e| e.context("git -C"))?;
                globals.push("-C".into());
                globals.push(dir.clone());
            }
            "-c" | "--config-env" => {
                return Err("`git -c` changes git's configuration; it is not allowed (git already runs with safe settings)".into());
            }
            s if s.starts_with("--git-dir")
                || s.starts_with("--work-tree")
                || s.starts_with("--namespace")
                || s == "--bare"
                || s.starts_with("--exec-path")
                || s.starts_with("--super-prefix")
                || s.starts_with("--config-env") =>
            {
                return Err(format!(
                    "`git {}` points git at other files; it is not allowed",
                    escape_for_display(s)
                )
                .into());
            }
            "-p" | "--paginate" => {
                return Err(
                    "`git --paginate` runs a pager; drop it (output is never paged here)".into(),
                );
            }
            other => {
                return Err(format!(
                    "`git` option `{}` is not supported before the subcommand",
                    escape_for_display(other)
                )
                .into());
            }
        }
    }
    let sub = args
        .get(i)
        .ok_or("`git` needs a subcommand, such as `git log --oneline -20`")?;
    i += 1;
    let sub_ctx = Ctx {
        root: ctx.root,
        cwd: &cwd,
        masked: ctx.masked,
    };
    let rest = &args[i..];
    if READ_FORMS.contains(&sub.as_str()) {
        let (sub_args, filter) = vet_read_form(sub, rest, &sub_ctx, git_bin)?;
        let mut out = forced(drivers);
        out.extend(globals);
        out.push(sub.clone());
        out.extend(sub_args);
        return Ok(Vetted {
            args: out,
            env: env(ctx),
            filter,
        });
    }
    if !READ_SUBS.contains(&sub.as_str()) {
        return Err(unknown_sub(sub));
    }
    // Options and revisions keep their order (`-L 4,4`, `-n 5`); paths go after `--`.
    let mut revs: Vec<String> = Vec::new();
    let mut paths: Vec<String> = Vec::new();
    let mut after_dashes = false;
    let mut list_mode = false;
    // `log -L`: git refuses pathspecs beside it, so the secret excludes cannot be added;
    // each `-L` file is checked as a path instead, and the other options are listed.
    let mut line_log = false;
    let mut other_options: Vec<&str> = Vec::new();
    let mut j = 0;
    while j < rest.len() {
        let a = &rest[j];
        j += 1;
        if after_dashes {
            sub_ctx.check_path(a, "git")?;
            paths.push(a.clone());
            continue;
        }
        if a == "--" {
            after_dashes = true;
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            check_option(sub, a)?;
            if matches!(sub.as_str(), "log" | "show")
                && let Some(attached) = line_range_value(a)
            {
                revs.push(a.clone());
                let value = match attached {
                    Some(v) => v,
                    None => {
                        let v = rest.get(j).ok_or(
                            "`git log -L` needs a range and a file, such as `-L 10,20:src/main.go` or `-L :main:src/main.go`",
                        )?;
                        j += 1;
                        revs.push(v.clone());
                        v.as_str()
                    }
                };
                let file = line_range_file(value)?;
                let file = if file.starts_with('-') {
                    format!("./{file}")
                } else {
                    file.to_string()
                };
                sub_ctx.check_path(&file, "git log -L")?;
                line_log = true;
                continue;
            }
            other_options.push(a.as_str());
            if matches!(
                a.as_str(),
                "-l" | "--list"
                    | "--contains"
                    | "--merged"
                    | "--no-merged"
                    | "--points-at"
                    | "-a"
                    | "--all"
                    | "-r"
                    | "--remotes"
                    | "-v"
                    | "-vv"
                    | "--verbose"
                    | "--show-current"
                    | "-n"
                    | "--sort"
                    | "--format"
            ) || a.starts_with("--sort=")
                || a.starts_with("--format=")
                || a.starts_with("--contains=")
                || a.starts_with("--points-at=")
            {
                list_mode = true;
            }
            revs.push(a.clone());
            continue;
        }
        // A positional: `rev:path`, an existing path, or a revision.
        check_rev_path(a)?;
        if a.starts_with('/') || a == ".." || a.starts_with("../") || a.starts_with('~') {
            sub_ctx.check_path(a, "git")?;
            sub_ctx
                .root
                .check_lexical(&sub_ctx.join(a))
                .map_err(|e| Blocked::path(e.to_string()))?;
        }
        if sub_ctx.root.resolve(&sub_ctx.join(a)).is_ok() && !a.contains(':') {
            sub_ctx.check_path(a, "git")?;
            paths.push(a.clone());
        } else {
            revs.push(a.clone());
        }
    }
    // A blob named without its path (an id, `ID^{}`, a tag that points at it, either
    // side of `A..B`) shows a file's contents without a path to check. Each revision is
    // resolved by git itself, tags peeled, since spellings are endless.
    if matches!(sub.as_str(), "show" | "diff" | "log" | "grep") {
        for r in revs.iter().filter(|r| !r.starts_with('-')) {
            for side in rev_sides(r) {
                let peeled = format!("{side}^{{}}");
                if object_type(git_bin, ctx, &peeled).as_deref() != Some("blob") {
                    continue;
                }
                let hexish = side.len() >= 4 && side.chars().all(|c| c.is_ascii_hexdigit());
                return Err(Blocked::secrets(format!(
                    "`{}` is a file's contents (a blob) named {}, which bypasses the path checks; use `git show REV:path`",
                    escape_for_display(r),
                    if hexish { "by id" } else { "without its path" }
                )));
            }
        }
    }
    if line_log {
        if !paths.is_empty() {
            return Err(Blocked::option(
                "`git log -L` takes its file inside the `-L` argument and cannot be combined with paths (git refuses it); drop the paths, or use `git log -p -- PATH` for a whole file's history",
            ));
        }
        if let Some(o) = other_options.iter().find(|o| !line_log_option(o)) {
            return Err(Blocked::option(format!(
                "with `git {sub} -L`, `{}` is not allowed: only {LINE_LOG_OPTIONS_SHOWN} are (rename and copy detection would follow the lines into other files, masked ones included); use `git log -p -- FILE` for more",
                escape_for_display(o)
            )));
        }
    }
    // `log --follow`: git takes exactly one pathspec with it, so the secret excludes
    // cannot be added either. The one path is checked; following it through renames may
    // reach a secret file's old name, so only options that show no file contents are
    // allowed (names, counts and commit metadata).
    let follow = sub == "log" && other_options.contains(&"--follow");
    if follow {
        if paths.len() != 1 {
            return Err(Blocked::option(
                "`git log --follow` takes exactly one file after `--` (git refuses more or none): `git log --follow --oneline -- FILE`",
            ));
        }
        if let Some(o) = other_options.iter().find(|o| !follow_option(o)) {
            return Err(Blocked::option(format!(
                "with `git log --follow`, `{}` is not allowed: only options that show no file contents are ({FOLLOW_OPTIONS_SHOWN}), since the renames it follows may lead to a masked file; use `git log -p -- FILE` for the contents under the current name",
                escape_for_display(o)
            )));
        }
    }
    match sub.as_str() {
        "branch" | "tag" if revs.iter().any(|r| !r.starts_with('-')) && !list_mode => {
            return Err(format!(
                "`git {sub} NAME` creates a {sub}; list them with `git {sub} --list 'PATTERN'`"
            )
            .into());
        }
        "blame" | "annotate" if paths.len() > 1 => {
            return Err("`git blame` takes one file".into());
        }
        _ => {}
    }
    let mut out = forced(drivers);
    out.extend(globals);
    out.push(sub.clone());
    match sub.as_str() {
        "log" | "show" | "diff" => {
            out.push("--no-ext-diff".into());
            out.push("--no-textconv".into());
            out.push("--no-color".into());
        }
        "blame" | "annotate" => {
            out.push("--no-textconv".into());
            out.push("--no-ignore-revs-file".into());
        }
        "grep" => out.push("--no-color".into()),
        _ => {}
    }
    out.extend(revs);
    if line_log {
        // Last, so that it wins: `-L` follows the lines through renames, and a file
        // renamed from `.env` would show the secret's history under its old name.
        out.push("--no-renames".into());
    } else if follow {
        out.push("--".into());
        out.extend(paths);
    } else if CONTENT_SUBS.contains(&sub.as_str()) {
        out.push("--".into());
        out.extend(paths);
        for g in secrets::secret_globs() {
            out.push(format!(":(top,exclude,glob)**/{g}"));
        }
        for m in ctx.masked {
            out.push(format!(":(top,exclude,literal){m}"));
        }
    } else if !paths.is_empty() {
        out.push("--".into());
        out.extend(paths);
    }
    Ok(Vetted {
        args: out,
        env: env(ctx),
        filter: OutputFilter::Urls,
    })
}

/// The options `git log -L` may have beside its ranges: listing and ordering options only.
/// Anything that widens the diff (`-M`, `-C`, `--find-copies-harder`, `--follow`, which
/// `--no-renames` does not undo in every case) or the output is refused.
fn line_log_option(a: &str) -> bool {
    let name = a.split_once('=').map(|(n, _)| n).unwrap_or(a);
    log_listing_option(a)
        || matches!(
            name,
            "-n" | "-s"
                | "-p"
                | "-u"
                | "--patch"
                | "--no-patch"
                | "--no-renames"
                | "--first-parent"
                | "--no-merges"
                | "--merges"
                | "--topo-order"
                | "--date-order"
                | "--author-date-order"
                | "--graph"
                | "--decorate"
                | "--no-decorate"
                | "--all"
                | "--branches"
                | "--tags"
                | "--committer"
                | "--grep"
                | "-i"
                | "--regexp-ignore-case"
                | "--no-color"
        )
}

/// Whether `git log --follow` may take option `a`: one that shows no file contents.
fn follow_option(a: &str) -> bool {
    let name = a.split_once('=').map(|(n, _)| n).unwrap_or(a);
    log_listing_option(a)
        || matches!(
            name,
            "--follow"
                | "-n"
                | "-s"
                | "--no-patch"
                | "--name-only"
                | "--name-status"
                | "--stat"
                | "--shortstat"
                | "--summary"
                | "--first-parent"
                | "--no-merges"
                | "--merges"
                | "--reverse"
                | "--topo-order"
                | "--date-order"
                | "--graph"
                | "--decorate"
                | "--no-decorate"
                | "--committer"
                | "--grep"
                | "-i"
                | "--regexp-ignore-case"
                | "--no-color"
        )
}

const FOLLOW_OPTIONS_SHOWN: &str = "--oneline, --format=, --pretty=, --date=, -n N, --max-count=, --since=, --until=, --author=, --committer=, --grep=, --name-only, --name-status, --stat, --summary, -s, --reverse, --no-merges, --first-parent and --graph";

const LINE_LOG_OPTIONS_SHOWN: &str = "--oneline, --format=, --pretty=, --date=, -n N, --max-count=, --since=, --until=, --author=, --committer=, --grep=, -p, -s, --no-patch, --first-parent, --no-merges, --graph, --decorate and --all";

/// The value of a `-L` option of `git log`/`show`, if `a` is one: `Some(Some(v))` when it
/// is attached (`-L1,5:f`), `Some(None)` when it is the next word. The short options of
/// a cluster are walked as [`check_option`] walks them (git's revision parser takes no
/// clusters, but a cluster git would refuse is harmless either way).
fn line_range_value(a: &str) -> Option<Option<&str>> {
    if a.starts_with("--") {
        return None;
    }
    let (_, valued) = short_rules("log");
    for (i, c) in a.char_indices().skip(1) {
        if c == 'L' {
            let v = &a[i + 1..];
            return Some((!v.is_empty()).then_some(v));
        }
        if valued.contains(c) {
            return None;
        }
    }
    None
}

/// The file of a `-L` value, when its range is one git is sure to read exactly as we do:
/// `START[,END]:FILE` with each end a line number (`12`, `+5`, `-5`) or a `/regex/`
/// (optionally `^/regex/`), or `:FUNCNAME:FILE` (optionally `^:`). A regex or function
/// name holding `:` or `\` is refused: git finds the end of the range by parsing the
/// regex (escapes included), and a reading that differed from ours would let git open
/// another file than the one checked (`-L/a:x/,+1:.env` is the range `/a:x/,+1` of
/// `.env` to git, and `x/,+1:.env` to a split at the first `:`).
fn line_range_file(value: &str) -> Result<&str, Blocked> {
    let bad = || {
        Blocked::option(format!(
            "`git log -L {}` is not a range this tool can check: use `-L START,END:FILE` with line numbers (`-L 10,20:src/main.go`, `-L 10,+5:src/main.go`), a `/regex/` without `:` or `\\`, or `-L :FUNCNAME:FILE`; or `git log -p -- FILE` for the whole file's history",
            escape_for_display(value)
        ))
    };
    let anchored = value.strip_prefix('^').unwrap_or(value);
    let (range, file) = if let Some(func) = anchored.strip_prefix(':') {
        let (name, file) = func.split_once(':').ok_or_else(bad)?;
        if name.is_empty() || name.contains('\\') {
            return Err(bad());
        }
        (None, file)
    } else {
        let (range, file) = value.split_once(':').ok_or_else(bad)?;
        (Some(range), file)
    };
    if let Some(range) = range {
        let mut ends = range.splitn(2, ',');
        let start = ends.next().unwrap_or("");
        let end = ends.next();
        let number = |s: &str, signed: bool| {
            let digits = if signed {
                s.strip_prefix(['+', '-']).unwrap_or(s)
            } else {
                s
            };
            !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
        };
        let regex = |s: &str| {
            let s = s.strip_prefix('^').unwrap_or(s);
            s.len() >= 2
                && s.starts_with('/')
                && s.ends_with('/')
                && !s[1..s.len() - 1].contains(['/', '\\', ':'])
        };
        let start_ok = number(start, false) || regex(start) || (start.is_empty() && end.is_some());
        let end_ok = end.is_none_or(|e| number(e, true) || regex(e));
        if !start_ok || !end_ok {
            return Err(bad());
        }
    }
    if file.is_empty() {
        return Err(bad());
    }
    Ok(file)
}

/// The `-c` settings every run gets, then `--no-pager`.
fn forced(drivers: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in FORCED {
        out.push("-c".into());
        out.push(f.into());
    }
    for d in drivers {
        out.push("-c".into());
        out.push(d.clone());
    }
    out.push("--no-pager".into());
    out
}

/// Refuses `REV:path` (or `:path`, `:0:path`) when any component of it is a secret name:
/// git shows the committed contents, which no path check on the working tree can see.
fn check_rev_path(a: &str) -> Result<(), Blocked> {
    if a.contains(':')
        && a.split([':', '/'])
            .any(|piece| secrets::secret_name_reason(piece).is_some())
    {
        return Err(Blocked::secrets(format!(
            "`{}` names a file on the secrets list, which is never shown to the model",
            escape_for_display(a)
        )));
    }
    Ok(())
}

/// The objects a revision argument names: both ends of `A..B` and `A...B`, without a
/// leading `^` (exclusion); `REV:path` is left out (its path is checked by name).
fn rev_sides(rev: &str) -> Vec<&str> {
    if rev.contains(':') {
        return Vec::new();
    }
    let (a, b) = match rev.split_once("...").or_else(|| rev.split_once("..")) {
        Some((a, b)) => (a, Some(b)),
        None => (rev, None),
    };
    [Some(a), b]
        .into_iter()
        .flatten()
        .map(|s| s.trim_start_matches('^'))
        .filter(|s| !s.is_empty())
        .collect()
}

/// `git cat-file -t REV`, run directly with the safe settings (it reads, never executes).
fn object_type(git_bin: &str, ctx: &Ctx<'_>, rev: &str) -> Option<String> {
    let out = Command::new(git_bin)
        .env_clear()
        .envs(env(ctx))
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .current_dir(ctx.root.path())
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(["cat-file", "-t", rev])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn unknown_sub(sub: &str) -> Blocked {
    let shown = escape_for_display(sub);
    Blocked::program(match sub {
        "commit" | "add" | "rm" | "mv" | "reset" | "checkout" | "switch" | "restore" | "merge"
        | "rebase" | "cherry-pick" | "revert" | "stash" | "apply" | "am" | "clean" | "gc"
        | "prune" | "init" | "notes" | "worktree" | "update-index" | "update-ref"
        | "write-tree" | "commit-tree" | "replace" | "filter-branch" | "bisect" | "repack"
        | "maintenance" | "sparse-checkout" | "reflog" | "config" | "remote" | "submodule" => {
            format!(
                "`git {shown}` changes the repository or its settings; only reading subcommands are allowed ({})",
                READ_SUBS.join(", ")
            )
        }
        "push" | "pull" | "fetch" | "clone" | "ls-remote" | "send-email" | "request-pull"
        | "daemon" | "archive" | "bundle" => {
            format!("`git {shown}` uses the network or writes files; there is no network here")
        }
        _ => format!(
            "`git {shown}` is not allowed; the allowed subcommands are {}",
            READ_SUBS.join(", ")
        ),
    })
}

/// Long options git refuses here: (name, the subcommands it is refused for, or `&[]` for
/// all, why). git's own option parser accepts any unique prefix of a long option
/// (`git grep --open=sh` is `--open-files-in-pager=sh`), so a name is refused when it is
/// one of these or a prefix of one ([`denied_long`]).
const DENIED_LONG: &[(&str, &[&str], &str)] = &[
    (
        "--output",
        &[],
        "writes a file; the output is shown to you already",
    ),
    (
        "--output-directory",
        &[],
        "writes files; the output is shown to you already",
    ),
    (
        "--ext-diff",
        &[],
        "runs programs configured by the repository; drop it",
    ),
    (
        "--textconv",
        &[],
        "runs programs configured by the repository; drop it",
    ),
    (
        "--no-index",
        &[],
        "compares files outside git's control, possibly outside the repository; compare tracked files or revisions",
    ),
    (
        "--contents",
        &[],
        "reads another file; blame the file itself (`git blame --contents` is not allowed)",
    ),
    (
        "--open-files-in-pager",
        &[],
        "runs a pager program (`git grep -O`); drop it",
    ),
    ("--show-signature", &[], "runs gpg; drop it"),
    (
        "--ignore-revs-file",
        &[],
        "reads another file; use `--ignore-rev REV`",
    ),
    (
        "--exclude-from",
        &[],
        "reads patterns from a file; pass them with `-x PATTERN`",
    ),
    (
        "--exclude-per-directory",
        &[],
        "reads patterns from other files; drop it",
    ),
    (
        "--pathspec-from-file",
        &[],
        "reads paths from a file or stdin; pass the paths as arguments",
    ),
    (
        "--stdin",
        &[],
        "reads input from stdin, which is empty here; pass the values as arguments",
    ),
    (
        "--file",
        &[],
        "reads input from a file; pass the values as arguments",
    ),
    ("--orderfile", &[], "reads another file (`-O`); drop it"),
    (
        "--recurse-submodules",
        &[],
        "reads the repositories of submodules, which may lie outside this one; run git inside the submodule's directory",
    ),
    (
        "--submodule",
        &[],
        "reads the repositories of submodules, which may lie outside this one; drop it",
    ),
    (
        "--alternate-refs",
        &[],
        "runs the repository's `core.alternateRefsCommand`; drop it",
    ),
    ("--upload-pack", &[], "runs a program; it is not allowed"),
    ("--receive-pack", &[], "runs a program; it is not allowed"),
    ("--exec", &[], "runs a program; it is not allowed"),
    (
        "--remote",
        &[],
        "contacts a remote; there is no network here",
    ),
    (
        "--paginate",
        &[],
        "runs a pager; output is never paged here",
    ),
    (
        "--dirty",
        &["describe"],
        "refreshes and writes the index; use `git status` to see local changes",
    ),
    (
        "--broken",
        &["describe"],
        "refreshes and writes the index; use `git status` to see local changes",
    ),
    ("--verify", &["tag"], "runs gpg; drop it"),
];

/// Long options that are themselves real git options although they are a prefix of a
/// refused one (git takes the exact name over an abbreviation): `--text` (`-a`).
const EXACT_LONG: [&str; 1] = ["--text"];

/// Short options refused per subcommand, and the short options that take the rest of
/// their cluster as a value (`-SOpen` is `-S Open`; scanning stops there). git accepts
/// clusters (`git grep -iOsh` is `-i -O sh`), so every flag of a cluster is judged.
fn short_rules(sub: &str) -> (&'static str, &'static str) {
    match sub {
        "diff" | "log" | "show" | "shortlog" | "rev-list" => ("O", "nSGlULMCBI"),
        "grep" => ("Of", "eABCm"),
        "blame" | "annotate" => ("S", "LCM"),
        "ls-files" => ("X", "x"),
        "branch" => ("dDmMcCfuto", ""),
        "tag" => ("dasumFfev", ""),
        _ => ("", ""),
    }
}

/// The refusal for a long option of `sub` named `name` (as given, before any `=`).
fn denied_long(sub: &str, name: &str) -> Option<&'static str> {
    if name.len() < 3 || EXACT_LONG.contains(&name) {
        return None;
    }
    DENIED_LONG
        .iter()
        .find(|(d, subs, _)| (subs.is_empty() || subs.contains(&sub)) && d.starts_with(name))
        .map(|(_, _, why)| *why)
}

/// Options refused for every subcommand, then per subcommand.
fn check_option(sub: &str, opt: &str) -> Result<(), Blocked> {
    let name = opt.split_once('=').map(|(n, _)| n).unwrap_or(opt);
    let shown = escape_for_display(opt);
    if matches!(sub, "branch" | "tag")
        && matches!(
            name,
            "--delete"
                | "--move"
                | "--copy"
                | "--force"
                | "--set-upstream-to"
                | "--unset-upstream"
                | "--edit-description"
                | "--track"
                | "--create-reflog"
                | "--annotate"
                | "--sign"
                | "--message"
                | "--edit"
                | "--local-user"
        )
    {
        return Err(format!(
            "`git {sub} {shown}` changes the repository; list with `git {sub} --list`"
        )
        .into());
    }
    if name.starts_with("--") {
        if let Some(why) = denied_long(sub, name) {
            let full = DENIED_LONG
                .iter()
                .find(|(d, _, _)| d.starts_with(name))
                .map(|(d, _, _)| *d)
                .unwrap_or(name);
            return Err(if full == name {
                format!("`git {sub} {shown}` {why}")
            } else {
                format!("`git {sub} {shown}` (git reads it as `{full}`) {why}")
            }
            .into());
        }
        return Ok(());
    }
    // Short options, possibly clustered, possibly with an attached value.
    let (denied, valued) = short_rules(sub);
    for c in name.chars().skip(1) {
        if denied.contains(c) {
            if matches!(sub, "branch" | "tag") {
                return Err(format!(
                    "`git {sub} {shown}` changes the repository or runs gpg; list with `git {sub} --list`"
                )
                .into());
            }
            return Err(format!(
                "`git {sub} {shown}` is not allowed here: `-{c}` writes, runs a program or reads a file outside the command. Drop it"
            )
            .into());
        }
        if valued.contains(c) {
            break;
        }
    }
    Ok(())
}

/// The read forms of the subcommands in [`READ_FORMS`], each checked against an allowlist
/// of its own (these subcommands write in most of their forms, so a denylist would have to
/// know every one): `remote [-v]`, `remote get-url`, `cat-file -p|-t|-s|-e OBJECT`,
/// `stash list|show`, `config --get|--get-all|--get-regexp|--list` (and `config get|list`),
/// `reflog [show|list|exists]`, `worktree list`. Returns the arguments after the
/// subcommand and how the output is redacted.
fn vet_read_form(
    sub: &str,
    rest: &[String],
    ctx: &Ctx<'_>,
    git_bin: &str,
) -> Result<(Vec<String>, OutputFilter), Blocked> {
    let urls = OutputFilter::Urls;
    match sub {
        "remote" => vet_remote(rest).map(|a| (a, urls)),
        "cat-file" => vet_cat_file(rest, ctx, git_bin).map(|a| (a, urls)),
        "stash" => vet_stash(rest).map(|a| (a, urls)),
        "config" => vet_config(rest, ctx),
        "reflog" => vet_reflog(rest).map(|a| (a, urls)),
        _ => vet_worktree(rest).map(|a| (a, urls)),
    }
}

/// A name, revision or ref given to a read form: not an option.
fn operand<'a>(sub: &str, a: &'a str) -> Result<&'a str, Blocked> {
    if a.starts_with('-') {
        return Err(format!(
            "`git {sub}` option `{}` is not on the allowed list",
            escape_for_display(a)
        )
        .into());
    }
    Ok(a)
}

fn vet_remote(rest: &[String]) -> Result<Vec<String>, Blocked> {
    let words: Vec<&str> = rest.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] | ["-v"] | ["--verbose"] => Ok(rest.to_vec()),
        ["get-url", more @ ..] => {
            let mut names = 0;
            for a in more {
                match *a {
                    "--push" | "--all" => {}
                    other => {
                        operand("remote get-url", other)?;
                        names += 1;
                    }
                }
            }
            if names != 1 {
                return Err("`git remote get-url` takes one remote name".into());
            }
            Ok(rest.to_vec())
        }
        ["show", ..] => Err(
            "`git remote show` contacts the remote, and there is no network here; `git remote -v` lists the remotes and their URLs".into(),
        ),
        [verb, ..]
            if matches!(
                *verb,
                "add" | "remove" | "rm" | "rename" | "set-url" | "set-head" | "set-branches"
                    | "prune" | "update"
            ) =>
        {
            Err(format!(
                "`git remote {}` changes the repository's remotes; only `git remote -v` and `git remote get-url NAME` read them",
                escape_for_display(verb)
            ).into())
        }
        _ => Err("only `git remote`, `git remote -v` and `git remote get-url NAME` are allowed".into()),
    }
}

fn vet_cat_file(rest: &[String], ctx: &Ctx<'_>, git_bin: &str) -> Result<Vec<String>, Blocked> {
    let mut mode: Option<&str> = None;
    let mut objects = Vec::new();
    for a in rest {
        match a.as_str() {
            m @ ("-p" | "-t" | "-s" | "-e") => {
                if mode.replace(m).is_some() {
                    return Err("`git cat-file` takes one of -p, -t, -s, -e".into());
                }
            }
            s if s.starts_with("--batch") || s == "--buffer" => {
                return Err("`git cat-file --batch` reads object names from stdin; name the object: `git cat-file -p REV:path`".into());
            }
            "--textconv" | "--filters" => {
                return Err(format!(
                    "`git cat-file {a}` runs programs configured by the repository; use `git cat-file -p REV:path`"
                ).into());
            }
            other => objects.push(operand("cat-file", other)?),
        }
    }
    if mode.is_none() {
        return Err("`git cat-file` needs -p (contents), -t (type), -s (size) or -e (exists), such as `git cat-file -p HEAD:go.mod`".into());
    }
    if objects.len() > 1 {
        return Err("`git cat-file -p|-t|-s|-e` takes one object; the `TYPE OBJECT` form is not supported, use -p".into());
    }
    for o in &objects {
        check_rev_path(o)?;
        // Contents reached without a path (an id, a tag peeled to a blob) bypass the
        // secrets rule; `REV:path` was checked above.
        if mode == Some("-p")
            && !o.contains(':')
            && object_type(git_bin, ctx, o).as_deref() == Some("blob")
        {
            return Err(Blocked::secrets(format!(
                "`{}` is a file's contents (a blob) named without its path, which bypasses the path checks; use `git cat-file -p REV:path`",
                escape_for_display(o)
            )));
        }
    }
    Ok(rest.to_vec())
}

/// Options of `git stash list` and `git reflog show` (log options that never show a diff).
fn log_listing_option(a: &str) -> bool {
    let name = a.split_once('=').map(|(n, _)| n).unwrap_or(a);
    matches!(
        name,
        "--oneline"
            | "--format"
            | "--pretty"
            | "--date"
            | "--max-count"
            | "--abbrev-commit"
            | "--no-abbrev-commit"
            | "--relative-date"
            | "--grep-reflog"
            | "--author"
            | "--since"
            | "--until"
    ) || (a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()))
        || (a.starts_with("-n") && a.len() > 2 && a[2..].chars().all(|c| c.is_ascii_digit()))
}

/// Walks `rest` with `-n N` taking a value; everything else must be a listing option or
/// an operand.
fn listing_args(sub: &str, rest: &[String], max_operands: usize) -> Result<(), Blocked> {
    let mut operands = 0;
    let mut i = 0;
    while i < rest.len() {
        let a = rest[i].as_str();
        i += 1;
        if a == "-n" {
            rest.get(i)
                .filter(|v| v.chars().all(|c| c.is_ascii_digit()))
                .ok_or_else(|| format!("`git {sub} -n` needs a number"))?;
            i += 1;
        } else if a.starts_with('-') {
            if !log_listing_option(a) {
                return Err(format!(
                    "`git {sub}` option `{}` is not on the allowed list (allowed: --oneline --format= --pretty= --date= -n N --max-count= --abbrev-commit --relative-date --grep-reflog= --author= --since= --until=)",
                    escape_for_display(a)
                ).into());
            }
        } else {
            operands += 1;
        }
    }
    if operands > max_operands {
        return Err(format!("`git {sub}` takes at most {max_operands} ref").into());
    }
    Ok(())
}

fn vet_stash(rest: &[String]) -> Result<Vec<String>, Blocked> {
    let Some(verb) = rest.first().map(String::as_str) else {
        return Err("`git stash` alone stashes the working tree away; list stashes with `git stash list` and look at one with `git stash show stash@{0}`".into());
    };
    match verb {
        "list" => {
            listing_args("stash list", &rest[1..], 0)?;
            Ok(rest.to_vec())
        }
        "show" => {
            let mut out = vec!["show".to_string()];
            let mut shape = false;
            let mut refs = 0;
            for a in &rest[1..] {
                match a.as_str() {
                    "--stat" | "--name-only" | "--name-status" | "--numstat" | "--shortstat"
                    | "--summary" | "--compact-summary" => shape = true,
                    "-u" | "--include-untracked" | "--only-untracked" => {}
                    "-p" | "--patch" | "-u1" => {
                        return Err("`git stash show -p` prints stashed contents past the secrets mask; use `git diff stash@{0}^ stash@{0}`, which keeps masked files out".into());
                    }
                    s if s.starts_with('-') => {
                        return Err(format!(
                            "`git stash show` option `{}` is not on the allowed list (allowed: --stat --name-only --name-status --numstat --shortstat --summary -u); for the changes themselves use `git diff stash@{{0}}^ stash@{{0}}`",
                            escape_for_display(s)
                        ).into());
                    }
                    _ => refs += 1,
                }
                out.push(a.clone());
            }
            if refs > 1 {
                return Err("`git stash show` takes one stash, such as `stash@{0}`".into());
            }
            // `stash.showPatch` in the repository's config would turn a bare `show` into
            // a patch; an explicit shape wins over it.
            if !shape {
                out.insert(1, "--stat".into());
            }
            out.insert(1, "--no-ext-diff".into());
            out.insert(2, "--no-textconv".into());
            Ok(out)
        }
        _ => Err(format!(
            "`git stash {}` changes the working tree, the index or the stash list; only `git stash list` and `git stash show` are allowed",
            escape_for_display(verb)
        ).into()),
    }
}

fn vet_reflog(rest: &[String]) -> Result<Vec<String>, Blocked> {
    match rest.first().map(String::as_str) {
        Some("expire" | "delete") => Err(format!(
            "`git reflog {}` rewrites the reflog; `git reflog` and `git reflog show REF` read it",
            rest[0]
        )
        .into()),
        Some("exists") => {
            if rest.len() != 2 {
                return Err("`git reflog exists` takes one ref".into());
            }
            operand("reflog exists", &rest[1])?;
            Ok(rest.to_vec())
        }
        Some("list") if rest.len() == 1 => Ok(rest.to_vec()),
        Some("show") => {
            listing_args("reflog show", &rest[1..], 1)?;
            Ok(rest.to_vec())
        }
        _ => {
            listing_args("reflog", rest, 1)?;
            let mut out = vec!["show".to_string()];
            out.extend(rest.iter().cloned());
            Ok(out)
        }
    }
}

fn vet_worktree(rest: &[String]) -> Result<Vec<String>, Blocked> {
    match rest.first().map(String::as_str) {
        Some("list") => {
            for a in &rest[1..] {
                if !matches!(a.as_str(), "--porcelain" | "-v" | "--verbose") {
                    return Err(format!(
                        "`git worktree list` option `{}` is not on the allowed list (allowed: --porcelain -v)",
                        escape_for_display(a)
                    ).into());
                }
            }
            Ok(rest.to_vec())
        }
        Some(verb) => Err(format!(
            "`git worktree {}` changes the repository's worktrees; only `git worktree list` is allowed",
            escape_for_display(verb)
        ).into()),
        None => Err("use `git worktree list`".into()),
    }
}

/// What a `git config` command line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ConfigRead {
    Get,
    GetRegexp,
    List,
}

/// `git config` in its reading forms only, always confined to the repository's own config
/// file (`--local`, or a `--file` inside the repository) and without following
/// `include.path`, which may name a file outside. Credential values are redacted.
fn vet_config(rest: &[String], ctx: &Ctx<'_>) -> Result<(Vec<String>, OutputFilter), Blocked> {
    const WRITES: &str = "changes the configuration; only the reading forms (`--get NAME`, `--get-all NAME`, `--get-regexp RE`, `--list`) are allowed";
    let mut action: Option<ConfigRead> = None;
    fn set_action(a: ConfigRead, action: &mut Option<ConfigRead>) -> Result<(), Blocked> {
        if action.replace(a).is_some_and(|old| old != a) {
            return Err("`git config` takes one action".into());
        }
        Ok(())
    }
    let mut scoped = false;
    let mut names: Vec<&str> = Vec::new();
    let mut new_style = false;
    let mut i = 0;
    while i < rest.len() {
        let a = rest[i].as_str();
        i += 1;
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (a, None),
        };
        match name {
            "list" | "get" if i == 1 => {
                new_style = true;
                let act = if name == "list" {
                    ConfigRead::List
                } else {
                    ConfigRead::Get
                };
                set_action(act, &mut action)?;
            }
            "set" | "unset" | "rename-section" | "remove-section" | "edit" if i == 1 => {
                return Err(format!("`git config {name}` {WRITES}").into());
            }
            "--all" | "--regexp" if new_style => {
                if name == "--regexp" {
                    action = Some(ConfigRead::GetRegexp);
                }
            }
            "--get" | "--get-all" => set_action(ConfigRead::Get, &mut action)?,
            "--get-regexp" => set_action(ConfigRead::GetRegexp, &mut action)?,
            "-l" | "--list" => set_action(ConfigRead::List, &mut action)?,
            "--local" | "--worktree" => scoped = true,
            "--show-origin" | "--show-scope" | "--name-only" | "--bool" | "--int"
            | "--bool-or-int" | "--path" | "--expiry-date" | "--no-includes" => {}
            "--type" | "--default" => {
                if inline.is_none() {
                    rest.get(i)
                        .ok_or_else(|| format!("`git config {name}` needs a value"))?;
                    i += 1;
                }
            }
            "-f" | "--file" => {
                let file = match inline {
                    Some(v) => v.to_string(),
                    None => {
                        let v = rest
                            .get(i)
                            .cloned()
                            .ok_or("`git config --file` needs a file")?;
                        i += 1;
                        v
                    }
                };
                // git's own configuration files are refused to every other program
                // (they can hold credentials); `git config` redacts them.
                let git_config = ctx
                    .root
                    .resolve(&ctx.join(&file))
                    .is_ok_and(|r| secrets::is_git_config(&r.rel));
                if !git_config {
                    ctx.check_path(&file, "git config --file")?;
                }
                scoped = true;
            }
            "--global" | "--system" => {
                return Err(Blocked::path(format!(
                    "`git config {name}` reads configuration outside the repository (yours or the system's); only the repository's own settings may be read"
                )));
            }
            "--blob" => {
                return Err("`git config --blob` reads configuration from an object; use `git show REV:path` on the file".into());
            }
            "--includes" => {
                return Err(Blocked::path(
                    "`git config --includes` follows `include.path`, which may lead outside the repository; drop it",
                ));
            }
            "-e" | "--edit" => {
                return Err(format!("`git config {name}` opens an editor and {WRITES}").into());
            }
            "--add" | "--unset" | "--unset-all" | "--replace-all" | "--rename-section"
            | "--remove-section" | "--fixed-value" => {
                return Err(format!("`git config {name}` {WRITES}").into());
            }
            "-z" | "--null" => {
                return Err("`git config -z` is not supported; drop it".into());
            }
            s if s.starts_with('-') => {
                return Err(format!(
                    "`git config` option `{}` is not on the allowed list (allowed: --get --get-all --get-regexp --list --local --worktree --file FILE --show-origin --show-scope --name-only --type= --default=)",
                    escape_for_display(s)
                ).into());
            }
            _ => names.push(a),
        }
    }
    let action = match action {
        Some(a) => a,
        None if names.len() == 1 => ConfigRead::Get,
        None if names.len() > 1 => {
            return Err(format!("`git config NAME VALUE` {WRITES}").into());
        }
        None => {
            return Err("`git config` needs a reading action, such as `git config --get remote.origin.url` or `git config --list`".into());
        }
    };
    let max = if action == ConfigRead::List { 0 } else { 2 };
    if names.len() > max || (action != ConfigRead::List && names.is_empty()) {
        return Err("`git config --get NAME`, `--get-regexp REGEX` and `--list` take that many operands only".into());
    }
    let filter = match action {
        ConfigRead::Get if names.first().is_some_and(|n| redact::is_credential_key(n)) => {
            OutputFilter::GitConfigValues
        }
        ConfigRead::Get => OutputFilter::Urls,
        ConfigRead::GetRegexp | ConfigRead::List => OutputFilter::GitConfigLines,
    };
    let mut out = rest.to_vec();
    let at = usize::from(new_style);
    out.insert(at, "--no-includes".into());
    if !scoped {
        out.insert(at, "--local".into());
    }
    Ok((out, filter))
}
