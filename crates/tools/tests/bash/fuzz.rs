//! Property tests of the parser and the policy: random command lines built from the
//! pieces attacks are made of never panic, and nothing outside the allow-list ever gets
//! through. A sample of them is also run for real against the hostile fixture.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use crate::fixture::{Fixture, KEY_SECRET, SECRET, SENTINEL, TOKEN};

const PROGRAMS: &[&str] = &[
    "cat",
    "head",
    "tail",
    "wc",
    "nl",
    "grep",
    "egrep",
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
    "cd",
    "echo",
    "true",
    "false",
    "pwd",
    "rm",
    "sh",
    "bash",
    "python3",
    "eval",
    "exec",
    "curl",
    "tee",
    "less",
    "env",
    "/bin/sh",
    "./x",
    "mv",
    "perl",
    "source",
    "sudo",
    "nohup",
    "LC_ALL=C",
    "X=1",
    "busybox",
    "gawk",
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
    "git config",
    "git stash",
    "git remote",
    "git reflog",
    "git worktree",
    "git cat-file",
];

const ARGS: &[&str] = &[
    "-n",
    "-r",
    "-l",
    "-exec",
    "-delete",
    "--pre=sh",
    "--pre",
    "-o",
    "x",
    "go.mod",
    ".env",
    "../outside/sentinel.txt",
    "/etc/passwd",
    "*",
    "*.go",
    "'a b'",
    "\"q\"",
    "$(ls)",
    "$(cat .env)",
    "$(echo /etc/passwd)",
    "$HOME",
    "`id`",
    "{a,b}",
    "-i",
    "w",
    "'s/a/b/w x'",
    "'1,2p'",
    "'{print}'",
    "'{system(\"id\")}'",
    "-c",
    "core.pager=sh",
    "-C",
    "..",
    "log",
    "status",
    "diff",
    "--no-index",
    "--output=x",
    "sh",
    "rm",
    "-L",
    "-R",
    "-f",
    "link_out",
    "hard.txt",
    "sentinel_link",
    "passwd",
    "internal",
    "docs/notes.txt",
    "-e",
    "--",
    "-0",
    "-I{}",
    "'w /tmp/x'",
    "HEAD:.env",
    "-p",
    "--follow",
    "~",
    "~/x",
    "'-'",
    "\\;",
    "{}",
    "+",
    // Issue 15: the new programs' and git read forms' dangerous pieces.
    "env",
    "'$ENV'",
    "input_filename",
    "--rawfile",
    "--slurpfile",
    "--from-file",
    "-x",
    "-X",
    "--exec",
    "--pager",
    "-u",
    "{go.mod,.env}",
    "{docs,..}/x",
    "<(cat .env)",
    ".git/config",
    ".git",
    "--get",
    "--list",
    "--global",
    "--file",
    "--unset",
    "--edit",
    "pop",
    "drop",
    "list",
    "show",
    "expire",
    "add",
    "-v",
    "--batch",
    "HEAD",
    "docs/evil.sha256",
    "docs/config.json",
    "'.name'",
];

const SEPS: &[&str] = &[
    " | ",
    " ; ",
    " && ",
    " || ",
    "\n",
    " & ",
    " > out ",
    " 2>&1 ",
    " < go.mod ",
    " ( ",
    " ) ",
    " 2>/dev/null ; ",
    " >/dev/null | ",
    " |& ",
];

const BUILTINS: &[&str] = &["cd", "echo", "true", "false", "pwd", ":"];

fn command_line() -> impl Strategy<Value = String> {
    let stage = (
        prop::sample::select(PROGRAMS),
        prop::collection::vec(prop::sample::select(ARGS), 0..5),
    )
        .prop_map(|(p, a)| {
            let mut s = p.to_string();
            for x in a {
                s.push(' ');
                s.push_str(x);
            }
            s
        });
    (
        stage.clone(),
        prop::collection::vec((prop::sample::select(SEPS), stage), 0..3),
    )
        .prop_map(|(first, rest)| {
            let mut s = first;
            for (sep, st) in rest {
                s.push_str(sep);
                s.push_str(&st);
            }
            s
        })
}

fn allowed(p: &str) -> bool {
    explore_tools::bash::policy::ALLOWED.contains(&p) || BUILTINS.contains(&p)
}

#[test]
fn random_command_lines_never_get_an_unvetted_program_through() {
    let f = Fixture::new();
    let mut runner = TestRunner::new(Config {
        cases: 1500,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&command_line(), |cmd| {
            match f.tool.check(&cmd) {
                Ok(programs) => {
                    for p in &programs {
                        prop_assert!(allowed(p), "`{}` let `{}` through", cmd, p);
                    }
                }
                Err(e) => {
                    prop_assert!(
                        e.to_string().starts_with("Command blocked: "),
                        "{}: {}",
                        cmd,
                        e
                    );
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn arbitrary_text_never_panics_the_parser_or_policy() {
    let f = Fixture::new();
    let mut runner = TestRunner::new(Config {
        cases: 1500,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&"\\PC{0,80}", |cmd| {
            if let Ok(programs) = f.tool.check(&cmd) {
                for p in &programs {
                    prop_assert!(allowed(p), "`{}` let `{}` through", cmd, p);
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn random_command_lines_run_for_real_never_leak_or_write() {
    let f = Fixture::new();
    let mut runner = TestRunner::new(Config {
        cases: 120,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&command_line(), |cmd| {
            if let Ok(out) = f.run(&cmd) {
                for bad in [SENTINEL, SECRET, KEY_SECRET, TOKEN, "root:x:0:0"] {
                    prop_assert!(
                        !out.text.contains(bad),
                        "`{}` leaked `{}`: {}",
                        cmd,
                        bad,
                        out.text
                    );
                }
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(f.victim_entries(), 0);
    assert!(f.markers().is_empty(), "{:?}", f.markers());
    assert!(!f.root.path().join("out").exists());
    assert!(!f.root.path().join("x").exists());
}
