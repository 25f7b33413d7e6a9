//! Honest exploration commands that must run and return exactly the right output, under
//! the default confinement and under each one forced (Landlock, bubblewrap, the fallback;
//! one the machine lacks falls back, with a note).

use crate::fixture::{FORCED, Fixture, ISSUE_GO, README};

/// (command, exact output). Sorting is explicit wherever the order is the file system's.
pub fn cases() -> Vec<(&'static str, String)> {
    let s = |x: &str| x.to_string();
    vec![
        ("cat README.md", s(README)),
        ("head -2 README.md", s("# relay\n\n")),
        ("head -n 1 go.mod", s("module example.com/relay\n")),
        ("head -c 6 README.md", s("# rela")),
        ("tail -1 docs/notes.txt", s("beta\n")),
        ("tail -n 2 docs/notes.txt", s("gamma\nbeta\n")),
        ("tail -n +3 docs/notes.txt", s("gamma\nbeta\n")),
        ("wc -l docs/notes.txt", s("4 docs/notes.txt\n")),
        ("wc -l < docs/notes.txt", s("4\n")),
        (
            "cat docs/notes.txt | sort | uniq -c",
            s("      1 alpha\n      2 beta\n      1 gamma\n"),
        ),
        ("sort -n docs/numbers.txt", s("1\n2\n3\n10\n")),
        ("sort docs/numbers.txt", s("1\n10\n2\n3\n")),
        (
            "LC_ALL=C sort -r docs/notes.txt",
            s("gamma\nbeta\nbeta\nalpha\n"),
        ),
        ("sort -u docs/notes.txt", s("alpha\nbeta\ngamma\n")),
        ("sort docs/notes.txt | uniq -d", s("beta\n")),
        ("uniq docs/notes.txt", s("alpha\nbeta\ngamma\nbeta\n")),
        ("grep -n beta docs/notes.txt", s("2:beta\n4:beta\n")),
        ("grep -c beta docs/notes.txt", s("2\n")),
        ("grep -c zeta docs/notes.txt", s("0\n")),
        (
            "egrep -n 'alpha|gamma' docs/notes.txt",
            s("1:alpha\n3:gamma\n"),
        ),
        ("fgrep -n 'a.' docs/notes.txt", s("(no matches)\n")),
        (
            "grep -rn 'func NewPlan' .",
            s("./internal/brain/plan.go:9:func NewPlan(name string) *Plan {\n"),
        ),
        (
            "grep -rln Plan --include=*.go . | sort",
            s("./cmd/relay/main.go\n./internal/brain/brain.go\n./internal/brain/plan.go\n"),
        ),
        ("grep -rn zzzz .", s("(no matches)\n")),
        (
            "grep -n IssueStore internal/model/issue.go",
            s("3:// IssueStore stores issues.\n4:type IssueStore interface {\n"),
        ),
        ("grep -rn Plan . | wc -l", s("8\n")),
        (
            "grep -rn Think --include=*.go . | cut -d: -f1 | sort -u",
            s("./cmd/relay/main.go\n./internal/brain/brain.go\n"),
        ),
        (
            "grep -A1 -n 'type Plan' internal/brain/plan.go",
            s("4:type Plan struct {\n5-\tName string\n"),
        ),
        (
            "grep -rn -m1 package internal/model",
            s("internal/model/issue.go:1:package model\n"),
        ),
        (
            "cd internal/brain && grep -n func *.go",
            s(
                "brain.go:6:func Think(p *Plan) {\nplan.go:9:func NewPlan(name string) *Plan {\nplan.go:14:func (p *Plan) Run() error {\n",
            ),
        ),
        ("cd internal && cd brain && ls", s("brain.go\nplan.go\n")),
        (
            "find . -name '*.go' | xargs grep -l Plan | sort",
            s("./cmd/relay/main.go\n./internal/brain/brain.go\n./internal/brain/plan.go\n"),
        ),
        (
            "find internal -type f | sort",
            s("internal/brain/brain.go\ninternal/brain/plan.go\ninternal/model/issue.go\n"),
        ),
        ("find . -maxdepth 1 -name '*.md'", s("./README.md\n")),
        (
            "find . -name '*.go' -not -path './internal/*'",
            s("./cmd/relay/main.go\n"),
        ),
        (
            "find internal -name plan.go -print0 | xargs -0 wc -l",
            s("17 internal/brain/plan.go\n"),
        ),
        (
            "find docs -type f -name '*.txt' | sort | xargs -n 1 wc -l",
            s("4 docs/notes.txt\n4 docs/numbers.txt\n"),
        ),
        (
            "find . -path ./internal -prune -o -name '*.go' -print",
            s("./cmd/relay/main.go\n"),
        ),
        ("find docs -type d", s("docs\n")),
        ("ls internal", s("brain\nmodel\n")),
        ("ls -1 internal/brain", s("brain.go\nplan.go\n")),
        ("ls docs/*.txt", s("docs/notes.txt\ndocs/numbers.txt\n")),
        ("ls *.md", s("README.md\n")),
        ("ls -d internal/*/", s("internal/brain/\ninternal/model/\n")),
        (
            "sed -n '9,11p' internal/brain/plan.go",
            s("func NewPlan(name string) *Plan {\n\treturn &Plan{Name: name}\n}\n"),
        ),
        (
            "sed -n '/type Plan/,/^}/p' internal/brain/plan.go",
            s("type Plan struct {\n\tName string\n}\n"),
        ),
        (
            "sed 's/beta/BETA/' docs/notes.txt",
            s("alpha\nBETA\ngamma\nBETA\n"),
        ),
        ("sed -n 1p go.mod", s("module example.com/relay\n")),
        ("sed -n -e 1p -e 3p docs/notes.txt", s("alpha\ngamma\n")),
        ("sed -n '$p' docs/notes.txt", s("beta\n")),
        ("awk '{print $2}' go.mod", s("example.com/relay\n\n1.22\n")),
        ("awk '$1 > 2' docs/numbers.txt", s("3\n10\n")),
        ("awk 'END {print NR}' docs/notes.txt", s("4\n")),
        ("awk -F. '{print $1}' go.mod", s("module example\n\ngo 1\n")),
        (
            "awk '/beta|gamma/ {n++} END {print n}' docs/notes.txt",
            s("3\n"),
        ),
        ("cut -d' ' -f1 go.mod", s("module\n\ngo\n")),
        (
            "cat go.mod | tr a-z A-Z",
            s("MODULE EXAMPLE.COM/RELAY\n\nGO 1.22\n"),
        ),
        ("tr -d a < docs/notes.txt | head -1", s("lph\n")),
        (
            "nl -ba docs/notes.txt",
            s("     1\talpha\n     2\tbeta\n     3\tgamma\n     4\tbeta\n"),
        ),
        (
            "cat -n docs/notes.txt | head -2",
            s("     1\talpha\n     2\tbeta\n"),
        ),
        ("basename internal/brain/plan.go", s("plan.go\n")),
        ("dirname internal/brain/plan.go", s("internal/brain\n")),
        ("echo hello world", s("hello world\n")),
        ("echo 'a  b' \"c\"", s("a  b c\n")),
        ("cat README.md 2>/dev/null || true", s(README)),
        ("cat missing.txt 2>/dev/null || echo none", s("none\n")),
        (
            "cat missing.txt",
            s("cat: missing.txt: No such file or directory\n[exit status 1]\n"),
        ),
        (
            "cat missing.txt 2>&1 | head -1",
            s("cat: missing.txt: No such file or directory\n"),
        ),
        ("true && echo yes", s("yes\n")),
        ("false || echo fallback", s("fallback\n")),
        ("false && echo no", s("[exit status 1]\n")),
        ("echo a; echo b", s("a\nb\n")),
        ("echo a\necho b", s("a\nb\n")),
        ("grep -q beta docs/notes.txt && echo found", s("found\n")),
        ("ls go.mod > /dev/null && echo exists", s("exists\n")),
        (
            "grep -c func $(find internal/brain -name plan.go)",
            s("2\n"),
        ),
        (
            "wc -l \"$(find internal/model -name '*.go')\"",
            format!("{} internal/model/issue.go\n", ISSUE_GO.lines().count()),
        ),
        ("echo $(head -1 go.mod)", s("module example.com/relay\n")),
        ("pwd", s(".\n")),
        ("cd internal && pwd", s("internal\n")),
        ("cat ./--pre=sh", s("option-named file\n")),
        ("cat -- --pre=sh", s("option-named file\n")),
        ("cat * 2>/dev/null | head -1", s("option-named file\n")),
        ("grep -d skip -l option *", s("./--pre=sh\n")),
        (
            "diff docs/notes.txt docs/notes.txt && echo same",
            s("same\n"),
        ),
        ("file go.mod", s("go.mod: ASCII text\n")),
        ("stat -c %s go.mod", s("34\n")),
        (
            "du --apparent-size -b docs/notes.txt",
            s("22\tdocs/notes.txt\n"),
        ),
        ("git log --format=%s", s("initial import\n")),
        ("git log --oneline -20 -- internal/ | wc -l", s("1\n")),
        ("git log -1 --format=%an", s("t\n")),
        (
            "git log --format=%s -- internal/brain/plan.go",
            s("initial import\n"),
        ),
        (
            "cd internal && git log --format=%s -- brain",
            s("initial import\n"),
        ),
        // `git log -L`: the secret excludes are not added (git refuses pathspecs beside
        // `-L`); the file is checked instead.
        // `git log --follow`: one path, no excludes (git takes one pathspec with it).
        (
            "git log --follow --format=%s -- go.mod",
            s("initial import\n"),
        ),
        (
            "git log --follow --name-status --format=%s go.mod",
            s("initial import\n\nA\tgo.mod\n"),
        ),
        (
            "git log --format=%s -L 1,1:go.mod",
            s(
                "initial import\n\ndiff --git a/go.mod b/go.mod\n--- /dev/null\n+++ b/go.mod\n@@ -0,0 +1,1 @@\n+module example.com/relay\n",
            ),
        ),
        (
            "cd internal/brain && git log --oneline -n 1 -s -L:NewPlan:plan.go | wc -l",
            s("1\n"),
        ),
        (
            "git status --short",
            s(
                " M internal/brain/plan.go\n?? env_alias.txt\n?? hard.txt\n?? link_out\n?? passwd\n?? sentinel_link\n",
            ),
        ),
        (
            "git diff --stat",
            s(" internal/brain/plan.go | 1 +\n 1 file changed, 1 insertion(+)\n"),
        ),
        ("git diff --name-only", s("internal/brain/plan.go\n")),
        ("git diff | tail -1", s("+// changed\n")),
        (
            "git show --stat --format=%s HEAD | head -1",
            s("initial import\n"),
        ),
        (
            "git show --format= --name-only HEAD | sort | head -3",
            s("--pre=sh\n.gitattributes\nREADME.md\n"),
        ),
        (
            "git show HEAD:go.mod",
            s("module example.com/relay\n\ngo 1.22\n"),
        ),
        ("git ls-files | wc -l", s("18\n")),
        (
            "git ls-files internal",
            s("internal/brain/brain.go\ninternal/brain/plan.go\ninternal/model/issue.go\n"),
        ),
        (
            "git ls-tree --name-only HEAD internal/",
            s("internal/brain\ninternal/model\n"),
        ),
        (
            "git grep -n IssueStore",
            s(
                "internal/model/issue.go:3:// IssueStore stores issues.\ninternal/model/issue.go:4:type IssueStore interface {\n",
            ),
        ),
        ("git grep -n nothing-like-this", s("(no matches)\n")),
        (
            "git blame -L 4,4 --porcelain internal/model/issue.go | tail -1",
            s("\ttype IssueStore interface {\n"),
        ),
        ("git rev-parse --abbrev-ref HEAD", s("main\n")),
        ("git branch --show-current", s("main\n")),
        ("git branch", s("* main\n")),
        ("git tag", s("(no output)\n")),
        ("git rev-list --count HEAD", s("1\n")),
        ("git shortlog -s HEAD", s("     1\tt\n")),
        ("git --no-pager log --format=%s -1", s("initial import\n")),
        // Issue 15: the read forms of subcommands that also write, credentials redacted.
        ("git remote", s("origin\n")),
        (
            "git remote -v",
            s(
                "origin\thttps://***@example.com/relay.git (fetch)\norigin\thttps://***@example.com/relay.git (push)\n",
            ),
        ),
        (
            "git remote get-url origin",
            s("https://***@example.com/relay.git\n"),
        ),
        (
            "git remote -v | cut -d/ -f3 | sort -u",
            s("***@example.com\n"),
        ),
        ("git cat-file -t HEAD", s("commit\n")),
        ("git cat-file -s HEAD:go.mod", s("34\n")),
        (
            "git cat-file -p HEAD:go.mod",
            s("module example.com/relay\n\ngo 1.22\n"),
        ),
        ("git cat-file -p HEAD | tail -1", s("initial import\n")),
        ("git cat-file -e HEAD:go.mod && echo yes", s("yes\n")),
        ("git stash list", s("stash@{0}: On main: wip readme\n")),
        ("git stash list --format=%gs", s("On main: wip readme\n")),
        (
            "git stash show",
            s(" README.md | 1 +\n 1 file changed, 1 insertion(+)\n"),
        ),
        ("git stash show --name-only stash@{0}", s("README.md\n")),
        ("git config --get core.bare", s("false\n")),
        ("git config core.bare", s("false\n")),
        ("git config get core.bare", s("false\n")),
        (
            "git config --get remote.origin.url",
            s("https://***@example.com/relay.git\n"),
        ),
        ("git config --get user.password", s("***\n")),
        (
            "git config --get-regexp '^remote\\.'",
            s(
                "remote.origin.url https://***@example.com/relay.git\nremote.origin.fetch +refs/heads/*:refs/remotes/origin/*\n",
            ),
        ),
        (
            "git config --list | grep -E '^(http|credential|sendemail|user|included)'",
            s(
                "http.https://example.com/.extraheader=***\ncredential.helper=***\nsendemail.smtppass=***\nuser.password=***\n",
            ),
        ),
        ("git config --list --name-only | grep -c '^alias'", s("2\n")),
        ("git reflog -1 --format=%gs", s("reset: moving to HEAD\n")),
        (
            "git reflog show --format=%gs main",
            s("commit (initial): initial import\n"),
        ),
        ("git worktree list | wc -l", s("1\n")),
        // Issue 15: brace lists expanded by the tool.
        ("echo {a,b}", s("a b\n")),
        (
            "ls -d internal/{brain,model}",
            s("internal/brain\ninternal/model\n"),
        ),
        (
            "ls internal/{brain,model}",
            s("internal/brain:\nbrain.go\nplan.go\n\ninternal/model:\nissue.go\n"),
        ),
        (
            "grep -c func internal/brain/{plan,brain}.go",
            s("internal/brain/plan.go:2\ninternal/brain/brain.go:1\n"),
        ),
        ("wc -l docs/{notes,numbers}.txt | tail -1", s(" 8 total\n")),
        (
            "grep -rl Plan --include=*.{go,md} internal | sort",
            s("internal/brain/brain.go\ninternal/brain/plan.go\n"),
        ),
        (
            "git show stash@{0} --format=%s -s",
            s("On main: wip readme\n"),
        ),
        // Issue 15: xargs feeds any allowed program; each command line is vetted.
        (
            "git log --format=%H -1 | xargs git show -s --format=%s",
            s("initial import\n"),
        ),
        ("git rev-parse HEAD | xargs git cat-file -t", s("commit\n")),
        ("echo internal/brain | xargs ls", s("brain.go\nplan.go\n")),
        ("echo a b | xargs echo", s("a b\n")),
        (
            "ls docs/*.txt | xargs -n 1 basename",
            s("notes.txt\nnumbers.txt\n"),
        ),
        (
            "find internal -name '*.go' | xargs sha256sum | wc -l",
            s("3\n"),
        ),
        ("echo docs/config.json | xargs jq -r .name", s("relay\n")),
        ("find docs -name '*.json' | xargs jq -r .name", s("relay\n")),
        (
            "git ls-files '*.go' | xargs wc -l | tail -1",
            s(" 44 total\n"),
        ),
        (
            "jq -c '.deps | to_entries[]' docs/config.json",
            s("{\"key\":\"brain\",\"value\":\"1.0\"}\n{\"key\":\"store\",\"value\":\"2.1\"}\n"),
        ),
        ("od -An -tx1 -N4 go.mod", s(" 6d 6f 64 75\n")),
        (
            "hexdump -n 4 -e '4/1 \"%02x\" \"\\n\"' go.mod",
            s("6d6f6475\n"),
        ),
        (
            "xxd -s 7 -l 7 go.mod",
            s("00000007: 6578 616d 706c 65                        example\n"),
        ),
        ("sha256sum -c docs/SHA256SUMS --quiet && echo ok", s("ok\n")),
        ("git stash show -u --name-status", s("M\tREADME.md\n")),
        (
            "git reflog -3 --format='%gd %gs'",
            s("HEAD@{0} reset: moving to HEAD\nHEAD@{1} commit (initial): initial import\n"),
        ),
        (
            "git remote get-url --push origin",
            s("https://***@example.com/relay.git\n"),
        ),
        (
            "cat docs/{notes,numbers}.txt | sort -n | head -2",
            s("alpha\nbeta\n"),
        ),
        (
            "grep -rn --include=*.{go,md} TODO . | sort",
            s(
                "./README.md:4:TODO: write docs\n./internal/brain/plan.go:13:// TODO: validate names\n",
            ),
        ),
        // Issue 15: more read-only programs.
        ("jq -r .name docs/config.json", s("relay\n")),
        ("jq .env docs/config.json", s("\"prod\"\n")),
        ("jq -c .ports docs/config.json", s("[8080,9090]\n")),
        (
            "jq -r '.deps | keys[]' docs/config.json",
            s("brain\nstore\n"),
        ),
        ("jq '.ports | length' docs/config.json", s("2\n")),
        ("cat docs/config.json | jq -r .version", s("1.2.0\n")),
        ("jq -r -f docs/name.jq docs/config.json", s("relay\n")),
        (
            "jq -r --arg k brain '.deps[$k]' docs/config.json",
            s("1.0\n"),
        ),
        (
            "jq -r '\"\\(.name)@\\(.version)\"' docs/config.json",
            s("relay@1.2.0\n"),
        ),
        (
            "od -c -N 5 go.mod",
            s("0000000   m   o   d   u   l\n0000005\n"),
        ),
        (
            "xxd -l 6 go.mod",
            s("00000000: 6d6f 6475 6c65                           module\n"),
        ),
        ("xxd -p -l 4 go.mod", s("6d6f6475\n")),
        (
            "hexdump -C -n 6 go.mod",
            s("00000000  6d 6f 64 75 6c 65                                 |module|\n00000006\n"),
        ),
        (
            "sha256sum go.mod",
            s("e60c12acdae151bf0ebbeebb5588c94a9ba61ca2583328d2e36fda9cef2f82e3  go.mod\n"),
        ),
        (
            "md5sum go.mod",
            s("2aeaea8270d61eba3127020dc5a8dea0  go.mod\n"),
        ),
        ("sha256sum -c docs/SHA256SUMS", s("go.mod: OK\n")),
        (
            "base64 go.mod",
            s("bW9kdWxlIGV4YW1wbGUuY29tL3JlbGF5CgpnbyAxLjIyCg==\n"),
        ),
        ("echo aGVsbG8K | base64 -d", s("hello\n")),
        (
            "cat go.mod | column -t",
            s("module  example.com/relay\ngo      1.22\n"),
        ),
        (
            "git -C internal log --format=%s -1 -- .",
            s("initial import\n"),
        ),
    ]
}

pub fn rg_cases() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "rg -n TODO --sort=path",
            "README.md:4:TODO: write docs\ninternal/brain/plan.go:13:// TODO: validate names\n",
        ),
        (
            "rg -n TODO --sort=path 2>&1 | head -20",
            "README.md:4:TODO: write docs\ninternal/brain/plan.go:13:// TODO: validate names\n",
        ),
        (
            "rg -l Plan --sort=path",
            "cmd/relay/main.go\ninternal/brain/brain.go\ninternal/brain/plan.go\n",
        ),
        ("rg -c beta docs", "docs/notes.txt:2\n"),
        (
            "rg --files --sort=path internal",
            "internal/brain/brain.go\ninternal/brain/plan.go\ninternal/model/issue.go\n",
        ),
        ("rg -n zzzz", "(no matches)\n"),
        (
            "rg -n -g '*.go' 'func Think'",
            "internal/brain/brain.go:6:func Think(p *Plan) {\n",
        ),
        ("cd internal && rg -l IssueStore", "model/issue.go\n"),
    ]
}

fn check_all(f: &Fixture) -> usize {
    let mut failures = Vec::new();
    let mut n = 0;
    let has_file = explore_tools::bash::exec::find_program("file").is_some();
    for (cmd, want) in cases() {
        if cmd.starts_with("file ") && !has_file {
            eprintln!("`file` is not installed: `{cmd}` was not run");
            continue;
        }
        n += 1;
        match f.run(cmd) {
            Ok(out) if out.text == want => {}
            Ok(out) => failures.push(format!("`{cmd}`\n  want {want:?}\n  got  {:?}", out.text)),
            Err(e) => failures.push(format!("`{cmd}` refused: {e}")),
        }
    }
    if explore_tools::bash::exec::find_program("rg").is_some() {
        for (cmd, want) in rg_cases() {
            n += 1;
            match f.run(cmd) {
                Ok(out) if out.text == want => {}
                Ok(out) => {
                    failures.push(format!("`{cmd}`\n  want {want:?}\n  got  {:?}", out.text))
                }
                Err(e) => failures.push(format!("`{cmd}` refused: {e}")),
            }
        }
    } else {
        eprintln!("ripgrep is not installed: the rg cases were not run");
    }
    assert!(
        failures.is_empty(),
        "{} of {n} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        f.markers().is_empty(),
        "hostile git settings ran: {:?}",
        f.markers()
    );
    n
}

#[test]
fn honest_commands_run_with_the_best_confinement() {
    let f = Fixture::new();
    eprintln!("layers active: {:?}", f.tool.layers());
    let n = check_all(&f);
    assert!(n >= 80, "{n}");
}

#[test]
fn honest_commands_run_under_the_fallback() {
    let f = Fixture::fallback();
    assert!(!f.bwrap_active());
    check_all(&f);
}

#[test]
fn honest_commands_run_under_each_forced_confinement() {
    for c in FORCED {
        let f = Fixture::forced(c);
        eprintln!("{c:?}: layers active: {:?}", f.tool.layers());
        assert!(check_all(&f) >= 80, "{c:?}");
    }
}

#[test]
fn findings_list_exactly_the_shown_locations() {
    let f = Fixture::new();
    let out = f.run("cd internal/brain && grep -n func *.go").unwrap();
    let got: Vec<(String, Option<u32>)> = out
        .findings
        .iter()
        .map(|x| (x.path.clone(), x.line))
        .collect();
    assert_eq!(
        got,
        vec![
            ("internal/brain/brain.go".to_string(), Some(6)),
            ("internal/brain/plan.go".to_string(), Some(9)),
            ("internal/brain/plan.go".to_string(), Some(14)),
        ]
    );
    let out = f.run("find internal -type f | sort").unwrap();
    let got: Vec<(String, Option<u32>)> = out
        .findings
        .iter()
        .map(|x| (x.path.clone(), x.line))
        .collect();
    assert_eq!(
        got,
        vec![
            ("internal/brain/brain.go".to_string(), None),
            ("internal/brain/plan.go".to_string(), None),
            ("internal/model/issue.go".to_string(), None),
        ]
    );
    // Plain file contents are not locations.
    assert!(f.run("cat docs/notes.txt").unwrap().findings.is_empty());
}

#[test]
fn output_is_capped_at_a_line_with_a_note() {
    let f = Fixture::with(explore_tools::bash::BashOptions {
        output_cap: 64,
        ..Default::default()
    });
    let out = f.run("cat internal/brain/plan.go").unwrap();
    let (head, note) = out.text.split_once("[output cut").unwrap();
    assert_eq!(
        head,
        "package brain\n\n// Plan is a unit of work.\ntype Plan struct {\n"
    );
    assert!(note.contains("more bytes"), "{note}");
    assert!(note.contains("| head -50"), "{note}");
}

#[test]
fn a_long_command_is_stopped_at_the_timeout_and_leaves_nothing_behind() {
    for confinement in [
        explore_tools::bash::Confinement::Auto,
        explore_tools::bash::Confinement::Landlock,
        explore_tools::bash::Confinement::Bubblewrap,
        explore_tools::bash::Confinement::Off,
    ] {
        let f = Fixture::with(explore_tools::bash::BashOptions {
            timeout: std::time::Duration::from_millis(400),
            confinement,
            ..Default::default()
        });
        let marker = format!("spin-{}", std::process::id());
        let out = f
            .run(&format!("awk 'BEGIN {{ while (1) x++ }} # {marker}'"))
            .unwrap();
        assert!(
            out.text
                .starts_with("[stopped: the command ran longer than 0.4 s"),
            "{}",
            out.text
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
        let alive: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(&marker))
            .collect();
        assert!(alive.is_empty(), "survivors: {alive:?}");
    }
}

#[test]
fn the_environment_is_empty_but_for_what_programs_need() {
    let f = Fixture::new();
    // bwrap adds PWD (the repository path) when it changes directory.
    let out = f.ok("awk 'BEGIN { for (k in ENVIRON) print k }' | grep -v '^PWD$' | sort");
    assert_eq!(out, "HOME\nLC_ALL\nNO_COLOR\nPATH\nTERM\n");
}
