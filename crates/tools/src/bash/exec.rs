//! Layers 5 to 7: spawning without a shell, the OS sandbox, and the limits.
//!
//! Each vetted program is spawned by us (`std::process::Command`), never through `sh -c`,
//! with an empty environment plus PATH, a locale and what git needs, stdin closed or fed
//! from the previous stage, in the repository (or the directory `cd` chose). Every program
//! gets its own process group (killed whole on timeout), `no_new_privs`,
//! `RLIMIT_FSIZE=0` (even a write the policy missed cannot put a byte into a file), no
//! core dumps, a CPU limit and a memory limit ([`MAX_DATA_BYTES`]). On top of that, one of two OS confinements:
//!
//! - Landlock ([`super::confine`]): read-only access to the repository (masked files
//!   left out) and the system directories, nothing else, no TCP, no signals or abstract
//!   sockets beyond the sandbox; applied in the child between fork and exec, in
//!   microseconds.
//! - bubblewrap: a fresh sandbox per program: user, pid, network, ipc and uts
//!   namespaces; a read-only view of `/usr` and the repository and nothing else (no home,
//!   no `/proc`, no other `/dev` than `/dev/null`, an empty `/tmp`); masked files covered
//!   by `/dev/null`; the whole tree killed when bwrap dies. Costs 10–30 ms a program.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use super::confine;

/// Largest output kept from one stage; the rest is read and dropped.
pub const MAX_STAGE_BYTES: usize = 8 * 1024 * 1024;

/// Most memory one program may allocate (`RLIMIT_DATA`: heap and private writable
/// mappings; read-only file mappings such as git's packs do not count). An awk or jq
/// program that doubles a string would otherwise take the host's memory well within the
/// deadline; honest commands stay far below it (`sort` sizes its buffer to the limit).
pub const MAX_DATA_BYTES: u64 = 2 << 30;

/// Directories searched for the allowed programs (never the caller's PATH).
pub const SYSTEM_DIRS: [&str; 3] = ["/usr/local/bin", "/usr/bin", "/bin"];

/// The PATH the programs see.
pub const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// What a stage reads.
#[derive(Debug)]
pub enum Input {
    /// Nothing (`/dev/null`).
    Null,
    /// The previous stage's output.
    Bytes(Vec<u8>),
    /// A repository file (`< file`), already checked.
    File(PathBuf),
}

/// How one program is run.
#[derive(Debug)]
pub struct Spawn<'a> {
    /// Absolute path of the program.
    pub program: &'a Path,
    /// Its arguments.
    pub args: &'a [String],
    /// Extra environment.
    pub env: &'a [(String, String)],
    /// Absolute working directory.
    pub cwd: &'a Path,
    /// Standard input.
    pub input: Input,
    /// `2>&1`: stderr goes where stdout goes.
    pub merge_stderr: bool,
    /// Deadline of the whole command.
    pub deadline: Instant,
}

/// What one program produced.
#[derive(Debug, Default)]
pub struct Ran {
    /// Standard output (and stderr when merged).
    pub stdout: Vec<u8>,
    /// Standard error.
    pub stderr: Vec<u8>,
    /// Exit status; `None` when it was killed by a signal.
    pub status: Option<i32>,
    /// The deadline passed and the process tree was killed.
    pub timed_out: bool,
    /// Output beyond [`MAX_STAGE_BYTES`] was dropped.
    pub truncated: bool,
}

/// The OS confinement in use.
#[derive(Debug, Clone)]
pub struct Sandbox {
    /// bubblewrap, when it is the confinement chosen.
    pub bwrap: Option<PathBuf>,
    /// The Landlock rulesets, when Landlock is the confinement chosen (and bwrap is not).
    pub landlock: Option<Arc<confine::Rules>>,
    /// The repository root (bound read-only at the same path).
    pub root: PathBuf,
    /// Absolute paths of masked files, covered by `/dev/null` inside bubblewrap and left
    /// out of the Landlock rules. Empty for git, which then gets the whole repository.
    pub masked: Vec<PathBuf>,
}

/// Finds `name` in [`SYSTEM_DIRS`], symlinks resolved (so `awk` runs the real binary
/// without needing `/etc/alternatives` inside the sandbox).
pub fn find_program(name: &str) -> Option<PathBuf> {
    SYSTEM_DIRS.iter().find_map(|d| {
        let p = Path::new(d).join(name);
        if p.is_file() {
            p.canonicalize().ok()
        } else {
            None
        }
    })
}

/// The bwrap arguments for a sandbox around `cwd`.
fn bwrap_args(sb: &Sandbox, cwd: &Path) -> Vec<String> {
    let mut a: Vec<String> = [
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for d in ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"] {
        let p = Path::new(d);
        match std::fs::symlink_metadata(p) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(t) = std::fs::read_link(p) {
                    a.extend([
                        "--symlink".into(),
                        t.to_string_lossy().into_owned(),
                        d.into(),
                    ]);
                }
            }
            Ok(m) if m.is_dir() => a.extend(["--ro-bind".into(), d.into(), d.into()]),
            _ => {}
        }
    }
    for f in ["/etc/ld.so.cache", "/etc/localtime"] {
        a.extend(["--ro-bind-try".into(), f.into(), f.into()]);
    }
    a.extend(["--dev-bind".into(), "/dev/null".into(), "/dev/null".into()]);
    a.extend(["--tmpfs".into(), "/tmp".into()]);
    let root = sb.root.to_string_lossy().into_owned();
    a.extend(["--ro-bind".into(), root.clone(), root]);
    for m in &sb.masked {
        a.extend([
            "--ro-bind".into(),
            "/dev/null".into(),
            m.to_string_lossy().into_owned(),
        ]);
    }
    a.extend(["--chdir".into(), cwd.to_string_lossy().into_owned()]);
    a
}

/// Checks once whether bwrap can build our sandbox here.
pub fn probe_bwrap(root: &Path) -> Result<PathBuf, String> {
    let Some(bwrap) = find_program("bwrap") else {
        return Err("bubblewrap (`bwrap`) is not installed".into());
    };
    let Some(truth) = find_program("true") else {
        return Err("`true` is missing from the system directories".into());
    };
    let sb = Sandbox {
        bwrap: Some(bwrap.clone()),
        landlock: None,
        root: root.to_path_buf(),
        masked: Vec::new(),
    };
    let out = Command::new(&bwrap)
        .args(bwrap_args(&sb, root))
        .arg("--")
        .arg(&truth)
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("bwrap could not start: {e}"))?;
    if out.status.success() {
        Ok(bwrap)
    } else {
        Err(format!(
            "bwrap cannot create its namespaces here ({})",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn base_env() -> Vec<(String, String)> {
    vec![
        ("PATH".into(), SANDBOX_PATH.into()),
        ("LC_ALL".into(), "C.UTF-8".into()),
        ("HOME".into(), "/nonexistent".into()),
        ("TERM".into(), "dumb".into()),
        ("NO_COLOR".into(), "1".into()),
    ]
}

/// Runs one program to completion (or the deadline) and collects its output.
pub fn run(sb: &Sandbox, spec: Spawn<'_>) -> Result<Ran, String> {
    let mut cmd = match &sb.bwrap {
        Some(bwrap) => {
            // bwrap execs with PATH lookup; the canonical file name finds the same binary
            // and gives messages that say `cat:` rather than `/usr/bin/cat:`.
            let mut c = Command::new(bwrap);
            c.args(bwrap_args(sb, spec.cwd))
                .arg("--")
                .arg(program_name(spec.program));
            limit_memory(&mut c);
            c
        }
        None => {
            let mut c = Command::new(spec.program);
            {
                use std::os::unix::process::CommandExt;
                c.arg0(program_name(spec.program));
            }
            c.current_dir(spec.cwd);
            let rules = match &sb.landlock {
                Some(r) if sb.masked.is_empty() => Some((confine::for_child(&r.whole)?, r.clone())),
                Some(r) => Some((confine::for_child(&r.masked)?, r.clone())),
                None => None,
            };
            limit_child(&mut c, rules);
            c
        }
    };
    cmd.args(spec.args);
    cmd.env_clear();
    let mut env = base_env();
    for (k, v) in spec.env {
        if k.starts_with("LC_") || k == "LANG" || k == "LANGUAGE" {
            env.retain(|(ek, _)| ek != "LC_ALL");
        }
        env.retain(|(ek, _)| ek != k);
        env.push((k.clone(), v.clone()));
    }
    cmd.envs(env);
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut feed: Option<Vec<u8>> = None;
    match spec.input {
        Input::Null => {
            cmd.stdin(Stdio::null());
        }
        Input::File(p) => {
            let f =
                std::fs::File::open(&p).map_err(|e| format!("cannot open the input file: {e}"))?;
            cmd.stdin(Stdio::from(f));
        }
        Input::Bytes(b) => {
            cmd.stdin(Stdio::piped());
            feed = Some(b);
        }
    }
    let merged_reader = if spec.merge_stderr {
        let (r, w) = std::io::pipe().map_err(|e| format!("cannot create a pipe: {e}"))?;
        let w2 = w
            .try_clone()
            .map_err(|e| format!("cannot create a pipe: {e}"))?;
        cmd.stdout(Stdio::from(w));
        cmd.stderr(Stdio::from(w2));
        Some(r)
    } else {
        cmd.stdout(Stdio::piped());
        cmd.stderr(Stdio::piped());
        None
    };
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("could not start `{}`: {e}", spec.program.display()))?;
    // The Command holds the write ends of a merged pipe; drop it so EOF can arrive.
    drop(cmd);
    let pid = child.id();
    if let (Some(bytes), Some(mut stdin)) = (feed, child.stdin.take()) {
        std::thread::spawn(move || {
            // A reader that stops early (head) closes the pipe; that is not an error.
            let _ = stdin.write_all(&bytes);
        });
    }
    let (tx, rx) = mpsc::channel::<(u8, Vec<u8>, bool)>();
    let mut readers = 0;
    let spawn_reader =
        |which: u8, mut r: Box<dyn Read + Send>, tx: mpsc::Sender<(u8, Vec<u8>, bool)>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 64 * 1024];
                let mut truncated = false;
                loop {
                    match r.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if buf.len() + n <= MAX_STAGE_BYTES {
                                buf.extend_from_slice(&chunk[..n]);
                            } else {
                                truncated = true;
                            }
                        }
                    }
                }
                let _ = tx.send((which, buf, truncated));
            });
        };
    if let Some(r) = merged_reader {
        spawn_reader(1, Box::new(r), tx.clone());
        readers += 1;
    } else {
        if let Some(out) = child.stdout.take() {
            spawn_reader(1, Box::new(out), tx.clone());
            readers += 1;
        }
        if let Some(err) = child.stderr.take() {
            spawn_reader(2, Box::new(err), tx.clone());
            readers += 1;
        }
    }
    drop(tx);
    let mut ran = Ran::default();
    let mut done = 0;
    while done < readers {
        let now = Instant::now();
        let left = spec.deadline.saturating_duration_since(now);
        match rx.recv_timeout(left) {
            Ok((which, buf, truncated)) => {
                done += 1;
                ran.truncated |= truncated;
                if which == 1 {
                    ran.stdout = buf;
                } else {
                    ran.stderr = buf;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                ran.timed_out = true;
                kill_tree(&mut child, pid);
                // Collect what was read before the kill; give the readers a moment.
                while done < readers {
                    match rx.recv_timeout(Duration::from_millis(500)) {
                        Ok((which, buf, _)) => {
                            done += 1;
                            if which == 1 {
                                ran.stdout = buf;
                            } else {
                                ran.stderr = buf;
                            }
                        }
                        Err(_) => break,
                    }
                }
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // The pipes are closed; the process has exited or is about to.
    loop {
        match child.try_wait() {
            Ok(Some(st)) => {
                ran.status = st.code();
                break;
            }
            Ok(None) => {
                if Instant::now() >= spec.deadline {
                    ran.timed_out = true;
                    kill_tree(&mut child, pid);
                    ran.status = child.wait().ok().and_then(|s| s.code());
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(e) => return Err(format!("waiting for the command failed: {e}")),
        }
    }
    // Without a pid namespace, children that outlived the leader die with its group.
    if sb.bwrap.is_none() {
        kill_group(pid);
    }
    Ok(ran)
}

/// The file name of a program path (`/usr/bin/cat` → `cat`).
fn program_name(p: &Path) -> std::ffi::OsString {
    p.file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| p.as_os_str().to_os_string())
}

/// Kills the process group (and with bwrap, the whole pid namespace dies with it).
fn kill_tree(child: &mut std::process::Child, pid: u32) {
    kill_group(pid);
    let _ = child.kill();
}

fn kill_group(pid: u32) {
    if let Some(p) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(p, rustix::process::Signal::KILL);
    }
}

fn data_limit() -> rustix::process::Rlimit {
    rustix::process::Rlimit {
        current: Some(MAX_DATA_BYTES),
        maximum: Some(MAX_DATA_BYTES),
    }
}

/// Under bubblewrap: the memory cap and no core dumps, set on bwrap and inherited by the
/// program inside (the namespaces give the rest).
#[allow(unsafe_code)]
fn limit_memory(cmd: &mut Command) {
    use rustix::process::{Resource, Rlimit, setrlimit};
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before exec and only makes two
    // setrlimit system calls on values already in memory: no allocation, no locks.
    unsafe {
        cmd.pre_exec(|| {
            setrlimit(Resource::Data, data_limit())?;
            setrlimit(
                Resource::Core,
                Rlimit {
                    current: Some(0),
                    maximum: Some(0),
                },
            )?;
            Ok(())
        });
    }
}

/// Without bwrap: no new privileges, no file growth, no core dumps, bounded CPU, and the
/// Landlock rules and seccomp filter when there are some. `landlock` is this child's own
/// copy of the ruleset (a duplicated descriptor) with the rules it came from (for the
/// filter), all built in the parent: allocating after fork is not safe.
#[allow(unsafe_code)]
fn limit_child(
    cmd: &mut Command,
    landlock: Option<(::landlock::RulesetCreated, Arc<confine::Rules>)>,
) {
    use rustix::process::{Resource, Rlimit, setrlimit};
    use std::os::unix::process::CommandExt;
    let mut landlock = landlock;
    // SAFETY: the closure runs in the forked child before exec. It only makes raw
    // setrlimit/prctl system calls through rustix and, through the landlock and
    // seccompiler crates, prctl(PR_SET_NO_NEW_PRIVS), landlock_restrict_self on a
    // descriptor opened in the parent and seccomp(SET_MODE_FILTER) on a program compiled
    // in the parent; `take` moves a value already in memory and `restrict` builds its
    // error from an ErrorKind. No allocation, no locks, nothing that is not
    // async-signal-safe, and no state shared with the parent is touched (the child has
    // its own copy of memory; the Arc is only read, its count untouched).
    unsafe {
        cmd.pre_exec(move || {
            let zero = Rlimit {
                current: Some(0),
                maximum: Some(0),
            };
            setrlimit(Resource::Fsize, zero)?;
            // A write past the limit then fails with EFBIG instead of killing the program
            // with SIGXFSZ, so it can clean up: `git diff` on a stat-dirty file refreshes
            // the index, and killed mid-write it would leave `.git/index.lock` behind
            // (breaking the user's next git command) under the fallback. An ignored
            // signal stays ignored across exec.
            // SAFETY: signal(2) is async-signal-safe and touches only this process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            setrlimit(Resource::Core, zero)?;
            setrlimit(Resource::Data, data_limit())?;
            setrlimit(
                Resource::Cpu,
                Rlimit {
                    current: Some(20),
                    maximum: Some(20),
                },
            )?;
            rustix::thread::set_no_new_privs(true)?;
            if let Some((rules, all)) = landlock.take() {
                let filter = all.filter.as_ref().ok();
                let r = confine::restrict(rules, filter);
                // The child's Arc is never the last (the parent's copy counts too), but
                // forgetting it keeps even a count update out of the child.
                std::mem::forget(all);
                r?;
            }
            Ok(())
        });
    }
}
