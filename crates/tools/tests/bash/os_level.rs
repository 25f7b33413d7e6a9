//! Landlock denies at the OS level, not through the policy: programs are started through
//! the exec layer directly (no parse, no policy, no path checks) with the same rules the
//! tool uses, and the kernel must stop what the policy would have refused. Each test
//! first runs the same command without Landlock, to show it would have succeeded.
//!
//! Skipped, with a note on stderr, only when the kernel has no Landlock.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use explore_tools::bash::confine::{self, Support};
use explore_tools::bash::exec::{self, Input, Ran, Sandbox, Spawn, find_program};

use crate::fixture::{Fixture, SECRET, SENTINEL};

/// The programs these tests start under Landlock (bash only as a vehicle for `/dev/tcp`
/// and `kill`; the tool never lets it execute).
const PROGRAMS: [&str; 7] = ["true", "cat", "ls", "sort", "find", "grep", "bash"];

fn programs(names: &[&str]) -> Vec<PathBuf> {
    names.iter().filter_map(|n| find_program(n)).collect()
}

/// The tool's rules for the fixture, or `None` (with a note) when the kernel lacks them.
fn rules(f: &Fixture) -> Option<Arc<confine::Rules>> {
    rules_with(f, &PROGRAMS)
}

/// [`rules`] with only `names` executable.
fn rules_with(f: &Fixture, names: &[&str]) -> Option<Arc<confine::Rules>> {
    let masked: Vec<PathBuf> = [
        ".env",
        "config/.env.production",
        "certs/server.key",
        "hard.txt",
    ]
    .iter()
    .map(|m| f.root.path().join(m))
    .collect();
    match confine::build(f.root.path(), &masked, &programs(names)) {
        Ok(r) => {
            if r.support != Support::Full {
                eprintln!("NOTE: the kernel enforces only part of Landlock ABI 6");
            }
            // A kernel (or container) that takes the rules but cannot run under them.
            let r = Arc::new(r);
            let probe = Sandbox {
                bwrap: None,
                landlock: Some(r.clone()),
                root: f.root.path().to_path_buf(),
                masked: Vec::new(),
            };
            let spawn = Spawn {
                program: &find_program("true").unwrap(),
                args: &[],
                env: &[],
                cwd: f.root.path(),
                input: Input::Null,
                merge_stderr: false,
                deadline: Instant::now() + Duration::from_secs(10),
            };
            match exec::run(&probe, spawn) {
                Ok(ran) if ran.status == Some(0) => Some(r),
                other => {
                    eprintln!("SKIPPED: programs cannot run under Landlock here ({other:?})");
                    None
                }
            }
        }
        Err(why) => {
            eprintln!("SKIPPED: no Landlock on this kernel ({why})");
            None
        }
    }
}

fn sandbox(f: &Fixture, rules: Option<Arc<confine::Rules>>, masked: &[&str]) -> Sandbox {
    Sandbox {
        bwrap: None,
        landlock: rules,
        root: f.root.path().to_path_buf(),
        masked: masked.iter().map(|m| f.root.path().join(m)).collect(),
    }
}

/// Runs `program args…` in the repository under `sb`, bypassing every check above exec.
fn run(f: &Fixture, sb: &Sandbox, program: &str, args: &[&str]) -> Ran {
    let path = find_program(program).unwrap_or_else(|| panic!("{program} is not installed"));
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    exec::run(
        sb,
        Spawn {
            program: &path,
            args: &args,
            env: &[],
            cwd: f.root.path(),
            input: Input::Null,
            merge_stderr: false,
            deadline: Instant::now() + Duration::from_secs(10),
        },
    )
    .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn landlock_stops_reads_outside_the_repository() {
    let f = Fixture::new();
    let Some(rules) = rules(&f) else { return };
    // A file outside the repository, by absolute path, through a symlink and a hard link.
    let outside = f.base().join("outside/sentinel.txt");
    let outside = outside.to_str().unwrap();
    for args in [
        vec![outside],
        vec!["sentinel_link"],
        vec!["link_out/other.txt"],
        vec!["hard.txt"],
    ] {
        let open = run(&f, &sandbox(&f, None, &[]), "cat", &args);
        assert!(
            text(&open.stdout).contains(SENTINEL),
            "{args:?}: control run"
        );
        let ran = run(
            &f,
            &sandbox(&f, Some(rules.clone()), &["hard.txt"]),
            "cat",
            &args,
        );
        assert_eq!(text(&ran.stdout), "", "{args:?}");
        assert_eq!(ran.status, Some(1), "{args:?}");
        assert!(
            text(&ran.stderr).ends_with(": Permission denied\n"),
            "{args:?}: {}",
            text(&ran.stderr)
        );
    }
    // The system's own files beyond the few the programs need stay closed too.
    let ran = run(
        &f,
        &sandbox(&f, Some(rules.clone()), &[]),
        "cat",
        &["/etc/passwd"],
    );
    assert_eq!((text(&ran.stdout).as_str(), ran.status), ("", Some(1)));
    // Listing outside is denied as well.
    let ran = run(
        &f,
        &sandbox(&f, Some(rules), &[]),
        "ls",
        &[f.base().to_str().unwrap()],
    );
    assert_eq!((text(&ran.stdout).as_str(), ran.status), ("", Some(2)));
}

#[test]
fn landlock_hides_masked_files_but_not_their_neighbours() {
    let f = Fixture::new();
    let Some(rules) = rules(&f) else { return };
    let masked = sandbox(&f, Some(rules.clone()), &[".env"]);
    for secret in [".env", "config/.env.production", "certs/server.key"] {
        let ran = run(&f, &masked, "cat", &[secret]);
        assert_eq!(text(&ran.stdout), "", "{secret}");
        assert!(
            text(&ran.stderr).ends_with(": Permission denied\n"),
            "{secret}"
        );
    }
    // grep -r without the policy's excludes: every file readable but the masked ones.
    let ran = run(
        &f,
        &masked,
        "grep",
        &["-rl", "--exclude-dir=.git", "API_KEY", "."],
    );
    assert_eq!(text(&ran.stdout), "./.env.example\n");
    assert!(!text(&ran.stdout).contains(SECRET));
    let ran = run(&f, &masked, "cat", &["internal/model/issue.go"]);
    assert_eq!(text(&ran.stdout), crate::fixture::ISSUE_GO);
    // git's ruleset (no masked list) reads the whole repository, as under bubblewrap.
    let whole = sandbox(&f, Some(rules), &[]);
    let ran = run(&f, &whole, "cat", &[".env"]);
    assert!(text(&ran.stdout).contains(SECRET));
}

#[test]
fn landlock_stops_every_write() {
    let f = Fixture::new();
    let Some(rules) = rules(&f) else { return };
    let repo = f.root.path();
    // Control: without Landlock, `sort -o` creates the file (RLIMIT_FSIZE=0 only stops
    // its bytes) and `find -delete` removes one.
    let open = sandbox(&f, None, &[]);
    run(&f, &open, "sort", &["-o", "created.txt", "README.md"]);
    assert!(repo.join("created.txt").exists());
    std::fs::write(repo.join("doomed.txt"), "x").unwrap();
    run(&f, &open, "find", &[".", "-name", "doomed.txt", "-delete"]);
    assert!(!repo.join("doomed.txt").exists());
    std::fs::remove_file(repo.join("created.txt")).unwrap();

    let ll = sandbox(&f, Some(rules), &[]);
    let ran = run(&f, &ll, "sort", &["-o", "created.txt", "README.md"]);
    assert_eq!(ran.status, Some(2));
    assert!(!repo.join("created.txt").exists());
    std::fs::write(repo.join("doomed.txt"), "x").unwrap();
    let ran = run(&f, &ll, "find", &[".", "-name", "doomed.txt", "-delete"]);
    assert_eq!(ran.status, Some(1));
    assert_eq!(
        std::fs::read_to_string(repo.join("doomed.txt")).unwrap(),
        "x"
    );
    // Nor into a directory outside, nor /tmp.
    let victim = f.base().join("victim/v.txt");
    run(
        &f,
        &ll,
        "sort",
        &["-o", victim.to_str().unwrap(), "README.md"],
    );
    assert_eq!(f.victim_entries(), 0);
    let tmp = std::env::temp_dir().join(format!("landlock-probe-{}", std::process::id()));
    run(&f, &ll, "sort", &["-o", tmp.to_str().unwrap(), "README.md"]);
    assert!(!tmp.exists());
}

/// Only the allowed programs (and their ELF interpreter) may be executed: awk's
/// `system()` finds no shell, and a copy of `cat` planted in the repository does not
/// start, however the policy was got past.
#[test]
fn landlock_executes_only_the_allowed_programs() {
    let f = Fixture::new();
    let planted = f.root.path().join("planted-cat");
    std::fs::copy(find_program("cat").unwrap(), &planted).unwrap();
    let Some(rules) = rules_with(&f, &["true", "awk", "cat"]) else {
        return;
    };
    let awk = ["BEGIN { system(\"echo ran\"); print \"after\" }"];
    let open = run(&f, &sandbox(&f, None, &[]), "awk", &awk);
    assert_eq!(text(&open.stdout), "ran\nafter\n", "control run");
    let ran = run(&f, &sandbox(&f, Some(rules.clone()), &[]), "awk", &awk);
    assert_eq!(text(&ran.stdout), "after\n", "{}", text(&ran.stderr));
    // The allowed programs still run, and read.
    let ran = run(
        &f,
        &sandbox(&f, Some(rules.clone()), &[]),
        "cat",
        &["go.mod"],
    );
    assert_eq!(ran.status, Some(0));
    let spawn = |sb: &Sandbox| {
        exec::run(
            sb,
            Spawn {
                program: &planted,
                args: &["go.mod".to_string()],
                env: &[],
                cwd: f.root.path(),
                input: Input::Null,
                merge_stderr: false,
                deadline: Instant::now() + Duration::from_secs(10),
            },
        )
    };
    let open = spawn(&sandbox(&f, None, &[])).unwrap();
    assert_eq!(open.status, Some(0), "control run of the planted copy");
    match spawn(&sandbox(&f, Some(rules), &[])) {
        Err(e) => assert!(e.contains("Permission denied"), "{e}"),
        Ok(ran) => panic!("the planted copy ran: {ran:?}"),
    }
}

/// bash's `/dev/tcp` and `/dev/udp` make plain `connect`s; the test listens on loopback.
#[test]
fn landlock_stops_tcp_connect_udp_and_signals_beyond_the_sandbox() {
    let f = Fixture::new();
    let Some(rules) = rules(&f) else { return };
    if rules.support != Support::Full {
        eprintln!("SKIPPED: TCP rules and scopes need Landlock ABI 6");
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!("echo hi > /dev/tcp/127.0.0.1/{port}");
    let open = run(&f, &sandbox(&f, None, &[]), "bash", &["-c", &connect]);
    assert_eq!(open.status, Some(0), "control: {}", text(&open.stderr));
    assert!(
        listener.accept().is_ok(),
        "control connection did not arrive"
    );

    // Landlock alone (the seccomp filter off, so the socket is created and only
    // `connect` is judged), then both.
    let mut landlock_only = confine::build(f.root.path(), &[], &programs(&PROGRAMS)).unwrap();
    landlock_only.filter = Err("off for this test".into());
    for rules in [Arc::new(landlock_only), rules.clone()] {
        let ran = run(
            &f,
            &sandbox(&f, Some(rules), &[]),
            "bash",
            &["-c", &connect],
        );
        assert_eq!(ran.status, Some(1));
        assert!(
            text(&ran.stderr).contains("Permission denied"),
            "{}",
            text(&ran.stderr)
        );
        assert!(listener.accept().is_err(), "a connection got through");
    }

    // UDP: Landlock has no UDP rules; the seccomp filter refuses the socket itself.
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let send = format!(
        "echo hi > /dev/udp/127.0.0.1/{}",
        udp.local_addr().unwrap().port()
    );
    let open = run(&f, &sandbox(&f, None, &[]), "bash", &["-c", &send]);
    assert_eq!(open.status, Some(0), "control: {}", text(&open.stderr));
    let mut buf = [0u8; 16];
    assert_eq!(udp.recv(&mut buf).unwrap(), 3, "control datagram");
    if rules.filter.is_ok() {
        let ran = run(
            &f,
            &sandbox(&f, Some(rules.clone()), &[]),
            "bash",
            &["-c", &send],
        );
        assert_eq!(ran.status, Some(1));
        assert!(
            text(&ran.stderr).contains("Permission denied"),
            "{}",
            text(&ran.stderr)
        );
        assert!(udp.recv(&mut buf).is_err(), "a datagram got through");
    } else {
        eprintln!("NOTE: no seccomp filter on this architecture; UDP not tested");
    }

    // Signals: the test process is outside the sandbox's domain.
    let probe = format!("kill -0 {}", std::process::id());
    let open = run(&f, &sandbox(&f, None, &[]), "bash", &["-c", &probe]);
    assert_eq!(open.status, Some(0), "control: {}", text(&open.stderr));
    let ran = run(&f, &sandbox(&f, Some(rules), &[]), "bash", &["-c", &probe]);
    assert_eq!(ran.status, Some(1));
    assert!(
        text(&ran.stderr).contains("Operation not permitted"),
        "{}",
        text(&ran.stderr)
    );
}

#[test]
fn the_tool_reports_landlock_when_it_uses_it() {
    let f = Fixture::new();
    let Some(rules) = rules(&f) else {
        // Without Landlock the default is bubblewrap or the fallback.
        assert!(
            !f.tool
                .layers()
                .contains(&explore_tools::bash::Layer::Landlock)
        );
        return;
    };
    let layers = f.tool.layers();
    if rules.support == Support::Full {
        assert!(layers.contains(&explore_tools::bash::Layer::Landlock));
        assert_eq!(
            layers.contains(&explore_tools::bash::Layer::Seccomp),
            rules.filter.is_ok()
        );
        assert!(!layers.contains(&explore_tools::bash::Layer::Bubblewrap));
        assert_eq!(f.tool.missing_layers(), Vec::<String>::new());
        // And a repository link out is refused by the kernel even through the tool.
        let out = f.run("cat sentinel_link");
        assert!(out.is_err(), "the path check still refuses first");
    }
    assert!(Path::new(f.root.path()).is_absolute());
}
