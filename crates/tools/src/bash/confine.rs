//! Layer 6 without namespaces: a Landlock ruleset applied to each program between fork
//! and exec.
//!
//! bubblewrap builds namespaces and mounts for every pipeline stage, which costs 10 to 30
//! ms a command. Landlock restricts the same process in a few microseconds: the kernel
//! checks every `open`, `connect` and `kill` against rules fixed before `exec`, and the
//! program cannot lift them (they are inherited by its children and cannot be widened).
//!
//! The rules grant read-only access (read file, list directory, execute) beneath the
//! repository and the system directories the allowed programs load from, and nothing
//! else: no write, create, remove, rename, truncate or device ioctl anywhere, no TCP bind
//! or connect, no abstract unix socket or signal beyond the sandbox. Masked files (secrets,
//! multiply-linked files) are left out of the repository's rules, so even a path check
//! that missed one cannot open it. Links that lead out of the repository are refused by
//! the kernel too: Landlock judges the path an open resolves to, not the link.
//!
//! Landlock cannot stop UDP, or connecting to a named unix socket (before ABI 9), so a
//! seccomp filter ([`socket_filter`]) comes with it: `socket(2)` and `io_uring_setup(2)`
//! fail with `EACCES` (none of the allowed programs needs a socket; io_uring could make
//! one without the `socket` system call), and a system call of another architecture
//! (the 32-bit `socketcall`) kills the process.
//!
//! The ruleset and the filter are built once, in the parent (opening paths and compiling
//! allocate); the forked child only calls [`restrict`], which makes three system calls.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use ::landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, Scope,
};

/// Paths outside the repository the allowed programs need, read-only: their binaries and
/// shared libraries (`/usr`, and `/bin`, `/lib`… which are links into it on merged-`/usr`
/// systems or real directories elsewhere), the loader cache, the time zone, `file`'s local magic (it complains when it
/// may not read it), and `/dev/null`
/// (git opens it read-write as its global config: the one write right granted,
/// and writes to it are discarded). Locale data, terminfo
/// and git's helpers live under `/usr`. Nothing else of `/etc`, no `/proc`, no home.
pub const SYSTEM_PATHS: [&str; 11] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/lib32",
    "/libx32",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/etc/magic",
    "/dev/null",
];

/// The Landlock ABI whose restrictions we require for "full" confinement: file access
/// (ABI 1–3, 5: truncate and device ioctl), TCP (ABI 4) and scopes (ABI 6).
pub const FULL_ABI: ABI = ABI::V6;

/// How much of the ruleset the kernel enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Everything [`FULL_ABI`] describes.
    Full,
    /// An older kernel: what it knows is enforced, the rest silently is not.
    Partial,
}

/// The two rulesets of a tool: one for every program, one for git.
#[derive(Debug)]
pub struct Rules {
    /// Masked files left out: for every program but git.
    pub masked: RulesetCreated,
    /// The whole repository readable: git compares masked files with its index (its own
    /// layer keeps their contents out of the output), as under bubblewrap.
    pub whole: RulesetCreated,
    /// What the kernel enforces.
    pub support: Support,
    /// The seccomp socket filter, or why there is none (an architecture seccompiler does
    /// not know).
    pub filter: Result<seccompiler::BpfProgram, String>,
}

/// Read-only rights on a directory tree: read files and list directories, but not
/// execute (only the allowed programs may be executed, [`add_programs`]).
fn read_dir_rights() -> BitFlags<AccessFs> {
    AccessFs::ReadFile | AccessFs::ReadDir
}

/// Read-only rights on one file (listing a directory means nothing on a file).
fn read_file_rights() -> BitFlags<AccessFs> {
    AccessFs::ReadFile.into()
}

/// Reading and executing one program file (or the files beneath a directory of them).
fn exec_rights() -> BitFlags<AccessFs> {
    AccessFs::Execute | AccessFs::ReadFile
}

/// An empty ruleset that handles every right of [`FULL_ABI`] (so all of them are denied
/// unless a rule grants them).
/// `no_new_privs` is set too (the crate's default, needed to restrict without privileges).
fn base(level: CompatLevel) -> Result<RulesetCreated, String> {
    Ruleset::default()
        .set_compatibility(level)
        .handle_access(AccessFs::from_all(FULL_ABI))
        .and_then(|r| r.handle_access(AccessNet::from_all(FULL_ABI)))
        .and_then(|r| r.scope(Scope::from_all(FULL_ABI)))
        .and_then(|r| r.create())
        .map_err(|e| format!("Landlock: {e}"))
}

/// Opens `p` for a rule, but only if it is still the very directory or file that
/// `symlink_metadata` saw (a link inside the repository must never widen the rules to its
/// target, even if one replaced the entry between the two calls).
fn open_same(p: &Path, seen: &std::fs::Metadata) -> Option<std::fs::File> {
    let f = std::fs::File::open(p).ok()?;
    let now = f.metadata().ok()?;
    (now.dev() == seen.dev() && now.ino() == seen.ino()).then_some(f)
}

/// Adds the rules that make the repository readable, masked files excepted.
///
/// A directory with no masked file beneath it gets one rule for its whole tree. A
/// directory that holds one gets "list" for its tree, then a rule for each entry but the
/// masked ones, recursing into the entries that lead to a masked file. Symbolic links get
/// no rule: the kernel judges the path they resolve to.
fn add_repo(
    mut rs: RulesetCreated,
    dir: &Path,
    masked: &[PathBuf],
) -> Result<RulesetCreated, String> {
    let inside: Vec<PathBuf> = masked
        .iter()
        .filter(|m| m.starts_with(dir))
        .cloned()
        .collect();
    let Some(fd) = std::fs::symlink_metadata(dir)
        .ok()
        .filter(std::fs::Metadata::is_dir)
        .and_then(|m| open_same(dir, &m))
    else {
        return Ok(rs);
    };
    if inside.is_empty() {
        return rs
            .add_rule(PathBeneath::new(fd, read_dir_rights()))
            .map_err(|e| format!("Landlock rule for {}: {e}", dir.display()));
    }
    rs = rs
        .add_rule(PathBeneath::new(fd, AccessFs::ReadDir))
        .map_err(|e| format!("Landlock rule for {}: {e}", dir.display()))?;
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {} for the Landlock rules: {e}", dir.display()))?;
    for entry in entries.filter_map(Result::ok) {
        let p = entry.path();
        if inside.contains(&p) {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            rs = add_repo(rs, &p, &inside)?;
        } else if meta.is_file()
            && let Some(fd) = open_same(&p, &meta)
        {
            rs = rs
                .add_rule(PathBeneath::new(fd, read_file_rights()))
                .map_err(|e| format!("Landlock rule for {}: {e}", p.display()))?;
        }
    }
    Ok(rs)
}

/// Adds read-only rules for the [`SYSTEM_PATHS`] that exist here (these may be links:
/// `/lib` → `usr/lib`; the system's own links are trusted).
fn add_system(mut rs: RulesetCreated) -> Result<RulesetCreated, String> {
    for p in SYSTEM_PATHS {
        let Ok(meta) = std::fs::metadata(p) else {
            continue;
        };
        let rights = if meta.is_dir() {
            read_dir_rights()
        } else if p == "/dev/null" {
            // git opens it read-write (as its global config and for child stdio); what is
            // written there is discarded.
            read_file_rights() | AccessFs::WriteFile
        } else {
            read_file_rights()
        };
        let Ok(fd) = PathFd::new(p) else { continue };
        rs = rs
            .add_rule(PathBeneath::new(fd, rights))
            .map_err(|e| format!("Landlock rule for {p}: {e}"))?;
    }
    Ok(rs)
}

/// Adds execute on each allowed program, on the ELF interpreter it names (the kernel opens
/// it for execution too) and on git's helper directory, and nothing else: the system
/// directories and the repository are readable but not executable, so a program made to
/// run another one (awk's `system()`, a hostile git setting, a binary planted in the
/// repository) finds no shell and no other program to start. A program outside the
/// system directories (a `/usr/local/bin` link into `/opt`) gets only its own file; its
/// libraries there are not added.
fn add_programs(mut rs: RulesetCreated, programs: &[PathBuf]) -> Result<RulesetCreated, String> {
    let mut files: Vec<PathBuf> = Vec::new();
    for p in programs {
        files.push(p.clone());
        if let Some(interp) = elf_interpreter(p).and_then(|i| i.canonicalize().ok()) {
            files.push(interp);
        }
        if p.file_name().is_some_and(|n| n == "git")
            && let Some(prefix) = p.parent().and_then(Path::parent)
        {
            // `git stash list` runs `git log`, through its exec path.
            for d in ["libexec/git-core", "lib/git-core"] {
                files.push(prefix.join(d));
            }
        }
    }
    files.sort();
    files.dedup();
    for f in files {
        let Ok(fd) = PathFd::new(&f) else { continue };
        rs = rs
            .add_rule(PathBeneath::new(fd, exec_rights()))
            .map_err(|e| format!("Landlock rule for {}: {e}", f.display()))?;
    }
    Ok(rs)
}

/// The program interpreter (`PT_INTERP`) of an ELF executable, such as
/// `/lib64/ld-linux-x86-64.so.2`; `None` for a static binary or what is not ELF.
pub fn elf_interpreter(path: &Path) -> Option<PathBuf> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path).ok()?;
    let mut h = [0u8; 64];
    f.read_exact(&mut h).ok()?;
    if &h[..4] != b"\x7fELF" {
        return None;
    }
    let wide = match h[4] {
        1 => false,
        2 => true,
        _ => return None,
    };
    let little = h[5] == 1;
    let num = |b: &[u8]| -> u64 {
        let mut v = 0u64;
        for (k, byte) in b.iter().enumerate() {
            let shift = if little { 8 * k } else { 8 * (b.len() - 1 - k) };
            v |= u64::from(*byte) << shift;
        }
        v
    };
    let (phoff, phentsize, phnum) = if wide {
        (num(&h[32..40]), num(&h[54..56]), num(&h[56..58]))
    } else {
        (num(&h[28..32]), num(&h[42..44]), num(&h[44..46]))
    };
    for k in 0..phnum.min(64) {
        let mut ph = vec![0u8; usize::try_from(phentsize).ok()?.min(64)];
        f.seek(SeekFrom::Start(phoff + k * phentsize)).ok()?;
        f.read_exact(&mut ph).ok()?;
        if num(&ph[0..4]) != 3 {
            continue;
        }
        let (off, size) = if wide {
            (num(&ph[8..16]), num(&ph[32..40]))
        } else {
            (num(&ph[4..8]), num(&ph[16..20]))
        };
        let mut name = vec![0u8; usize::try_from(size.min(4096)).ok()?];
        f.seek(SeekFrom::Start(off)).ok()?;
        f.read_exact(&mut name).ok()?;
        let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        use std::os::unix::ffi::OsStrExt;
        return Some(PathBuf::from(std::ffi::OsStr::from_bytes(&name[..end])));
    }
    None
}

fn ruleset(
    level: CompatLevel,
    root: &Path,
    masked: &[PathBuf],
    programs: &[PathBuf],
) -> Result<RulesetCreated, String> {
    add_repo(
        add_programs(add_system(base(level)?)?, programs)?,
        root,
        masked,
    )
}

/// Builds the rulesets for a repository (`root` canonical, `masked` absolute paths beneath
/// it, `programs` the canonical paths of the allowed programs). Fails when the kernel has
/// no Landlock at all.
pub fn build(root: &Path, masked: &[PathBuf], programs: &[PathBuf]) -> Result<Rules, String> {
    // The kernel's answer decides: every right of FULL_ABI, or what it has.
    let (level, support) = match base(CompatLevel::HardRequirement) {
        Ok(_) => (CompatLevel::HardRequirement, Support::Full),
        Err(_) => {
            // A ruleset of ABI 1 proves Landlock exists at all.
            Ruleset::default()
                .set_compatibility(CompatLevel::HardRequirement)
                .handle_access(AccessFs::from_all(ABI::V1))
                .and_then(|r| r.create())
                .map_err(|e| format!("the kernel has no Landlock ({e})"))?;
            (CompatLevel::BestEffort, Support::Partial)
        }
    };
    Ok(Rules {
        masked: ruleset(level, root, masked, programs)?,
        whole: ruleset(level, root, &[], programs)?,
        support,
        filter: socket_filter(),
    })
}

/// Compiles the seccomp filter: `socket` and `io_uring_setup` fail with `EACCES`, every
/// other system call of this architecture is allowed, one of another architecture kills.
pub fn socket_filter() -> Result<seccompiler::BpfProgram, String> {
    use seccompiler::{SeccompAction, SeccompFilter, TargetArch};
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| format!("seccomp: no filter for {}: {e}", std::env::consts::ARCH))?;
    let denied = [libc::SYS_socket, libc::SYS_io_uring_setup];
    let filter = SeccompFilter::new(
        // An empty rule list matches the call whatever its arguments.
        denied.iter().map(|&nr| (nr, Vec::new())).collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(|e| format!("seccomp: {e}"))?;
    seccompiler::BpfProgram::try_from(filter).map_err(|e| format!("seccomp: {e}"))
}

/// A copy of `rules` for one child (a duplicated descriptor; the child consumes it).
pub fn for_child(rules: &RulesetCreated) -> Result<RulesetCreated, String> {
    rules
        .try_clone()
        .map_err(|e| format!("cannot duplicate the Landlock ruleset: {e}"))
}

/// Restricts the calling process. Called in the forked child before exec: it sets
/// `no_new_privs`, calls `landlock_restrict_self`, then installs `filter`; it allocates
/// nothing, even on error.
pub fn restrict(
    rules: RulesetCreated,
    filter: Option<&seccompiler::BpfProgram>,
) -> std::io::Result<()> {
    let denied = || std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    rules.restrict_self().map_err(|_| denied())?;
    if let Some(f) = filter {
        seccompiler::apply_filter(f).map_err(|_| denied())?;
    }
    Ok(())
}
