//! A hostile fixture: a git repository whose `.git/config` runs a marker-writing script
//! from every hook it can, symlinks and a hard link leading out, secrets, a sentinel
//! file outside that must never be read and a directory that must never be written.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;

use explore_tools::bash::{BashOptions, BashTool, Confinement, Layer};

/// Every confinement a suite must pass under, forced one at a time.
pub const FORCED: [Confinement; 3] = [
    Confinement::Landlock,
    Confinement::Bubblewrap,
    Confinement::Off,
];
use explore_tools::{RepoRoot, Tool, ToolError, ToolOutput};

pub const SENTINEL: &str = "SENTINEL-OUTSIDE-4242";
pub const SECRET: &str = "sk-SECRET-ENV-9999";
pub const KEY_SECRET: &str = "PRIVATE-KEY-SECRET-77";
/// A credential in the repository's `.git/config` (remote URL, extraheader, password...).
pub const TOKEN: &str = "ghp-TOKEN-in-config-31337";

pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub root: RepoRoot,
    pub tool: BashTool,
}

pub const PLAN_GO: &str = "package brain\n\n// Plan is a unit of work.\ntype Plan struct {\n\tName string\n}\n\n// NewPlan builds a Plan.\nfunc NewPlan(name string) *Plan {\n\treturn &Plan{Name: name}\n}\n\n// TODO: validate names\nfunc (p *Plan) Run() error {\n\treturn nil\n}\n";
pub const BRAIN_GO: &str = "package brain\n\nimport \"fmt\"\n\n// Think prints a plan.\nfunc Think(p *Plan) {\n\tfmt.Println(p.Name)\n}\n";
pub const ISSUE_GO: &str = "package model\n\n// IssueStore stores issues.\ntype IssueStore interface {\n\tGet(id string) (*Issue, error)\n}\n\n// Issue is one issue.\ntype Issue struct {\n\tID string\n}\n";
pub const MAIN_GO: &str = "package main\n\nimport \"example.com/relay/internal/brain\"\n\nfunc main() {\n\tp := brain.NewPlan(\"x\")\n\tbrain.Think(p)\n}\n";
pub const CONFIG_JSON: &str = "{\n  \"name\": \"relay\",\n  \"version\": \"1.2.0\",\n  \"env\": \"prod\",\n  \"deps\": {\"brain\": \"1.0\", \"store\": \"2.1\"},\n  \"ports\": [8080, 9090]\n}\n";
pub const README: &str = "# relay\n\nA small service.\nTODO: write docs\n";

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn git(root: &Path, args: &[&str]) {
    let st = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@e",
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&st.stderr)
    );
}

impl Fixture {
    pub fn new() -> Self {
        Self::with(BashOptions::default())
    }

    pub fn fallback() -> Self {
        Self::with(BashOptions {
            confinement: Confinement::Off,
            ..BashOptions::default()
        })
    }

    /// A fixture whose tool is forced to one confinement. When the machine lacks it, the
    /// tool falls back and this says so on stderr (the suites still run and must pass).
    pub fn forced(confinement: Confinement) -> Self {
        let f = Self::with(BashOptions {
            confinement,
            ..BashOptions::default()
        });
        let layers = f.tool.layers();
        let active = match confinement {
            Confinement::Landlock => layers.contains(&Layer::Landlock),
            Confinement::Bubblewrap => layers.contains(&Layer::Bubblewrap),
            Confinement::Auto | Confinement::Off => true,
        };
        if !active {
            eprintln!(
                "NOTE: {confinement:?} is not available here; this run used {layers:?} ({:?})",
                f.tool.missing_layers()
            );
        }
        f
    }

    pub fn with(options: BashOptions) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        let repo = base.join("repo");
        fs::create_dir_all(&repo).unwrap();
        fs::create_dir_all(base.join("outside")).unwrap();
        fs::create_dir_all(base.join("victim")).unwrap();
        fs::create_dir_all(base.join("markers")).unwrap();
        fs::write(base.join("outside/sentinel.txt"), format!("{SENTINEL}\n")).unwrap();
        fs::write(
            base.join("outside/included.gitconfig"),
            format!("[included]\n\tsecret = {SENTINEL}\n"),
        )
        .unwrap();
        fs::write(
            base.join("outside/other.txt"),
            format!("{SENTINEL} other\n"),
        )
        .unwrap();
        write(&repo, "README.md", README);
        write(&repo, "go.mod", "module example.com/relay\n\ngo 1.22\n");
        write(&repo, "internal/brain/plan.go", PLAN_GO);
        write(&repo, "internal/brain/brain.go", BRAIN_GO);
        write(&repo, "internal/model/issue.go", ISSUE_GO);
        write(&repo, "cmd/relay/main.go", MAIN_GO);
        write(&repo, "docs/notes.txt", "alpha\nbeta\ngamma\nbeta\n");
        write(&repo, "docs/numbers.txt", "3\n1\n2\n10\n");
        write(&repo, ".gitattributes", "*.go diff=evil filter=evil\n");
        write(&repo, "docs/config.json", CONFIG_JSON);
        write(&repo, "docs/name.jq", ".name\n");
        write(
            &repo,
            "docs/SHA256SUMS",
            "e60c12acdae151bf0ebbeebb5588c94a9ba61ca2583328d2e36fda9cef2f82e3  go.mod\n",
        );
        // A checksum list that names files outside and a secret: `sha256sum -c` on it
        // would read them.
        write(
            &repo,
            "docs/evil.sha256",
            "0000  go.mod\n0000  ../outside/sentinel.txt\n0000 */etc/passwd\nSHA256 (.env) = 0000\n",
        );
        write(&repo, ".env", &format!("API_KEY={SECRET}\n"));
        write(
            &repo,
            "config/.env.production",
            &format!("DB_PASSWORD={SECRET}\n"),
        );
        write(&repo, ".env.example", "API_KEY=placeholder\n");
        write(&repo, "certs/server.key", &format!("{KEY_SECRET}\n"));
        write(&repo, "--pre=sh", "option-named file\n");
        git(&repo, &["init", "-q"]);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", "initial import"]);
        // One stash, so `git stash list/show` and `git reflog` have something to read.
        write(&repo, "README.md", &format!("{README}stashed line\n"));
        git(&repo, &["stash", "push", "-q", "-m", "wip readme"]);
        write(
            &repo,
            "internal/brain/plan.go",
            &format!("{PLAN_GO}// changed\n"),
        );
        // Links that lead out, added after the commit.
        symlink(base.join("outside"), repo.join("link_out")).unwrap();
        symlink("/etc/passwd", repo.join("passwd")).unwrap();
        symlink("../outside/sentinel.txt", repo.join("sentinel_link")).unwrap();
        symlink(".env", repo.join("env_alias.txt")).unwrap();
        fs::hard_link(base.join("outside/sentinel.txt"), repo.join("hard.txt")).unwrap();
        // The hostile configuration: every hook writes a marker and passes stdin through.
        let hook = base.join("hook.sh");
        fs::write(
            &hook,
            format!("#!/bin/sh\ntouch {}/markers/ran-$$\ncat\n", base.display()),
        )
        .unwrap();
        fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
        let hooks_dir = repo.join(".git/hooks");
        fs::create_dir_all(&hooks_dir).unwrap();
        for h in [
            "post-index-change",
            "pre-commit",
            "post-checkout",
            "reference-transaction",
        ] {
            fs::copy(&hook, hooks_dir.join(h)).unwrap();
            fs::set_permissions(hooks_dir.join(h), fs::Permissions::from_mode(0o755)).unwrap();
        }
        let h = hook.display();
        let mut cfg = fs::read_to_string(repo.join(".git/config")).unwrap();
        cfg.push_str(&format!(
            "[core]\n\tfsmonitor = {h}\n\tpager = {h}\n\thooksPath = {hd}\n\tworktree = {out}\n\tsshCommand = {h}\n[alias]\n\tst = !{h}\n\tlg = !{h}\n[diff]\n\texternal = {h}\n[diff \"evil\"]\n\ttextconv = {h}\n\tcommand = {h}\n[filter \"evil\"]\n\tclean = {h}\n\tsmudge = {h}\n\tprocess = {h}\n[pager]\n\tlog = {h}\n\tstatus = {h}\n\tdiff = {h}\n[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {h}\n[remote \"origin\"]\n\turl = https://relay-bot:{TOKEN}@example.com/relay.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[http \"https://example.com/\"]\n\textraheader = AUTHORIZATION: basic {TOKEN}\n[credential]\n\thelper = store --token {TOKEN}\n[sendemail]\n\tsmtppass = {TOKEN}\n[user]\n\tpassword = {TOKEN}\n",
            hd = hooks_dir.display(),
            out = base.join("outside").display(),
        ));
        fs::write(repo.join(".git/config"), cfg).unwrap();
        // git's other configuration files hold credentials as well: a submodule's (CI
        // checkouts write the extraheader into each one) and a worktree's own settings.
        write(
            &repo,
            ".git/modules/vendor/lib/config",
            &format!(
                "[http \"https://example.com/\"]\n\textraheader = AUTHORIZATION: basic {TOKEN}\n"
            ),
        );
        write(
            &repo,
            ".git/config.worktree",
            &format!("[http]\n\textraheader = AUTHORIZATION: bearer {TOKEN}\n"),
        );
        let root = RepoRoot::new(&repo).unwrap();
        let tool = BashTool::new(root.clone(), options);
        Fixture { dir, root, tool }
    }

    pub fn base(&self) -> &Path {
        self.dir.path()
    }

    pub fn markers(&self) -> Vec<PathBuf> {
        fs::read_dir(self.base().join("markers"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect()
    }

    pub fn victim_entries(&self) -> usize {
        fs::read_dir(self.base().join("victim")).unwrap().count()
    }

    pub fn run(&self, cmd: &str) -> Result<ToolOutput, ToolError> {
        self.tool.call(&serde_json::json!({ "command": cmd }))
    }

    /// The text of a command that must run.
    pub fn ok(&self, cmd: &str) -> String {
        match self.run(cmd) {
            Ok(out) => out.text,
            Err(e) => panic!("`{cmd}` was refused: {e}"),
        }
    }

    pub fn bwrap_active(&self) -> bool {
        self.tool.layers().contains(&Layer::Bubblewrap)
    }
}
