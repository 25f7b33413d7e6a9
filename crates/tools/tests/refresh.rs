//! The incremental refresh: after any sequence of edits, the refreshed index (and the store
//! file written with it) must answer exactly as a cold index of the same tree, and a
//! refresh stopped at any point must leave an index the next refresh can use.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use explore_tools::code::crash::{self, Step};
use explore_tools::code::{
    CodeArgs, CodeGraph, CodeTool, EdgeKind, GraphStore, IndexOptions, IndexStats, run,
};
use explore_tools::{RepoRoot, Tool};
use pretty_assertions::assert_eq;
use proptest::prelude::*;

mod common;
use common::Repo;

impl Repo {
    fn cache_file(&self) -> PathBuf {
        self.tool().cache_path().unwrap()
    }

    /// A refresh from the cache, as the next process would run it.
    fn refresh(&self) -> (IndexStats, std::sync::Arc<CodeGraph>) {
        let tool = self.tool();
        let stats = tool.index().unwrap();
        (stats, tool.graph().unwrap())
    }

    /// A cold index of the same tree, no cache read or written.
    fn cold(&self) -> std::sync::Arc<CodeGraph> {
        self.cold_with_stats().1
    }

    fn cold_with_stats(&self) -> (IndexStats, std::sync::Arc<CodeGraph>) {
        let tool = CodeTool::new(
            RepoRoot::new(self.root.clone()).unwrap(),
            IndexOptions {
                no_cache: true,
                ..Default::default()
            },
        );
        let stats = tool.index().unwrap();
        (stats, tool.graph().unwrap())
    }

    fn call(&self, query: serde_json::Value) -> String {
        self.tool().call(&query).unwrap().text
    }

    /// Source files of one language, sorted.
    fn sources(&self, ext: &str) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![self.root.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == ext) {
                    out.push(p);
                }
            }
        }
        out.sort();
        out
    }
}

/// Every lookup the queries use, for every symbol: equal lookups give equal answers.
fn assert_same(cold: &CodeGraph, got: &dyn GraphStore, what: &str) {
    let n = cold.symbols().len() as u32;
    for id in 0..n + 1 {
        assert_eq!(cold.symbol(id), got.symbol(id), "{what}: symbol {id}");
        for kind in EdgeKind::ALL {
            assert_eq!(
                cold.edges_out(id, kind, usize::MAX),
                got.edges_out(id, kind, usize::MAX),
                "{what}: edges out of {id} ({:?}) {kind:?}",
                cold.symbol(id).map(|s| s.qname)
            );
            assert_eq!(
                cold.edges_in(id, kind, usize::MAX),
                got.edges_in(id, kind, usize::MAX),
                "{what}: edges into {id} ({:?}) {kind:?}",
                cold.symbol(id).map(|s| s.qname)
            );
        }
    }
    for id in 0..cold.files().len() as u32 + 1 {
        assert_eq!(cold.file(id), got.file(id), "{what}: file {id}");
    }
    for s in cold.symbols() {
        let exact = explore_tools::code::NameMatch::Exact(s.name.clone());
        assert_eq!(cold.find_names(&exact), got.find_names(&exact), "{what}");
        assert_eq!(cold.by_qname(&s.qname), got.by_qname(&s.qname), "{what}");
        assert_eq!(cold.in_file(&s.path), got.in_file(&s.path), "{what}");
    }
}

// ---- Edits ---------------------------------------------------------------------------

/// One edit of the property test. `a` picks the file, `b` what in it.
#[derive(Debug, Clone, Copy)]
enum Edit {
    /// A comment line inside a function body: every later line moves.
    ShiftLines,
    /// A call added to a function body.
    AddCall,
    /// A new function (calling one of the file's) at the end of the file.
    AddFunction,
    /// A new method on one of the file's types (Go) or a new subclass (Python).
    AddMethod,
    /// A top-level function removed.
    DeleteFunction,
    /// A definition renamed.
    Rename,
    /// The file moved to another directory.
    MoveFile,
    /// The file deleted.
    DeleteFile,
    /// A Go method moved to another receiver type, or a Python class given another base.
    ChangeBase,
    /// A syntax error appended, or the one there removed.
    ToggleSyntax,
    /// The mtime changed, not the content.
    Touch,
    /// A new file beside it: a function calling one of its functions, and a method on one
    /// of its types (Go) or a subclass of one of its classes (Python).
    AddFile,
    /// A copy of it beside it (the same declarations twice).
    CopyFile,
    /// Go: a new file declaring an interface with one of its methods (so its types
    /// implement it). Python: a new module importing and calling it.
    AddInterface,
}

const EDITS: [Edit; 14] = [
    Edit::ShiftLines,
    Edit::AddCall,
    Edit::AddFunction,
    Edit::AddMethod,
    Edit::DeleteFunction,
    Edit::Rename,
    Edit::MoveFile,
    Edit::DeleteFile,
    Edit::ChangeBase,
    Edit::ToggleSyntax,
    Edit::Touch,
    Edit::AddFile,
    Edit::CopyFile,
    Edit::AddInterface,
];

const BROKEN: &str = "\n)(( broken by the refresh test\n";

/// Names declared at the start of lines beginning with `prefix` (`func `, `def `, `type `,
/// `class `): the identifier right after it.
fn declared(text: &str, prefix: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// Applies `edit` to the `a`-th source file (Go and Python files together), choosing with
/// `b`. Edits that find nothing to change leave the tree as it is.
fn apply(repo: &Repo, edit: Edit, a: usize, b: usize) {
    let mut files = repo.sources("go");
    files.extend(repo.sources("py"));
    if files.is_empty() {
        return;
    }
    let path = files[a % files.len()].clone();
    let go = path.extension().is_some_and(|x| x == "go");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let funcs = declared(&text, if go { "func " } else { "def " });
    let types = declared(&text, if go { "type " } else { "class " });
    let pick = |v: &[String]| (!v.is_empty()).then(|| v[b % v.len()].clone());
    // Lines that open a function body, and the indentation of the body.
    let bodies: Vec<(usize, String)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            if go {
                l.starts_with("func ") && l.ends_with('{')
            } else {
                l.trim_start().starts_with("def ") && l.ends_with(':')
            }
        })
        .map(|(i, l)| {
            let indent = l.len() - l.trim_start().len();
            let body = if go {
                "\t".to_string()
            } else {
                " ".repeat(indent + 4)
            };
            (i, body)
        })
        .collect();
    let insert_in_body = |line: String| -> Option<String> {
        let (i, indent) = bodies.get(b % bodies.len().max(1))?.clone();
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        out.insert(i + 1, format!("{indent}{line}"));
        Some(out.join("\n") + "\n")
    };
    let new_text: Option<String> = match edit {
        Edit::ShiftLines => insert_in_body(if go {
            "// moved down".into()
        } else {
            "# moved down".into()
        }),
        Edit::AddCall => pick(&funcs).and_then(|f| insert_in_body(format!("{f}()"))),
        Edit::AddFunction => {
            let callee = pick(&funcs).unwrap_or_else(|| "missing".into());
            Some(if go {
                format!("{text}\nfunc Added{b}() {{\n\t{callee}()\n}}\n")
            } else {
                format!("{text}\n\ndef added_{b}():\n    return {callee}()\n")
            })
        }
        Edit::AddMethod => pick(&types).map(|t| {
            if go {
                format!("{text}\nfunc (x *{t}) Added{b}() {{\n\tx.String()\n}}\n")
            } else {
                format!(
                    "{text}\n\nclass Added{b}({t}):\n    def run(self):\n        return self.close()\n"
                )
            }
        }),
        Edit::DeleteFunction => {
            let starts: Vec<usize> = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.starts_with(if go { "func " } else { "def " }))
                .map(|(i, _)| i)
                .collect();
            starts.get(b % starts.len().max(1)).map(|&s| {
                let end = (s + 1..lines.len())
                    .find(|&i| {
                        if go {
                            lines[i] == "}"
                        } else {
                            !lines[i].is_empty() && !lines[i].starts_with([' ', '\t'])
                        }
                    })
                    .map_or(lines.len(), |i| if go { i + 1 } else { i });
                let mut out: Vec<&str> = lines[..s].to_vec();
                out.extend(&lines[end..]);
                out.join("\n") + "\n"
            })
        }
        Edit::Rename => {
            let mut names = funcs.clone();
            names.extend(types.iter().cloned());
            pick(&names).map(|n| {
                let kw = if funcs.contains(&n) {
                    if go { "func " } else { "def " }
                } else if go {
                    "type "
                } else {
                    "class "
                };
                text.replacen(&format!("{kw}{n}"), &format!("{kw}{n}Renamed"), 1)
            })
        }
        Edit::MoveFile => {
            let dir = path.parent().unwrap();
            let target = if b.is_multiple_of(2) {
                dir.join("moved").join(path.file_name().unwrap())
            } else {
                dir.join(format!("m{b}_{}", path.file_name().unwrap().to_string_lossy()))
            };
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::rename(&path, &target).unwrap();
            None
        }
        Edit::DeleteFile => {
            std::fs::remove_file(&path).unwrap();
            None
        }
        Edit::ChangeBase => {
            if go {
                // `func (r *A) M(` → `func (r *B) M(`.
                let other = pick(&types);
                lines
                    .iter()
                    .position(|l| l.starts_with("func (") && l.contains(") "))
                    .zip(other)
                    .map(|(i, t)| {
                        let l = lines[i];
                        let close = l.find(')').unwrap();
                        let recv = &l["func (".len()..close];
                        let var = recv.split_whitespace().next().unwrap_or("r");
                        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                        out[i] = format!("func ({var} *{t}{}", &l[close..]);
                        out.join("\n") + "\n"
                    })
            } else {
                let classes: Vec<usize> = lines
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.starts_with("class ") && l.ends_with(':'))
                    .map(|(i, _)| i)
                    .collect();
                classes.get(b % classes.len().max(1)).map(|&i| {
                    let l = lines[i];
                    let name = declared(l, "class ").remove(0);
                    let base = match pick(&types) {
                        Some(t) if t != name && !b.is_multiple_of(3) => format!("({t})"),
                        _ => String::new(),
                    };
                    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    out[i] = format!("class {name}{base}:");
                    out.join("\n") + "\n"
                })
            }
        }
        Edit::ToggleSyntax => Some(match text.strip_suffix(BROKEN) {
            Some(fixed) => fixed.to_string(),
            None => format!("{text}{BROKEN}"),
        }),
        Edit::AddFile | Edit::AddInterface => {
            let dir = path.parent().unwrap();
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let callee = pick(&funcs).unwrap_or_else(|| "missing".into());
            let (name, body) = if go {
                let package = text
                    .lines()
                    .find_map(|l| l.strip_prefix("package "))
                    .unwrap_or("main")
                    .trim()
                    .to_string();
                let mut body = format!("package {package}\n");
                if matches!(edit, Edit::AddFile) {
                    body += &format!("\nfunc AddedFile{b}() {{\n\t{callee}()\n}}\n");
                    if let Some(t) = pick(&types) {
                        body += &format!("\nfunc (x *{t}) FileMethod{b}() {{\n\tx.String()\n}}\n");
                    }
                } else {
                    // The methods of one of its types: an interface they implement.
                    let methods: Vec<String> = lines
                        .iter()
                        .filter_map(|l| l.strip_prefix("func ("))
                        .filter_map(|rest| rest.split_once(") "))
                        .map(|(_, rest)| {
                            rest.chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect::<String>()
                        })
                        .filter(|n| !n.is_empty())
                        .collect();
                    let m = pick(&methods).unwrap_or_else(|| "Close".into());
                    body += &format!("\ntype AddedIface{b} interface {{\n\t{m}()\n}}\n");
                }
                (format!("added_{b}.go"), body)
            } else {
                let mut body = String::new();
                let package = dir.join("__init__.py").exists();
                let mut names = vec![callee.clone()];
                let base = pick(&types);
                names.extend(base.clone());
                if package {
                    body += &format!("from .{stem} import {}\n", names.join(", "));
                }
                body += &format!("\n\ndef added_file_{b}():\n    return {callee}()\n");
                if let (Some(t), Edit::AddFile) = (base, edit) {
                    body += &format!(
                        "\n\nclass AddedFile{b}({t}):\n    def run(self):\n        return self.close()\n"
                    );
                }
                (format!("added_{b}.py"), body)
            };
            std::fs::write(dir.join(name), body).unwrap();
            None
        }
        Edit::CopyFile => {
            let target = path
                .parent()
                .unwrap()
                .join(format!("copy{b}_{}", path.file_name().unwrap().to_string_lossy()));
            std::fs::write(target, &text).unwrap();
            None
        }
        Edit::Touch => {
            let f = std::fs::File::options().write(true).open(&path).unwrap();
            f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(7))
                .unwrap();
            None
        }
    };
    if let Some(t) = new_text
        && t != text
    {
        std::fs::write(&path, t).unwrap();
    }
}

/// What a refresh counted (it may skip the walk, or patch the store): what a walk counts.
fn counts(s: &IndexStats) -> impl PartialEq + std::fmt::Debug {
    (
        s.files,
        s.lines,
        s.symbols,
        s.edges.clone(),
        s.skipped.clone(),
        s.with_syntax_errors,
    )
}

/// Indexes `fixture`, then after each edit refreshes from the cache and compares the
/// refreshed graph and the warm store with a cold index of the same tree. An edit marked
/// `in_place` is answered as the next query would: from the store patched by a delta when
/// the edit declared nothing new (`patch`), else by the full refresh.
fn check_sequence(fixture: &str, edits: &[(usize, usize, usize, bool)]) {
    let repo = Repo::new(fixture);
    repo.refresh();
    for (step, &(e, a, b, in_place)) in edits.iter().enumerate() {
        let edit = EDITS[e % EDITS.len()];
        apply(&repo, edit, a, b);
        let what = format!("{fixture} after {:?}", &edits[..=step]);
        if in_place {
            let tool = repo.tool();
            let got = tool.warm_store();
            if std::env::var("COUNT_PATCHED").is_ok() {
                eprintln!(
                    "PATCH {:?} {}",
                    edit,
                    if tool.patched().is_some() {
                        "patched"
                    } else if got.is_some() {
                        "fresh"
                    } else {
                        "full"
                    }
                );
            }
            if let Some(store) = got {
                let (cold_stats, cold) = repo.cold_with_stats();
                assert_same(&cold, &*store, &format!("{what}, patched store"));
                assert_eq!(store.failure(), None, "{what}");
                if let Some(stats) = tool.patched() {
                    assert_eq!(counts(&cold_stats), counts(&stats), "{what}, patched");
                }
                // The next process reads the delta from disk and answers the same.
                let again = repo.tool().warm_store().expect("fresh after the patch");
                assert!(repo.tool().patched().is_none());
                assert_same(&cold, &*again, &format!("{what}, patched store reopened"));
                continue;
            }
        }
        let (stats, refreshed) = repo.refresh();
        let (cold_stats, cold) = repo.cold_with_stats();
        assert_eq!(counts(&cold_stats), counts(&stats), "{what}");
        assert_same(&cold, &*refreshed, &what);
        let store = repo
            .tool()
            .warm_store()
            .expect("a fresh store after the refresh");
        assert_same(&cold, &*store, &format!("{what}, warm store"));
        assert_eq!(store.failure(), None);
    }
}

proptest! {
    // Each case indexes a fixture once, then refreshes and cold-indexes it after every
    // edit (about 50 ms per edit in a debug build): 16 cases of up to 5 edits per fixture
    // keep this to a few seconds in CI. PROPTEST_CASES=300 runs a few hundred sequences
    // (done before each change to the refresh; see docs/cache.md).
    #![proptest_config(ProptestConfig {
        cases: 16,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_refreshed_go_index_answers_like_a_cold_one(
        edits in prop::collection::vec(
            (0usize..EDITS.len(), 0usize..1000, 0usize..1000, any::<bool>()),
            1..5,
        )
    ) {
        check_sequence("relay", &edits);
    }

    #[test]
    fn a_refreshed_python_index_answers_like_a_cold_one(
        edits in prop::collection::vec(
            (0usize..EDITS.len(), 0usize..1000, 0usize..1000, any::<bool>()),
            1..5,
        )
    ) {
        check_sequence("ledger", &edits);
    }

    // Every kind of change answered in place (adds, deletes, moves and declarations
    // included): the delta accumulates them, and each answer is a cold index's.
    #[test]
    fn a_store_patched_for_any_change_answers_like_a_cold_index(
        fixture in prop::sample::select(vec!["relay", "ledger"]),
        edits in prop::collection::vec(
            (0usize..EDITS.len(), 0usize..1000, 0usize..1000),
            1..6,
        )
    ) {
        let edits: Vec<_> = edits.into_iter().map(|(e, a, b)| (e, a, b, true)).collect();
        check_sequence(fixture, &edits);
    }

    // Body edits only, all answered in place: the delta grows over several edits of
    // several files, and each answer is a cold index's.
    #[test]
    fn a_patched_store_answers_like_a_cold_index(
        fixture in prop::sample::select(vec!["relay", "ledger"]),
        edits in prop::collection::vec(
            (prop::sample::select(vec![0usize, 1, 9, 10]), 0usize..1000, 0usize..1000),
            1..6,
        )
    ) {
        let edits: Vec<_> = edits.into_iter().map(|(e, a, b)| (e, a, b, true)).collect();
        check_sequence(fixture, &edits);
    }
}

// ---- What the refresh redoes ---------------------------------------------------------

#[test]
fn an_edited_body_relinks_only_its_file() {
    let repo = Repo::new("relay");
    let (first, _) = repo.refresh();
    assert_eq!(first.relinked, first.files);
    let planner = repo.root.join("internal/brain/planner.go");
    let text = std::fs::read_to_string(&planner).unwrap();
    let edited = text.replacen(
        "func NewPlanner(",
        "// A comment that moves every later line.\nfunc NewPlanner(",
        1,
    );
    assert_ne!(text, edited);
    std::fs::write(&planner, edited).unwrap();
    let (stats, graph) = repo.refresh();
    assert_eq!((stats.parsed, stats.relinked), (1, 1));
    assert_same(&repo.cold(), &*graph, "after a body edit");
    assert_eq!(stats.skipped, first.skipped);

    // A new declaration changes what other files may resolve to: everything is linked.
    std::fs::write(
        &planner,
        format!(
            "{}\nfunc AddedLater() {{}}\n",
            std::fs::read_to_string(&planner).unwrap()
        ),
    )
    .unwrap();
    let (stats, graph) = repo.refresh();
    assert_eq!((stats.parsed, stats.relinked), (1, stats.files));
    assert_same(&repo.cold(), &*graph, "after a new function");
}

/// Python star imports: a name a star-imported module gains, loses or moves is seen by
/// the files that star-import it, as a cold index sees it.
#[test]
fn a_star_imported_modules_names_refresh_like_a_cold_index() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w("yaml/representer.py", "class Representer:\n    pass\n");
    w(
        "yaml/dumper.py",
        "from .representer import *\n\n\nclass Dumper(Representer):\n    pass\n\n\ndef make():\n    return Extra()\n",
    );
    w("yaml/__init__.py", "from .dumper import *\n");
    let (_, graph) = repo.refresh();
    assert_same(&repo.cold(), &*graph, "first index");
    // The star-imported module gains the name `dumper.py` reads.
    w(
        "yaml/representer.py",
        "class Representer:\n    pass\n\n\nclass Extra:\n    pass\n",
    );
    let (_, graph) = repo.refresh();
    assert_same(
        &repo.cold(),
        &*graph,
        "after a star-imported module gains a name",
    );
    let uses = repo.call(serde_json::json!({"operation":"usages","symbol":"Extra"}));
    assert!(
        uses.contains("make (function) at yaml/dumper.py:9"),
        "{uses}"
    );
    // And loses its base class.
    w("yaml/representer.py", "class Extra:\n    pass\n");
    let (_, graph) = repo.refresh();
    assert_same(
        &repo.cold(),
        &*graph,
        "after a star-imported module loses a name",
    );
}

// ---- Crash safety --------------------------------------------------------------------

/// A change the next refresh must pick up: a new function in an existing file.
fn add_zeta(repo: &Repo) {
    let path = repo.root.join("internal/brain/planner.go");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}\nfunc Zeta() {{}}\n")).unwrap();
}

const FIND_ZETA: &str = r#"{"operation":"find","symbol":"Zeta"}"#;

fn facts_files(repo: &Repo) -> usize {
    std::fs::read_dir(repo.cache_file().parent().unwrap())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".facts")
        })
        .count()
}

#[test]
fn a_refresh_stopped_between_its_writes_leaves_a_usable_index() {
    let query: serde_json::Value = serde_json::from_str(FIND_ZETA).unwrap();
    for step in [
        Step::WriteFacts,
        Step::WriteIndex,
        Step::WriteStore,
        Step::Cleanup,
        Step::RemoveDelta,
    ] {
        let repo = Repo::new("relay");
        let (first, _) = repo.refresh();
        add_zeta(&repo);
        crash::fail_at(&repo.cache_file(), step);
        // The stopped refresh still answers from what it built in memory.
        let (stopped, graph) = repo.refresh();
        assert_eq!(stopped.parsed, 1, "{step:?}");
        assert!(graph.symbols().iter().any(|s| s.name == "Zeta"), "{step:?}");

        // The next process reads what is on disk: never a rebuild from scratch (the old
        // cache file and the facts it names are still there), and the right answer.
        let (next, _) = repo.refresh();
        let reparsed = match step {
            // Nothing of the stopped refresh's cache reached the disk.
            Step::Link | Step::WriteFacts | Step::WriteIndex => 1,
            // (A refresh in place writes no cache file.)
            Step::WriteStore | Step::Cleanup | Step::RemoveDelta | Step::WriteDelta => 0,
        };
        assert_eq!(next.parsed, reparsed, "{step:?}: {next:?}");
        assert_eq!(next.files, first.files, "{step:?}");
        let text = repo.call(query.clone());
        assert!(
            text.contains("Zeta (function) at internal/brain/planner.go"),
            "{step:?}: {text}"
        );
        // The store written by the last refresh is fresh and says the same.
        let store = repo.tool().warm_store().expect("fresh store");
        let a: CodeArgs = serde_json::from_value(query.clone()).unwrap();
        assert_eq!(run(&*store, &a).unwrap().text, text, "{step:?}");
        // Facts files of stopped refreshes are cleaned up by the next one that completes.
        assert_eq!(facts_files(&repo), 1, "{step:?}");
    }
}

#[test]
fn a_damaged_or_foreign_cache_is_rebuilt_not_trusted() {
    let query: serde_json::Value = serde_json::from_str(FIND_ZETA).unwrap();
    type Damage = fn(&Path);
    let damages: [(&str, Damage); 4] = [
        ("truncated", |p| {
            let b = std::fs::read(p).unwrap();
            std::fs::write(p, &b[..b.len() / 2]).unwrap();
        }),
        ("flipped", |p| {
            let mut b = std::fs::read(p).unwrap();
            let n = b.len();
            b[n - 40] ^= 0x55;
            b[n / 2] ^= 0x55;
            std::fs::write(p, b).unwrap();
        }),
        ("another format version", |p| {
            let mut b = std::fs::read(p).unwrap();
            let at = b"explore code index\n".len();
            b[at] = b[at].wrapping_add(1);
            std::fs::write(p, b).unwrap();
        }),
        ("empty", |p| std::fs::write(p, b"").unwrap()),
    ];
    for (what, damage) in damages {
        let repo = Repo::new("relay");
        let (first, _) = repo.refresh();
        add_zeta(&repo);
        damage(&repo.cache_file());
        let (stats, graph) = repo.refresh();
        assert_eq!(
            stats.parsed, first.files,
            "{what}: rebuilt from the sources"
        );
        assert_same(&repo.cold(), &*graph, what);
        assert!(
            repo.call(query.clone()).contains("Zeta (function)"),
            "{what}"
        );
    }
    // Damaged facts: the cache file is fine, the facts it names are not.
    let repo = Repo::new("relay");
    let (first, _) = repo.refresh();
    add_zeta(&repo);
    for e in std::fs::read_dir(repo.cache_file().parent().unwrap()).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().contains(".facts") {
            let b = std::fs::read(&p).unwrap();
            std::fs::write(&p, &b[..b.len() - 9]).unwrap();
        }
    }
    let (stats, graph) = repo.refresh();
    assert_eq!(stats.parsed, first.files);
    assert_same(&repo.cold(), &*graph, "damaged facts");
}

/// The store file beside the cache file.
fn store_file(repo: &Repo) -> PathBuf {
    repo.cache_file().with_extension("store")
}

#[test]
fn nothing_changed_takes_the_graph_from_the_store() {
    let repo = Repo::new("relay");
    repo.refresh();
    let (stats, graph) = repo.refresh();
    assert!(stats.from_cache, "{stats:?}");
    assert_eq!(stats.parsed, 0);
    assert_same(&repo.cold(), &*graph, "graph read back from the store");
    // The cache file no longer carries a copy of the graph: it is a fraction of the store.
    let idx = std::fs::metadata(repo.cache_file()).unwrap().len();
    let store = std::fs::metadata(store_file(&repo)).unwrap().len();
    assert!(idx * 4 < store, "cache file {idx} bytes, store {store}");
}

#[test]
fn a_store_the_cache_file_does_not_name_is_not_read_for_the_old_graph() {
    let repo = Repo::new("relay");
    repo.refresh();
    let older = std::fs::read(store_file(&repo)).unwrap();
    add_zeta(&repo);
    let (after, _) = repo.refresh();
    assert_eq!(after.parsed, 1);
    // The store of before the edit is back (a refresh that stopped, another writer): its
    // header is whole, but it is not the store the cache file names.
    std::fs::write(store_file(&repo), older).unwrap();
    let (stats, graph) = repo.refresh();
    assert!(!stats.from_cache, "{stats:?}");
    assert_eq!(stats.parsed, 0, "linked from the cached facts, not parsed");
    assert!(graph.symbols().iter().any(|s| s.name == "Zeta"));
    assert_same(&repo.cold(), &*graph, "store not named by the cache file");
}

#[test]
fn a_store_with_damaged_records_is_rebuilt_when_the_old_graph_is_needed() {
    let repo = Repo::new("relay");
    let (first, _) = repo.refresh();
    // One byte in the middle of the store: inside a record, past every header check.
    let path = store_file(&repo);
    let mut b = std::fs::read(&path).unwrap();
    let n = b.len();
    b[n / 3] ^= 0x55;
    std::fs::write(&path, b).unwrap();
    let (stats, graph) = repo.refresh();
    assert!(!stats.from_cache, "{stats:?}");
    assert!(
        stats.parsed == 0 || stats.parsed == first.files,
        "{stats:?}"
    );
    assert_same(&repo.cold(), &*graph, "damaged store records");
    let store = repo.tool().warm_store().expect("a whole store again");
    assert_same(&repo.cold(), &*store, "the store written again");
}

#[test]
fn two_writers_take_turns() {
    let repo = Repo::new("relay");
    repo.refresh();
    add_zeta(&repo);
    let parsed: Vec<usize> = std::thread::scope(|s| {
        let a = s.spawn(|| repo.refresh().0.parsed);
        let b = s.spawn(|| repo.refresh().0.parsed);
        vec![a.join().unwrap(), b.join().unwrap()]
    });
    let mut sorted = parsed.clone();
    sorted.sort_unstable();
    // The second writer waited for the first and read what it wrote.
    assert_eq!(sorted, [0, 1], "{parsed:?}");
    let store = repo.tool().warm_store().expect("fresh store");
    assert_same(&repo.cold(), &*store, "after two writers");
}

#[test]
fn a_file_edited_during_a_refresh_is_caught_by_the_next_query() {
    let repo = Repo::new("relay");
    repo.refresh();
    add_zeta(&repo);
    let path = repo.root.join("internal/brain/planner.go");
    // While the refresh links (every file already read), the file changes again.
    crash::run_at(&repo.cache_file(), Step::Link, move || {
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("func Zeta()", "func Omega()")).unwrap();
        // A distinct mtime even on a coarse clock.
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(3))
            .unwrap();
    });
    let (_, during) = repo.refresh();
    assert!(during.symbols().iter().any(|s| s.name == "Zeta"));
    // The store written by that refresh is stale: the next query patches it, and sees
    // Omega.
    let tool = repo.tool();
    let store = tool.warm_store().expect("patched in place");
    assert!(tool.patched().is_some());
    assert_same(
        &repo.cold(),
        &*store,
        "patched after the edit during the refresh",
    );
    let text = repo.call(serde_json::json!({"operation": "find", "symbol": "Omega"}));
    assert!(
        text.contains("Omega (function) at internal/brain/planner.go"),
        "{text}"
    );
    assert_same(
        &repo.cold(),
        &*repo.refresh().1,
        "after the edit during the refresh",
    );
}

/// Found by the property test: the syntax-error count of a refresh that read no facts.
#[test]
fn a_refresh_without_changes_counts_syntax_errors() {
    check_sequence("ledger", &[(9, 726, 165, false), (5, 576, 230, false)]);
}

// ---- The refresh in place (a delta beside the store) ---------------------------------

/// A comment line at the top of `NewPlanner`'s body: a body edit that moves later lines.
fn edit_planner_body(repo: &Repo, n: usize) {
    let path = repo.root.join("internal/brain/planner.go");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replacen(
        "func NewPlanner(",
        &format!("// Moved down by edit {n}.\nfunc NewPlanner("),
        1,
    );
    assert_ne!(text, edited);
    std::fs::write(&path, edited).unwrap();
}

fn delta_file(repo: &Repo) -> PathBuf {
    repo.cache_file().with_extension("delta")
}

#[test]
fn edits_patch_the_store_and_the_full_refresh_merges_them() {
    let repo = Repo::new("relay");
    repo.refresh();
    let cache_written = std::fs::metadata(repo.cache_file())
        .unwrap()
        .modified()
        .unwrap();
    let store_written = std::fs::read(repo.cache_file().with_extension("store")).unwrap();
    for n in 0..3 {
        edit_planner_body(&repo, n);
        let tool = repo.tool();
        let store = tool.warm_store().expect("patched in place");
        let stats = tool.patched().expect("a refresh in place ran");
        assert_eq!((stats.parsed, stats.relinked), (1, 1));
        assert_same(&repo.cold(), &*store, &format!("after body edit {n}"));
    }
    // Only the delta was written: the cache file and the store are the full refresh's.
    assert!(delta_file(&repo).exists());
    let cache_now = std::fs::metadata(repo.cache_file())
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(cache_written, cache_now);
    assert_eq!(
        store_written,
        std::fs::read(repo.cache_file().with_extension("store")).unwrap()
    );

    // A new declaration is patched too: its file counts as deleted and added again, so
    // the files that use what it declared are resolved again (parsed from disk).
    add_zeta(&repo);
    let tool = repo.tool();
    let store = tool.warm_store().expect("patched in place");
    let stats = tool.patched().unwrap();
    assert!(stats.parsed >= 1 && stats.relinked >= 1, "{stats:?}");
    assert_same(&repo.cold(), &*store, "after a new declaration");
    // The full refresh merges the delta away.
    let (stats, graph) = repo.refresh();
    assert_eq!(
        stats.parsed, 1,
        "the edited file, parsed again from the cache's view"
    );
    assert_same(&repo.cold(), &*graph, "after the full refresh");
    assert!(!delta_file(&repo).exists());
    let store = repo.tool().warm_store().expect("fresh");
    assert_same(&repo.cold(), &*store, "the new store");
}

#[test]
fn a_refresh_in_place_stopped_before_its_write_is_redone() {
    let repo = Repo::new("relay");
    repo.refresh();
    edit_planner_body(&repo, 0);
    crash::fail_at(&repo.cache_file(), Step::WriteDelta);
    let tool = repo.tool();
    // The stopped refresh answers from the delta it made in memory.
    let store = tool.warm_store().expect("answered in place");
    assert_same(&repo.cold(), &*store, "from memory");
    assert!(!delta_file(&repo).exists());
    // The next query redoes it.
    let tool = repo.tool();
    let store = tool.warm_store().expect("patched again");
    assert_eq!(tool.patched().unwrap().parsed, 1);
    assert_same(&repo.cold(), &*store, "redone");
}

#[test]
fn a_delta_beside_a_newer_store_is_ignored() {
    let repo = Repo::new("relay");
    repo.refresh();
    edit_planner_body(&repo, 0);
    repo.tool().warm_store().expect("patched");
    let delta = std::fs::read(delta_file(&repo)).unwrap();
    // A full refresh stopped after writing its store, before removing the delta.
    add_zeta(&repo);
    crash::fail_at(&repo.cache_file(), Step::RemoveDelta);
    repo.refresh();
    assert_eq!(std::fs::read(delta_file(&repo)).unwrap(), delta);
    // The delta patches the old store, not this one.
    let store = repo.tool().warm_store().expect("fresh store");
    assert_same(&repo.cold(), &*store, "delta of an older store");
    let text = repo.call(serde_json::json!({"operation": "find", "symbol": "Zeta"}));
    assert!(
        text.contains("Zeta (function) at internal/brain/planner.go"),
        "{text}"
    );
}

#[test]
fn a_damaged_delta_is_left_out_and_made_again() {
    let repo = Repo::new("relay");
    repo.refresh();
    edit_planner_body(&repo, 0);
    repo.tool().warm_store().expect("patched");
    let path = delta_file(&repo);
    let mut b = std::fs::read(&path).unwrap();
    let n = b.len();
    b[n - 3] ^= 0x55;
    std::fs::write(&path, b).unwrap();
    // The store's own watch list shows the edit: refreshed in place again.
    let tool = repo.tool();
    let store = tool.warm_store().expect("patched again");
    assert_eq!(tool.patched().unwrap().parsed, 1);
    assert_same(&repo.cold(), &*store, "after a damaged delta");
}

#[test]
fn a_file_edited_during_a_refresh_in_place_is_caught_by_the_next_query() {
    let repo = Repo::new("relay");
    repo.refresh();
    edit_planner_body(&repo, 0);
    let path = repo.root.join("internal/brain/planner.go");
    crash::run_at(&repo.cache_file(), Step::Link, move || {
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.replace("// Moved down by edit 0.", "// Changed again.\n//"),
        )
        .unwrap();
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(3))
            .unwrap();
    });
    repo.tool().warm_store().expect("patched");
    // The delta recorded the stats seen before the file was read: stale, so patched again.
    let tool = repo.tool();
    let store = tool.warm_store().expect("patched again");
    assert_eq!(tool.patched().unwrap().parsed, 1);
    assert_same(&repo.cold(), &*store, "after the edit during the refresh");
}

#[test]
fn a_file_saved_by_renaming_a_temporary_file_is_patched_too() {
    let repo = Repo::new("relay");
    repo.refresh();
    let path = repo.root.join("internal/brain/planner.go");
    let text = std::fs::read_to_string(&path).unwrap();
    let tmp = repo.root.join("internal/brain/.planner.go.swp");
    std::fs::write(
        &tmp,
        text.replacen(
            "func NewPlanner(",
            "// Saved by rename.\nfunc NewPlanner(",
            1,
        ),
    )
    .unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    let tool = repo.tool();
    let store = tool
        .warm_store()
        .expect("patched although the directory changed");
    assert_eq!(tool.patched().unwrap().parsed, 1);
    assert_same(&repo.cold(), &*store, "after a save by rename");
    // A new source file in that directory is patched in too.
    std::fs::write(repo.root.join("internal/brain/extra.go"), "package brain\n").unwrap();
    let store = repo.tool().warm_store().expect("a new file patched in");
    assert_same(&repo.cold(), &*store, "after a new file");
}

/// A repository with files of other languages: Go and Python files are still added and
/// deleted in place (the other languages' links are not redone, so their files' changes
/// take the refresh for edits, or the full refresh).
#[test]
fn go_files_added_beside_other_languages_are_patched_in() {
    let repo = Repo::new("relay");
    std::fs::create_dir_all(repo.root.join("web/src")).unwrap();
    std::fs::write(
        repo.root.join("web/src/app.ts"),
        "import { helper } from './util';\n\nexport function main() {\n  return helper();\n}\n",
    )
    .unwrap();
    std::fs::write(
        repo.root.join("web/src/util.ts"),
        "export function helper() {\n  return 1;\n}\n",
    )
    .unwrap();
    std::fs::create_dir_all(repo.root.join("tool/src")).unwrap();
    std::fs::write(
        repo.root.join("tool/src/lib.rs"),
        "pub struct Engine;\n\nimpl Engine {\n    pub fn run(&self) {}\n}\n",
    )
    .unwrap();
    repo.refresh();
    let patched = |what: &str| {
        let tool = repo.tool();
        let store = tool
            .warm_store()
            .unwrap_or_else(|| panic!("{what}: patched"));
        assert!(tool.patched().is_some(), "{what}");
        assert_same(&repo.cold(), &*store, what);
    };
    std::fs::write(
        repo.root.join("internal/brain/added.go"),
        "package brain\n\nfunc AddedHere() {\n\tNewPlanner()\n}\n",
    )
    .unwrap();
    patched("a Go file added");
    std::fs::remove_file(repo.root.join("internal/brain/added.go")).unwrap();
    patched("the Go file deleted");
    // A TypeScript body edit: the refresh for edits.
    std::fs::write(
        repo.root.join("web/src/app.ts"),
        "import { helper } from './util';\n\nexport function main() {\n  helper();\n  return helper();\n}\n",
    )
    .unwrap();
    patched("a TypeScript body edited");
    // A TypeScript file added: the full refresh.
    std::fs::write(repo.root.join("web/src/more.ts"), "export const x = 1;\n").unwrap();
    assert!(repo.tool().warm_store().is_none());
    let (_, graph) = repo.refresh();
    assert_same(&repo.cold(), &*graph, "after the full refresh");
}
