//! `bash`: read-only shell commands, parsed and vetted here, never run by a shell.
//!
//! The model already knows `grep -rn`, `find | xargs`, `sed -n`, `git log`; spec 001 gave
//! it a shell for that reason. A prefix allowlist is not a sandbox (`find . -delete`,
//! `rg --pre sh`, a repository whose `.git/config` runs a script on `git status` all pass
//! one), so a command goes through seven layers, each of which would stop most attacks on
//! its own (`docs/security.md` has the whole story):
//!
//! 1. input gate ([`parse::gate`]): size, control/bidi/zero-width characters;
//! 2. parse ([`parse::parse`]): tree-sitter-bash, unknown node kinds refused;
//! 3. policy ([`policy::vet`]): per-program options and the meaning of each argument;
//! 4. paths ([`policy::Ctx::check_path`]): [`RepoRoot`] containment and the secrets rule;
//! 5. exec ([`exec::run`]): no shell, empty environment, stdin closed; every stage's
//!    output loses the credentials it carries ([`redact`]) before it goes anywhere;
//! 6. OS confinement: Landlock rules ([`confine`]) or bubblewrap namespaces, over rlimits
//!    and `no_new_privs`;
//! 7. limits: timeout with the process tree killed, output cap at a line boundary.
//!
//! Globs and brace lists are expanded here, inside the repository, and `$(…)` runs the
//! inner command through the same layers; the expanded argument list is vetted again before
//! anything runs, and so is every command line `xargs` builds. A refusal is a
//! [`refusal::Blocked`] naming the layer that refused.

pub mod confine;
pub mod exec;
pub mod git;
pub mod parse;
pub mod policy;
pub mod readers;
pub mod redact;
pub mod refusal;
pub mod scripts;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use self::confine::Support;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Deserialize;

use self::exec::{Input, Ran, Sandbox, Spawn};
use self::parse::{Cmd, Redirect, Script, Word};
use self::policy::{Ctx, Exec, Stage};
use self::redact::OutputFilter;
use self::refusal::Blocked;
use crate::display::{self, Hidden, Layout};
use crate::{Finding, RepoRoot, Tool, ToolError, ToolOutput, args, secrets};

/// Default time limit of one command.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default output cap in bytes.
pub const DEFAULT_OUTPUT_CAP: usize = 30 * 1024;
/// Most files one glob may expand to.
const MAX_GLOB_MATCHES: usize = 2000;
/// Most words one command may have after `$(…)` was expanded (each is checked, and the
/// kernel's argument limit would refuse far fewer bytes anyway).
const MAX_EXPANDED_WORDS: usize = 10_000;
/// Most findings reported for one output.
const MAX_FINDINGS: usize = 200;
/// Most bytes of output one command line keeps in memory, all its pipelines together (the
/// model sees [`DEFAULT_OUTPUT_CAP`] of it; the rest is only counted for the cut note).
const MAX_KEPT_BYTES: usize = exec::MAX_STAGE_BYTES;

const FIELDS: [&str; 1] = ["command"];
const EXAMPLE: &str = r#"{"command":"grep -rn 'func Plan' --include=*.go ."}"#;

/// Which OS confinement to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Confinement {
    /// The best the machine offers: Landlock when the kernel enforces all of it (it costs
    /// microseconds), else bubblewrap when it works (10–30 ms a program, but namespaces),
    /// else what Landlock the kernel has, else the fallback, with a warning.
    #[default]
    Auto,
    /// Landlock only (the fallback, with a warning, when the kernel has none).
    Landlock,
    /// bubblewrap only (the fallback, with a warning, when it does not work here).
    Bubblewrap,
    /// Neither: process group, `no_new_privs` and rlimits only (tests of the fallback,
    /// machines where the others misbehave).
    Off,
}

/// Settings of the `bash` tool.
#[derive(Debug, Clone)]
pub struct BashOptions {
    /// Time limit of one command (all its stages together).
    pub timeout: Duration,
    /// Bytes of output shown; the rest is cut at a line boundary.
    pub output_cap: usize,
    /// OS confinement.
    pub confinement: Confinement,
}

impl Default for BashOptions {
    fn default() -> Self {
        Self {
            timeout: DEFAULT_TIMEOUT,
            output_cap: DEFAULT_OUTPUT_CAP,
            confinement: Confinement::Auto,
        }
    }
}

/// One protection layer, as `explore` reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layer {
    /// Size cap and character gate.
    InputGate,
    /// tree-sitter-bash parse, fail closed.
    Parse,
    /// Per-program option policy, deny by default.
    Policy,
    /// Path containment and the secrets rule.
    Paths,
    /// No shell, empty environment, stdin closed.
    Exec,
    /// bubblewrap: namespaces, read-only view, no network, pid namespace.
    Bubblewrap,
    /// Landlock: read-only repository and system directories, no TCP, scoped signals.
    Landlock,
    /// seccomp, with Landlock: no sockets at all (UDP and unix sockets included).
    Seccomp,
    /// Fallback confinement: process group, `no_new_privs`, `RLIMIT_FSIZE=0`.
    Rlimits,
    /// Timeout and output cap.
    Limits,
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layer::InputGate => "input-gate",
            Layer::Parse => "parse",
            Layer::Policy => "policy",
            Layer::Paths => "paths",
            Layer::Exec => "exec",
            Layer::Bubblewrap => "bubblewrap",
            Layer::Landlock => "landlock",
            Layer::Seccomp => "seccomp",
            Layer::Rlimits => "rlimits",
            Layer::Limits => "limits",
        })
    }
}

/// The OS confinement chosen for a tool, and why a better one is not in use.
#[derive(Debug, Default)]
struct Chosen {
    /// bubblewrap, when it is the confinement.
    bwrap: Option<PathBuf>,
    /// The Landlock rulesets, when Landlock is the confinement.
    landlock: Option<Arc<confine::Rules>>,
    /// One line for each confinement that was wanted and is not (or not fully) active.
    notes: Vec<String>,
}

/// State computed once per tool, on first use.
#[derive(Debug, Default)]
struct Lazy {
    /// The OS confinement.
    confinement: OnceLock<Chosen>,
    /// The masked files and git's configuration files, found by one walk of the tree.
    scan: OnceLock<Scan>,
    /// `-c` overrides for the repository's filter and diff drivers.
    git_drivers: OnceLock<Vec<String>>,
    /// Absolute paths of the allowed programs.
    programs: OnceLock<HashMap<String, PathBuf>>,
    /// Why git must not run on this repository (`git::dir_hazard`), if it must not.
    git_hazard: OnceLock<Option<String>>,
}

/// The `bash` tool.
#[derive(Debug, Clone)]
pub struct BashTool {
    root: RepoRoot,
    options: BashOptions,
    lazy: Arc<Lazy>,
}

/// Arguments of `bash`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BashArgs {
    /// The command line: read-only programs joined by `|`, `;`, `&&`, `||`.
    pub command: String,
}

/// The model-facing error of a refusal: `Command blocked: <reason>`.
fn blocked(why: Blocked) -> ToolError {
    let mut s = format!("Command blocked: {}", why.reason());
    if !s.ends_with('.') {
        s.push('.');
    }
    ToolError::refused(s)
}

impl BashTool {
    /// A `bash` tool confined to `root`.
    pub fn new(root: RepoRoot, options: BashOptions) -> Self {
        Self {
            root,
            options,
            lazy: Arc::new(Lazy::default()),
        }
    }

    /// The layers active on this machine (probing Landlock and bubblewrap on first call).
    pub fn layers(&self) -> Vec<Layer> {
        let mut l = vec![
            Layer::InputGate,
            Layer::Parse,
            Layer::Policy,
            Layer::Paths,
            Layer::Exec,
        ];
        let chosen = self.chosen();
        if chosen.bwrap.is_some() {
            l.push(Layer::Bubblewrap);
        } else {
            // Landlock comes on top of the fallback's process group and rlimits.
            if let Some(rules) = &chosen.landlock {
                l.push(Layer::Landlock);
                if rules.filter.is_ok() {
                    l.push(Layer::Seccomp);
                }
            }
            l.push(Layer::Rlimits);
        }
        l.push(Layer::Limits);
        l
    }

    /// Why a wanted layer is missing or partial, one line each (empty when the best
    /// confinement for the options is fully active).
    pub fn missing_layers(&self) -> Vec<String> {
        self.chosen().notes.clone()
    }

    fn chosen(&self) -> &Chosen {
        self.lazy.confinement.get_or_init(|| {
            let chosen = self.choose();
            for note in &chosen.notes {
                tracing::warn!("bash tool: OS confinement: {note}");
            }
            chosen
        })
    }

    /// Tries the confinements the options allow, best first.
    fn choose(&self) -> Chosen {
        const FALLBACK: &str = "using the fallback (process group, no_new_privs, RLIMIT_FSIZE=0) without OS file or network confinement";
        let mut notes = Vec::new();
        let want = self.options.confinement;
        let landlock = match want {
            Confinement::Auto | Confinement::Landlock => match self.probe_landlock() {
                Ok(rules) => Some(rules),
                Err(why) => {
                    notes.push(format!("landlock: {why}"));
                    None
                }
            },
            _ => None,
        };
        let full = landlock
            .as_ref()
            .is_some_and(|r| r.support == Support::Full);
        if let Some(Err(why)) = landlock.as_ref().map(|r| &r.filter) {
            notes.push(why.clone());
        }
        if want == Confinement::Landlock || (want == Confinement::Auto && full) {
            if landlock.is_none() {
                notes.push(FALLBACK.into());
            } else if !full {
                notes.push(partial_note(true));
            }
            return Chosen {
                bwrap: None,
                landlock,
                notes,
            };
        }
        if matches!(want, Confinement::Auto | Confinement::Bubblewrap) {
            match exec::probe_bwrap(self.root.path()) {
                Ok(bwrap) => {
                    if landlock.is_some() {
                        notes.push(partial_note(false));
                    }
                    return Chosen {
                        bwrap: Some(bwrap),
                        landlock: None,
                        notes,
                    };
                }
                Err(why) => notes.push(format!("bubblewrap: {why}")),
            }
        }
        if landlock.is_some() {
            notes.push(partial_note(true));
        } else if want == Confinement::Off {
            notes.push(format!(
                "OS confinement disabled by the options; {FALLBACK}"
            ));
        } else {
            notes.push(FALLBACK.into());
        }
        Chosen {
            bwrap: None,
            landlock,
            notes,
        }
    }

    /// Builds the Landlock rulesets and runs `true` under them once (a kernel that takes
    /// the rules but cannot run a program under them must not be chosen).
    fn probe_landlock(&self) -> Result<Arc<confine::Rules>, String> {
        let mut programs: Vec<PathBuf> = self.programs().values().cloned().collect();
        // The probe below runs `true`.
        programs.extend(exec::find_program("true"));
        let rules = Arc::new(confine::build(
            self.root.path(),
            &self.masked_abs(),
            &programs,
        )?);
        let truth =
            exec::find_program("true").ok_or("`true` is missing from the system directories")?;
        let sandbox = Sandbox {
            bwrap: None,
            landlock: Some(rules.clone()),
            root: self.root.path().to_path_buf(),
            masked: self.masked_abs(),
        };
        let ran = exec::run(
            &sandbox,
            Spawn {
                program: &truth,
                args: &[],
                env: &[],
                cwd: self.root.path(),
                input: Input::Null,
                merge_stderr: false,
                deadline: Instant::now() + Duration::from_secs(5),
            },
        )
        .map_err(|e| format!("a program cannot start under the rules ({e})"))?;
        if ran.status == Some(0) {
            Ok(rules)
        } else {
            Err(format!(
                "`true` failed under the rules ({})",
                String::from_utf8_lossy(&ran.stderr).trim()
            ))
        }
    }

    /// Masked files for the OS confinement: the secrets, and git's configuration files
    /// (git itself runs with the whole repository; everything else sees them only through
    /// `git config`, which redacts credentials).
    fn masked_abs(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self
            .masked()
            .iter()
            .map(|m| self.root.path().join(m))
            .collect();
        out.extend(self.git_configs().iter().cloned());
        out
    }

    /// git's configuration files in the repository: those of `.git` and of every nested
    /// git directory the masked-file scan passes (they are not in [`BashTool::masked`]:
    /// their base name, `config`, must not become a search exclude).
    fn git_configs(&self) -> &[PathBuf] {
        &self.scan().git_configs
    }

    fn masked(&self) -> &[String] {
        &self.scan().masked
    }

    fn scan(&self) -> &Scan {
        self.lazy.scan.get_or_init(|| scan(self.root.path()))
    }

    fn programs(&self) -> &HashMap<String, PathBuf> {
        self.lazy.programs.get_or_init(|| {
            let mut names: Vec<&str> = policy::ALLOWED.to_vec();
            names.push("xargs");
            names
                .into_iter()
                .filter_map(|n| {
                    // Debian names fd's binary `fdfind`.
                    let found = exec::find_program(n)
                        .or_else(|| (n == "fd").then(|| exec::find_program("fdfind")).flatten());
                    found.map(|p| (n.to_string(), p))
                })
                .collect()
        })
    }

    fn program(&self, name: &str) -> Option<PathBuf> {
        self.programs().get(name).cloned()
    }

    fn ctx<'a>(&'a self, cwd: &'a str) -> Ctx<'a> {
        Ctx {
            root: &self.root,
            cwd,
            masked: self.masked(),
        }
    }

    /// Vets a command line without running it and returns the programs it would start,
    /// in order (builtins such as `cd` and `echo` included). A refusal is the same error
    /// [`BashTool::run`] gives.
    pub fn check(&self, command: &str) -> Result<Vec<String>, ToolError> {
        self.vet_command(command).map_err(blocked)
    }

    /// [`BashTool::check`] with the typed refusal: which layer refused, and why.
    pub fn vet_command(&self, command: &str) -> Result<Vec<String>, Blocked> {
        let script = parse::parse(command)?;
        let mut cwd = ".".to_string();
        let mut programs = Vec::new();
        self.precheck(&script, &mut cwd, &mut programs)?;
        Ok(programs)
    }

    /// Runs a command line and returns the model-facing output.
    pub fn run(&self, command: &str) -> Result<ToolOutput, ToolError> {
        let run = self.execute(command)?;
        Ok(run.finish(self.options.output_cap))
    }

    /// Vets and runs a command line; the output is still to be shaped for the model.
    fn execute(&self, command: &str) -> Result<Run<'_>, ToolError> {
        let script = parse::parse(command).map_err(blocked)?;
        // Vet everything before running anything.
        let mut cwd = ".".to_string();
        self.precheck(&script, &mut cwd, &mut Vec::new())
            .map_err(blocked)?;
        let mut run = Run {
            tool: self,
            sandbox: Sandbox {
                bwrap: self.chosen().bwrap.clone(),
                landlock: self.chosen().landlock.clone(),
                root: self.root.path().to_path_buf(),
                masked: self.masked_abs(),
            },
            deadline: Instant::now() + self.options.timeout,
            cwd: ".".to_string(),
            segments: Vec::new(),
            kept: 0,
            dropped: (0, 0),
            timed_out: false,
            last: Last::default(),
            hidden: Hidden::default(),
        };
        run.script(&script).map_err(blocked)?;
        Ok(run)
    }

    /// Static pass: every command vetted with `$(…)` standing in as `.`.
    fn precheck(
        &self,
        script: &Script,
        cwd: &mut String,
        programs: &mut Vec<String>,
    ) -> Result<(), Blocked> {
        match script {
            Script::Seq(items) => items
                .iter()
                .try_for_each(|s| self.precheck(s, cwd, programs)),
            Script::And(a, b) | Script::Or(a, b) => {
                self.precheck(a, cwd, programs)?;
                self.precheck(b, cwd, programs)
            }
            Script::Pipeline(cmds) => {
                for cmd in cmds {
                    let mut words = Vec::new();
                    for w in &cmd.words {
                        match w {
                            Word::Subst { script, .. } => {
                                let mut inner_cwd = cwd.clone();
                                self.precheck(script, &mut inner_cwd, programs)?;
                                words.push(".".to_string());
                            }
                            other => words.extend(self.expand_static(other, cwd)?),
                        }
                    }
                    let ctx = self.ctx(cwd);
                    self.check_redirects(cmd, &ctx)?;
                    let stage = self.vet(&words, &cmd.assigns, &ctx)?;
                    match &stage {
                        Stage::Exec(e) => programs.push(e.program.clone()),
                        Stage::Xargs { target, .. } => {
                            programs.push("xargs".into());
                            programs.push(target[0].clone());
                        }
                        _ => programs.push(words[0].clone()),
                    }
                    if let Stage::Cd(dir) = stage
                        && cmds.len() == 1
                    {
                        *cwd = dir;
                    }
                }
                Ok(())
            }
        }
    }

    fn vet(
        &self,
        words: &[String],
        assigns: &[(String, String)],
        ctx: &Ctx<'_>,
    ) -> Result<Stage, Blocked> {
        if words.first().map(String::as_str) == Some("git") {
            let git = self.program("git").ok_or_else(|| {
                Blocked::unavailable("git is not installed here; use grep and find")
            })?;
            if let Some(why) = self
                .lazy
                .git_hazard
                .get_or_init(|| git::dir_hazard(self.root.path()))
            {
                return Err(Blocked::unavailable(why.clone()));
            }
            let drivers =
                git::driver_overrides(ctx, &self.lazy.git_drivers, &git.to_string_lossy());
            let vetted = git::vet(&words[1..], ctx, drivers, &git.to_string_lossy())?;
            let mut all_env: Vec<(String, String)> = Vec::new();
            policy::vet(&["true".to_string()], assigns, ctx)?;
            all_env.extend(assigns.iter().cloned());
            all_env.extend(vetted.env);
            return Ok(Stage::Exec(Exec {
                program: "git".into(),
                args: vetted.args,
                env: all_env,
                filter: vetted.filter,
            }));
        }
        let stage = policy::vet(words, assigns, ctx)?;
        if let Stage::Xargs { target, env, .. } = &stage {
            // The target as typed must pass on its own; each command line with the items
            // appended is vetted again when the items are known.
            match self.vet(target, env, ctx)? {
                Stage::Exec(_) | Stage::Echo(_) => {}
                _ => return Err("`xargs` may feed programs and echo only".into()),
            }
        }
        Ok(stage)
    }

    fn check_redirects(&self, cmd: &Cmd, ctx: &Ctx<'_>) -> Result<(), Blocked> {
        for r in &cmd.redirects {
            if let Redirect::StdinFile(w) = r {
                let target = match w {
                    Word::Lit(s) => s.clone(),
                    _ => return Err(Blocked::parse("`<` needs a literal file name")),
                };
                if target != "/dev/null" {
                    ctx.check_path(&target, "<")?;
                }
            }
        }
        Ok(())
    }

    fn expand_static(&self, w: &Word, cwd: &str) -> Result<Vec<String>, Blocked> {
        match w {
            Word::Lit(s) => Ok(vec![s.clone()]),
            Word::Glob { pattern, text } => self.glob(pattern, text, cwd),
            Word::Subst { .. } => Ok(vec![".".into()]),
        }
    }

    /// Expands a glob inside the repository. Matches that start with `-` get `./` so they
    /// stay file names; masked files are left out.
    fn glob(&self, pattern: &str, text: &str, cwd: &str) -> Result<Vec<String>, Blocked> {
        let ctx = self.ctx(cwd);
        let base = ctx.cwd_abs();
        if pattern.starts_with('/') || pattern.starts_with('~') {
            return Ok(vec![text.to_string()]);
        }
        let comps: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
        let mut current: Vec<(PathBuf, String)> = vec![(base, String::new())];
        for (k, comp) in comps.iter().enumerate() {
            let last = k + 1 == comps.len();
            let is_glob = has_glob(comp);
            let mut next = Vec::new();
            for (dir, shown) in &current {
                let join = |name: &str| {
                    if shown.is_empty() {
                        name.to_string()
                    } else {
                        format!("{shown}/{name}")
                    }
                };
                if !is_glob {
                    let lit = unescape(comp);
                    let p = dir.join(&lit);
                    if last || p.is_dir() {
                        next.push((p, join(&lit)));
                    }
                    continue;
                }
                // Never list a directory outside the repository.
                let Ok(canon) = dir.canonicalize() else {
                    continue;
                };
                if self.root.rel_of(&canon).is_none() {
                    continue;
                }
                let Ok(glob) = globset::GlobBuilder::new(comp)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                else {
                    return Ok(vec![text.to_string()]);
                };
                let matcher = glob.compile_matcher();
                let Ok(rd) = std::fs::read_dir(&canon) else {
                    continue;
                };
                let mut names: Vec<String> = rd
                    .filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .filter(|n| !n.starts_with('.') || comp.starts_with('.'))
                    .filter(|n| matcher.is_match(n))
                    .collect();
                names.sort();
                for n in names {
                    let p = dir.join(&n);
                    if last || p.is_dir() {
                        next.push((p, join(&n)));
                    }
                }
                if next.len() > MAX_GLOB_MATCHES {
                    return Err(Blocked::limits(format!(
                        "the glob `{}` matches more than {MAX_GLOB_MATCHES} files; narrow it or use `grep -r --include=…`",
                        crate::display::escape_for_display(text)
                    )));
                }
            }
            current = next;
        }
        // Masked files and links that lead out are left out of the expansion, as if
        // they did not match; naming them explicitly is refused with a reason.
        let mut out: Vec<String> = current
            .into_iter()
            .filter(|(p, shown)| {
                std::fs::symlink_metadata(p).is_ok() && ctx.check_path(shown, "glob").is_ok()
            })
            .map(|(_, shown)| {
                if shown.starts_with('-') {
                    format!("./{shown}")
                } else {
                    shown
                }
            })
            .collect();
        if pattern.ends_with('/') {
            for o in &mut out {
                o.push('/');
            }
        }
        if out.is_empty() {
            out.push(text.to_string());
        }
        Ok(out)
    }
}

/// The first [`exec::MAX_STAGE_BYTES`] of a repository file given to `xargs` with `<`:
/// what a program's output would be capped to (a sparse file of many gigabytes must not
/// be read into memory whole).
fn read_capped(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(exec::MAX_STAGE_BYTES as u64).read_to_end(&mut out);
    }
    out
}

fn has_glob(s: &str) -> bool {
    let mut esc = false;
    for c in s.chars() {
        if esc {
            esc = false;
            continue;
        }
        match c {
            '\\' => esc = true,
            '*' | '?' | '[' => return true,
            _ => {}
        }
    }
    false
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut esc = false;
    for c in s.chars() {
        if !esc && c == '\\' {
            esc = true;
            continue;
        }
        esc = false;
        out.push(c);
    }
    out
}

/// What one walk of the repository finds for the sandbox (`.git` is not entered: git's
/// own files are not the model's business).
#[derive(Debug, Default)]
struct Scan {
    /// Files whose contents are masked for every command: secret names and files with
    /// more than one hard link, repo-relative and sorted.
    masked: Vec<String>,
    /// git's configuration files: those of the repository's `.git` and of every nested
    /// git directory (a vendored clone, a checked-out submodule), absolute.
    git_configs: Vec<PathBuf>,
}

/// Walks the repository once (at most 200,000 entries) for [`Scan`].
fn scan(root: &Path) -> Scan {
    let mut out = Scan::default();
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .hidden(false)
        .follow_links(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for (n, entry) in walker.enumerate() {
        if n > 200_000 {
            break;
        }
        let Ok(entry) = entry else { continue };
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        if meta.is_dir() {
            let dotgit = entry.path().join(".git");
            if dotgit.symlink_metadata().is_ok_and(|m| m.is_dir()) {
                out.git_configs.extend(secrets::git_config_files(&dotgit));
            }
        } else if meta.is_file()
            && (secrets::is_secret_path(entry.path()) || secrets::is_multiply_linked(&meta))
            && let Ok(rel) = entry.path().strip_prefix(root)
        {
            out.masked.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    out.masked.sort();
    out
}

/// How the last pipeline ended.
#[derive(Debug, Default, Clone)]
struct Last {
    status: i32,
    /// The last stage was a search (grep, rg, git grep), where exit 1 means no matches.
    search: bool,
    /// It printed nothing on stdout.
    empty: bool,
}

/// One execution of a script.
struct Run<'a> {
    tool: &'a BashTool,
    sandbox: Sandbox,
    deadline: Instant,
    cwd: String,
    /// Output pieces with the directory they were produced in (for findings).
    segments: Vec<(String, String, bool)>,
    /// Bytes of text in `segments` (at most [`MAX_KEPT_BYTES`]).
    kept: usize,
    /// Bytes and lines of output beyond [`MAX_KEPT_BYTES`], counted and dropped.
    dropped: (usize, usize),
    timed_out: bool,
    last: Last,
    /// The hidden and control characters escaped in what the model is shown (for the
    /// note [`Run::finish`] adds).
    hidden: Hidden,
}

impl Run<'_> {
    fn script(&mut self, s: &Script) -> Result<i32, Blocked> {
        if self.timed_out {
            return Ok(124);
        }
        match s {
            Script::Seq(items) => {
                let mut st = 0;
                for i in items {
                    st = self.script(i)?;
                }
                Ok(st)
            }
            Script::And(a, b) => {
                let st = self.script(a)?;
                if st == 0 { self.script(b) } else { Ok(st) }
            }
            Script::Or(a, b) => {
                let st = self.script(a)?;
                if st != 0 { self.script(b) } else { Ok(st) }
            }
            Script::Pipeline(cmds) => {
                let (stdout, stderr, st) = self.pipeline(cmds)?;
                self.keep(stdout, true);
                if !stderr.is_empty() {
                    self.keep(stderr, false);
                }
                Ok(st)
            }
        }
    }

    /// Keeps one pipeline's output for the model, up to [`MAX_KEPT_BYTES`] for the whole
    /// command line (cut at a line boundary); the rest is only counted. A command line of
    /// many big outputs (`cat big; cat big; …`) would otherwise hold 8 MB for each.
    fn keep(&mut self, mut text: String, is_out: bool) {
        let room = MAX_KEPT_BYTES.saturating_sub(self.kept);
        if text.len() > room {
            let mut end = room;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            if let Some(nl) = text[..end].rfind('\n') {
                end = nl + 1;
            }
            let rest = &text[end..];
            self.dropped.0 += rest.len();
            self.dropped.1 += rest.lines().count();
            text.truncate(end);
        }
        self.kept += text.len();
        self.segments.push((text, self.cwd.clone(), is_out));
    }

    /// Runs `$(…)` and returns its output.
    fn subst(&mut self, s: &Script) -> Result<String, Blocked> {
        let saved_segments = std::mem::take(&mut self.segments);
        let saved_kept = std::mem::take(&mut self.kept);
        let saved_dropped = std::mem::take(&mut self.dropped);
        let saved_cwd = self.cwd.clone();
        let saved_last = self.last.clone();
        // What `$(…)` printed becomes arguments, not output: its escapes are no note's.
        let saved_hidden = std::mem::take(&mut self.hidden);
        self.script(s)?;
        let out: String = self
            .segments
            .iter()
            .filter(|(_, _, is_out)| *is_out)
            .map(|(t, _, _)| t.as_str())
            .collect();
        self.segments = saved_segments;
        self.kept = saved_kept;
        self.dropped = saved_dropped;
        self.cwd = saved_cwd;
        self.last = saved_last;
        self.hidden = saved_hidden;
        Ok(out)
    }

    fn expand(&mut self, w: &Word) -> Result<Vec<String>, Blocked> {
        match w {
            Word::Subst { script, quoted } => {
                let out = self.subst(script)?;
                if *quoted {
                    Ok(vec![out.trim_end_matches('\n').to_string()])
                } else {
                    Ok(out.split_whitespace().map(str::to_string).collect())
                }
            }
            other => self.tool.expand_static(other, &self.cwd),
        }
    }

    fn pipeline(&mut self, cmds: &[Cmd]) -> Result<(String, String, i32), Blocked> {
        // Expand and vet every stage before starting the first.
        let mut stages = Vec::new();
        for cmd in cmds {
            let mut words = Vec::new();
            for w in &cmd.words {
                words.extend(self.expand(w)?);
            }
            if words.is_empty() {
                return Err(Blocked::parse("the command is empty after expansion"));
            }
            if words.len() > MAX_EXPANDED_WORDS {
                return Err(Blocked::limits(format!(
                    "`$(…)` gave {} words, more than {MAX_EXPANDED_WORDS}; narrow it, or pipe the names into `xargs`",
                    words.len()
                )));
            }
            let ctx = self.tool.ctx(&self.cwd);
            self.tool.check_redirects(cmd, &ctx)?;
            let stage = self
                .tool
                .vet(&words, &cmd.assigns, &ctx)
                .map_err(|e| e.context("after expansion"))?;
            stages.push((stage, cmd));
        }
        let single = stages.len() == 1;
        let mut input = Input::Null;
        let mut stderr_all = String::new();
        let mut stdout = Vec::new();
        let mut status = 0;
        let mut search = false;
        for (stage, cmd) in stages {
            let stdout_null = cmd
                .redirects
                .iter()
                .any(|r| matches!(r, Redirect::StdoutNull | Redirect::BothNull));
            let stderr_null = cmd
                .redirects
                .iter()
                .any(|r| matches!(r, Redirect::StderrNull | Redirect::BothNull));
            let merge = cmd.redirects.contains(&Redirect::StderrToStdout);
            for r in &cmd.redirects {
                if let Redirect::StdinFile(Word::Lit(f)) = r {
                    input = if f == "/dev/null" {
                        Input::Null
                    } else {
                        Input::File(self.tool.ctx(&self.cwd).cwd_abs().join(f))
                    };
                }
            }
            search = false;
            let ran = match stage {
                Stage::Cd(dir) => {
                    if single {
                        self.cwd = dir;
                    }
                    Ran {
                        status: Some(0),
                        ..Ran::default()
                    }
                }
                Stage::Echo(s) => Ran {
                    stdout: s.into_bytes(),
                    status: Some(0),
                    ..Ran::default()
                },
                Stage::Pwd => Ran {
                    stdout: format!("{}\n", self.cwd).into_bytes(),
                    status: Some(0),
                    ..Ran::default()
                },
                Stage::Status(n) => Ran {
                    status: Some(n),
                    ..Ran::default()
                },
                Stage::Exec(e) => {
                    search = is_search(&e);
                    self.exec(&e, std::mem::replace(&mut input, Input::Null), merge)?
                }
                Stage::Xargs {
                    null,
                    max_args,
                    target,
                    env,
                    files,
                } => {
                    search = is_search_words(&target);
                    let items = match std::mem::replace(&mut input, Input::Null) {
                        Input::Bytes(b) => b,
                        Input::File(p) => read_capped(&p),
                        Input::Null => Vec::new(),
                    };
                    let job = XargsJob {
                        null,
                        max_args,
                        target: &target,
                        env: &env,
                        files,
                    };
                    self.xargs(&items, &job, merge)?
                }
            };
            if ran.timed_out {
                self.timed_out = true;
            }
            let mut err = ran.stderr;
            if ran.truncated {
                err.extend_from_slice(b"[this stage's output passed 8 MB; the rest was dropped]\n");
            }
            if !stderr_null {
                stderr_all.push_str(&clean_text(&err, &mut self.hidden));
            }
            status = ran.status.unwrap_or(if ran.timed_out { 124 } else { 137 });
            stdout = if stdout_null { Vec::new() } else { ran.stdout };
            input = Input::Bytes(stdout.clone());
            if self.timed_out {
                break;
            }
        }
        self.last = Last {
            status,
            search,
            empty: stdout.is_empty(),
        };
        Ok((
            text_or_binary(&stdout, &mut self.hidden),
            stderr_all,
            status,
        ))
    }

    fn exec(&mut self, e: &Exec, input: Input, merge: bool) -> Result<Ran, Blocked> {
        let (name, mut args) = match e.program.as_str() {
            "egrep" => ("grep", vec!["-E".to_string()]),
            "fgrep" => ("grep", vec!["-F".to_string()]),
            other => (other, Vec::new()),
        };
        args.extend(e.args.iter().cloned());
        let program = self.tool.program(name).ok_or_else(|| {
            Blocked::unavailable(format!(
                "`{name}` is not installed on this machine; use grep, find or the read tool instead"
            ))
        })?;
        let cwd = self.tool.ctx(&self.cwd).cwd_abs();
        // git gets no `/dev/null` covers: it would report every masked file as modified.
        // Its own layer keeps them out instead (pathspec excludes, `rev:path` checks).
        let unmasked;
        let sandbox = if name == "git" && !self.sandbox.masked.is_empty() {
            unmasked = Sandbox {
                masked: Vec::new(),
                ..self.sandbox.clone()
            };
            &unmasked
        } else {
            &self.sandbox
        };
        let mut ran = exec::run(
            sandbox,
            Spawn {
                program: &program,
                args: &args,
                env: &e.env,
                cwd: &cwd,
                input,
                merge_stderr: merge,
                deadline: self.deadline,
            },
        )
        .map_err(Blocked::unavailable)?;
        // Before the bytes reach the next stage: a later `cut` could take the `://`
        // away that the URL rule looks for.
        ran.stdout = redact::apply(std::mem::take(&mut ran.stdout), e.filter);
        ran.stderr = redact::apply(std::mem::take(&mut ran.stderr), OutputFilter::Urls);
        Ok(ran)
    }

    /// Our own `xargs`: the items are appended to the target in batches, and every
    /// batch's command line is vetted as if it had been typed (options smuggled in as
    /// items, paths out of the repository, masked files are refused) before the first
    /// batch runs. For file readers, masked or outside items are skipped with a note.
    fn xargs(&mut self, items: &[u8], job: &XargsJob<'_>, merge: bool) -> Result<Ran, Blocked> {
        let text = String::from_utf8_lossy(items);
        let raw: Vec<&str> = if job.null {
            text.split('\0').filter(|s| !s.is_empty()).collect()
        } else {
            text.split_whitespace().collect()
        };
        let mut notes = String::new();
        let mut ok_items = Vec::new();
        let ctx = self.tool.ctx(&self.cwd);
        // Checking millions of items takes longer than the command may: the deadline
        // holds for this work too.
        let late = |k: usize| k.is_multiple_of(512) && Instant::now() >= self.deadline;
        let stopped = || Ran {
            timed_out: true,
            ..Ran::default()
        };
        for (k, item) in raw.into_iter().enumerate() {
            if late(k) {
                return Ok(stopped());
            }
            if !job.files {
                ok_items.push(item.to_string());
                continue;
            }
            match ctx.check_path(item, "xargs") {
                Ok(()) => ok_items.push(if item.starts_with('-') {
                    format!("./{item}")
                } else {
                    item.to_string()
                }),
                Err(why) => notes.push_str(&format!("xargs: skipped an item: {why}\n")),
            }
        }
        let batch = job.max_args.unwrap_or(2000).max(1);
        let mut stages = Vec::new();
        for chunk in ok_items.chunks(batch) {
            if Instant::now() >= self.deadline {
                return Ok(stopped());
            }
            let mut words = job.target.to_vec();
            words.extend(chunk.iter().cloned());
            let stage = self
                .tool
                .vet(&words, job.env, &ctx)
                .map_err(|e| e.context("after xargs appended its input"))?;
            stages.push(stage);
        }
        let mut total = Ran {
            status: Some(0),
            ..Ran::default()
        };
        let mut statuses = Vec::new();
        for stage in stages {
            let ran = match stage {
                Stage::Exec(e) => self.exec(&e, Input::Null, merge)?,
                Stage::Echo(s) => Ran {
                    stdout: s.into_bytes(),
                    status: Some(0),
                    ..Ran::default()
                },
                _ => return Err("`xargs` may feed programs and echo only".into()),
            };
            // The stage keeps 8 MB in all, like any other, however many batches ran.
            for (all, part) in [
                (&mut total.stdout, ran.stdout),
                (&mut total.stderr, ran.stderr),
            ] {
                let room = exec::MAX_STAGE_BYTES.saturating_sub(all.len());
                total.truncated |= part.len() > room;
                all.extend_from_slice(&part[..part.len().min(room)]);
            }
            total.timed_out |= ran.timed_out;
            total.truncated |= ran.truncated;
            statuses.push(ran.status.unwrap_or(137));
            if ran.timed_out {
                break;
            }
        }
        total.status = Some(if statuses.iter().any(|s| *s > 1) {
            123
        } else if !statuses.is_empty() && statuses.iter().all(|s| *s == 1) {
            1
        } else {
            0
        });
        let mut err = notes.into_bytes();
        err.extend(total.stderr);
        total.stderr = err;
        Ok(total)
    }

    fn finish(self, cap: usize) -> ToolOutput {
        let mut text = String::new();
        let mut findings: Vec<Finding> = Vec::new();
        for (seg, cwd, is_out) in &self.segments {
            // Only what the model will see can be evidence: skip what the cap will cut.
            let room = cap.saturating_sub(text.len()).min(seg.len());
            if *is_out && room > 0 && findings.len() < MAX_FINDINGS {
                let mut end = room;
                while !seg.is_char_boundary(end) {
                    end -= 1;
                }
                collect_findings(self.tool, &seg[..end], cwd, &mut findings);
            }
            text.push_str(seg);
        }
        let last = &self.last;
        if self.timed_out {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!(
                "[stopped: the command ran longer than {} s and was killed; narrow it (a subdirectory, a more specific pattern, -m N or | head)]\n",
                self.tool.options.timeout.as_secs_f32()
            ));
        } else if last.search && last.status == 1 {
            // grep/rg exit 1 means "no matches", not failure.
            if last.empty {
                text.push_str("(no matches)\n");
            }
        } else if last.status != 0 {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!("[exit status {}]\n", last.status));
        } else if text.is_empty() {
            text = "(no output)\n".into();
        }
        let (mut text, cut) = cap_output(&text, cap, self.dropped);
        if cut {
            findings.retain(|f| text.contains(&f.path));
        }
        // After the cut, so the model always sees it.
        if let Some(note) = self.hidden.note("in this output") {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&note);
            text.push('\n');
        }
        ToolOutput {
            text,
            findings,
            detail: None,
        }
    }
}

/// The kernel enforces only part of the Landlock rules; `used` says whether they are in
/// use all the same (no bubblewrap here) or bubblewrap replaced them.
fn partial_note(used: bool) -> String {
    format!(
        "landlock: the kernel lacks part of Landlock ABI 6 (TCP rules need ABI 4, truncate 3, device ioctl 5, signal and abstract-socket scopes 6); {}",
        if used {
            "what it has is enforced"
        } else {
            "bubblewrap is used instead"
        }
    )
}

fn is_search(e: &Exec) -> bool {
    matches!(e.program.as_str(), "grep" | "egrep" | "fgrep" | "rg" | "ag")
        || (e.program == "git" && e.args.iter().any(|a| a == "grep"))
}

/// [`is_search`] for a command line as typed (program first).
fn is_search_words(words: &[String]) -> bool {
    match words.split_first() {
        Some((program, args)) => is_search(&Exec {
            program: program.clone(),
            args: args.to_vec(),
            env: Vec::new(),
            filter: OutputFilter::Urls,
        }),
        None => false,
    }
}

/// What one `xargs` stage does with its items.
struct XargsJob<'a> {
    null: bool,
    max_args: Option<usize>,
    target: &'a [String],
    env: &'a [(String, String)],
    files: bool,
}

/// A pipeline's stdout for the model: text lines as [`clean_text`] shows them, and each run
/// of binary lines (a NUL byte, or mostly bytes that are not text) replaced by one note,
/// as `read` does for a binary file: escaped bytes cost tokens and say nothing.
fn text_or_binary(bytes: &[u8], hidden: &mut Hidden) -> String {
    if !bytes.contains(&0) && std::str::from_utf8(bytes).is_ok() {
        return clean_text(bytes, hidden);
    }
    let mut out = String::new();
    let mut binary = 0usize;
    let flush = |out: &mut String, binary: &mut usize| {
        if *binary > 0 {
            out.push_str(&format!(
                "[binary data, {} bytes, not shown: `file PATH` says what it is, `xxd PATH | head` shows its bytes]\n",
                *binary
            ));
            *binary = 0;
        }
    };
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if is_binary_line(line) {
            binary += line.len();
        } else {
            flush(&mut out, &mut binary);
            out.push_str(&clean_text(line, hidden));
        }
    }
    flush(&mut out, &mut binary);
    out
}

/// A NUL byte, or more than a tenth of the line's characters undecodable or control
/// characters other than tab and CR.
fn is_binary_line(line: &[u8]) -> bool {
    if line.contains(&0) {
        return true;
    }
    let text = String::from_utf8_lossy(line);
    let odd = text
        .chars()
        .filter(|&c| {
            c == char::REPLACEMENT_CHARACTER || (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
        })
        .count();
    odd * 10 > text.chars().count()
}

/// Lossy UTF-8 as [`display::escape`] shows file text: control, bidi and invisible
/// characters escaped, newlines and tabs kept.
fn clean_text(bytes: &[u8], hidden: &mut Hidden) -> String {
    let s = String::from_utf8_lossy(bytes);
    display::escape(&s, Layout::Text, hidden).into_owned()
}

/// Cuts `text` to at most `cap` bytes at a line boundary, with a note saying how much
/// was dropped and how to narrow; `dropped` (bytes, lines) were cut before and count too.
pub fn cap_output(text: &str, cap: usize, dropped: (usize, usize)) -> (String, bool) {
    if text.len() <= cap && dropped.0 == 0 {
        return (text.to_string(), false);
    }
    let mut end = cap;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let cut = match text[..end].rfind('\n') {
        Some(i) if i > 0 => i + 1,
        _ => end,
    };
    let rest = &text[cut..];
    let lines = rest.lines().count() + dropped.1;
    let mut out = text[..cut].to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "[output cut at {} KB: {} more bytes ({lines} lines) not shown; narrow the command: a more specific pattern or path, `grep -l` to list files, `-m N`, or `| head -50`]\n",
        cap / 1024,
        rest.len() + dropped.0
    ));
    (out, true)
}

/// Findings for `path:line:` lines and for lines that are just a path.
fn collect_findings(tool: &BashTool, text: &str, cwd: &str, out: &mut Vec<Finding>) {
    let ctx = tool.ctx(cwd);
    let masked = tool.masked();
    let mut seen: std::collections::HashSet<(String, Option<u32>)> =
        out.iter().map(|f| (f.path.clone(), f.line)).collect();
    for line in text.lines().take(2000) {
        if out.len() >= MAX_FINDINGS {
            break;
        }
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let (cand, lno) = match split_path_line(line) {
            Some((p, n)) => (p, Some(n)),
            None => (line.trim_start_matches("./"), None),
        };
        if cand.is_empty() || cand.starts_with('/') || cand.contains('\0') {
            continue;
        }
        let Ok(resolved) = tool.root.resolve(&ctx.join(cand)) else {
            continue;
        };
        if !resolved.abs.is_file()
            || secrets::is_secret_path(&resolved.abs)
            || secrets::is_git_config(&resolved.rel)
            || masked.contains(&resolved.rel)
        {
            continue;
        }
        if seen.insert((resolved.rel.clone(), lno)) {
            out.push(match lno {
                Some(n) => Finding::range(resolved.rel, n, n),
                None => Finding::file(resolved.rel),
            });
        }
    }
}

/// `path:12:` or `path:12-` (grep/rg with -n); `path` must not be empty.
fn split_path_line(line: &str) -> Option<(&str, u32)> {
    let mut search_from = 0;
    while let Some(rel) = line[search_from..].find(':') {
        let i = search_from + rel;
        let rest = &line[i + 1..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() && rest[digits.len()..].starts_with(':') {
            let n: u32 = digits.parse().ok()?;
            if n > 0 && i > 0 {
                return Some((&line[..i], n));
            }
        }
        search_from = i + 1;
    }
    None
}

impl Tool for BashTool {
    fn name(&self) -> crate::ToolName {
        crate::ToolName::Bash
    }

    fn description(&self) -> &'static str {
        include_str!("../../../../prompts/tools/bash.md")
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(BashArgs)).unwrap_or_default()
    }

    fn call(&self, raw: &serde_json::Value) -> Result<ToolOutput, ToolError> {
        let a: BashArgs = args::parse("bash", raw, &FIELDS, EXAMPLE)?;
        self.run(&a.command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_cuts_at_a_line() {
        let text = "aaaa\nbbbb\ncccc\n";
        let (out, cut) = cap_output(text, 12, (0, 0));
        assert!(cut);
        assert!(
            out.starts_with("aaaa\nbbbb\n[output cut at 0 KB: 5 more bytes (1 lines)"),
            "{out}"
        );
    }

    #[test]
    fn binary_runs_become_one_note_and_text_stays() {
        let mut out = b"==> blob.bin <==\n".to_vec();
        out.extend_from_slice(b"a\x00\x01\x02\xffbinary\n\x00\x00\n");
        out.extend_from_slice(b"==> t.txt <==\nhello\n");
        assert_eq!(
            text_or_binary(&out, &mut Hidden::default()),
            "==> blob.bin <==\n[binary data, 15 bytes, not shown: `file PATH` says what it is, `xxd PATH | head` shows its bytes]\n==> t.txt <==\nhello\n"
        );
        // Text with one odd character (Latin-1 in a comment) is text, escaped as before.
        assert_eq!(
            text_or_binary(b"caf\xe9 au lait here\n", &mut Hidden::default()),
            "caf\u{fffd} au lait here\n"
        );
        assert_eq!(
            text_or_binary("ok\tfine\n".as_bytes(), &mut Hidden::default()),
            "ok\tfine\n"
        );
    }

    /// A command line of many big outputs (`cat big; cat big; …`, or `xargs -n1 cat`
    /// over many names) is cut to what the model can see: the tool keeps at most
    /// [`MAX_KEPT_BYTES`] of it in memory, not every stage's 8 MB, and the note still
    /// counts every byte and line dropped.
    #[test]
    fn many_big_outputs_are_not_all_kept_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let line = format!("{}\n", "a".repeat(1023));
        std::fs::write(dir.path().join("big.txt"), line.repeat(3 * 1024)).unwrap();
        let tool = BashTool::new(
            RepoRoot::new(dir.path()).unwrap(),
            BashOptions {
                confinement: Confinement::Off,
                ..BashOptions::default()
            },
        );
        let total = 4 * 3 * 1024 * 1024;
        for cmd in [
            "cat big.txt; cat big.txt; cat big.txt; cat big.txt",
            "echo big.txt big.txt big.txt big.txt | xargs -n1 cat",
        ] {
            let run = tool.execute(cmd).unwrap();
            let kept: usize = run.segments.iter().map(|(t, _, _)| t.len()).sum();
            assert!(kept <= MAX_KEPT_BYTES, "`{cmd}` kept {kept} bytes");
            let text = run.finish(DEFAULT_OUTPUT_CAP).text;
            let shown = text.find("[output cut").unwrap();
            let note = &text[shown..];
            // The xargs stage keeps 8 MB like any stage and says so; the sequence drops
            // nothing silently.
            let (bytes, lines) = if cmd.contains("xargs") {
                let said = "[this stage's output passed 8 MB; the rest was dropped]\n";
                let rest = exec::MAX_STAGE_BYTES - shown;
                (rest + said.len(), rest / 1024 + 1)
            } else {
                (total - shown, (total - shown) / 1024)
            };
            assert!(
                note.contains(&format!(" {bytes} more bytes ({lines} lines)")),
                "`{cmd}`: {note}"
            );
        }
    }

    #[test]
    fn path_line_split() {
        assert_eq!(split_path_line("a/b.go:12:func X"), Some(("a/b.go", 12)));
        assert_eq!(split_path_line("a:b.go:3:x"), Some(("a:b.go", 3)));
        assert_eq!(split_path_line("no line here"), None);
        assert_eq!(split_path_line(":3:x"), None);
    }
}
