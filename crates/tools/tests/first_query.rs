//! The first query on a repository never indexed (`code::partial_answer`): on both
//! fixtures, every symbol's `find` (and `callers`/`callees`/`methods`/`usages` where they
//! apply) answered from the files that mention the name must read exactly as the full
//! index's answer, or, for calls, say in its last line that it may not.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use explore_tools::code::{CodeArgs, CodeGraph, CodeTool, IndexOptions, partial_answer, run};
use explore_tools::{RepoRoot, Tool};
use pretty_assertions::assert_eq;
use serde_json::json;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../evals/fixtures")
        .join(name)
}

fn tool_for(dir: &Path) -> CodeTool {
    CodeTool::new(
        RepoRoot::new(dir).unwrap(),
        IndexOptions {
            no_cache: true,
            ..Default::default()
        },
    )
}

fn args(v: serde_json::Value) -> CodeArgs {
    serde_json::from_value(v).unwrap()
}

fn text(r: Result<explore_tools::ToolOutput, explore_tools::ToolError>) -> String {
    match r {
        Ok(o) => o.text,
        Err(e) => e.to_string(),
    }
}

/// The text of a partial answer, rendered as the tool renders it.
fn partial_text(r: Result<explore_tools::code::CodeAnswer, explore_tools::ToolError>) -> String {
    text(r.and_then(explore_tools::code::render))
}

const NOTE: &str = "(first query: searched the ";

/// Queries for every symbol of the full graph: names, `Type.Method` displays, `pkg.Name`,
/// a glob and a case-folded name.
fn queries(graph: &CodeGraph) -> Vec<serde_json::Value> {
    let mut names = BTreeSet::new();
    let mut callables = BTreeSet::new();
    let mut types = BTreeSet::new();
    for s in graph.symbols() {
        names.insert(s.name.clone());
        names.insert(s.display.clone());
        if s.kind.is_type()
            && let Some(pkg) = s
                .qname
                .strip_suffix(&s.display)
                .and_then(|p| p.trim_end_matches('.').rsplit(['/', '.']).next())
                .filter(|p| !p.is_empty())
        {
            names.insert(format!("{pkg}.{}", s.display));
        }
        if s.kind.is_callable() {
            callables.insert(s.display.clone());
        }
        if s.kind.is_type() {
            types.insert(s.display.clone());
        }
    }
    let mut out = Vec::new();
    for n in &names {
        out.push(json!({"operation":"find","symbol":n}));
    }
    for n in [
        "*Issue*",
        "*store*",
        "*ledger*",
        "get_*",
        "New*Client",
        "*Plan",
    ] {
        out.push(json!({"operation":"find","symbol":n}));
    }
    for n in ["issuestore", "PLAN", "repository", "NOSUCHNAME"] {
        out.push(json!({"operation":"find","symbol":n}));
    }
    for n in &callables {
        out.push(json!({"operation":"callers","symbol":n}));
        out.push(json!({"operation":"callees","symbol":n}));
    }
    for n in &types {
        out.push(json!({"operation":"methods","symbol":n}));
        out.push(json!({"operation":"usages","symbol":n}));
    }
    out
}

/// (queries, identical, identical but with the note, different with the note) for one
/// fixture; panics on a silent difference.
fn compare(name: &str) -> (usize, usize, usize, usize) {
    let root = fixture(name);
    let tool = tool_for(&root);
    let graph = tool.graph().unwrap();
    let root = RepoRoot::new(&root).unwrap();
    let (mut same, mut noted, mut warned) = (0, 0, 0);
    let qs = queries(&graph);
    for q in &qs {
        let a = args(q.clone());
        let full = text(run(&*graph, &a));
        // A class's methods (with what it inherits) are left to the full index.
        let Some(partial) = partial_answer(root.path(), &a) else {
            assert_eq!(
                q["operation"], "methods",
                "{q}: not answered from a partial graph"
            );
            same += 1;
            continue;
        };
        let partial = partial_text(partial);
        if partial == full {
            same += 1;
            continue;
        }
        let op = q["operation"].as_str().unwrap();
        let (body, last) = partial.rsplit_once('\n').unwrap_or(("", &partial));
        assert!(
            matches!(op, "callers" | "callees") && last.starts_with(NOTE),
            "{name}: {q} differs without saying so\n--- full:\n{full}\n--- partial:\n{partial}"
        );
        if body == full {
            warned += 1;
            same += 1;
        } else {
            noted += 1;
        }
    }
    eprintln!(
        "{name}: {} queries, {same} identical ({warned} of them with the note), {noted} different with the note",
        qs.len()
    );
    (qs.len(), same, warned, noted)
}

#[test]
fn relay_partial_answers_match_the_full_index() {
    let (n, same, warned, noted) = compare("relay");
    // Every answer is the full index's, and none needed the note.
    assert_eq!((same, warned, noted), (n, 0, 0));
}

#[test]
fn ledger_partial_answers_match_the_full_index() {
    let (n, same, warned, noted) = compare("ledger");
    // One callers query ran out of closure rounds and says so, needlessly.
    assert_eq!((same, warned, noted), (n, 1, 0));
}

#[test]
fn queries_that_need_the_whole_graph_are_not_answered_partially() {
    let root = fixture("relay");
    for q in [
        json!({"operation":"implementations","symbol":"IssueStore"}),
        json!({"operation":"trace","symbol":"HandleWebhook","to":"Plan"}),
        json!({"operation":"callers","symbol":"Plan","depth":2}),
        json!({"operation":"find","symbol":"*Do*"}),
        json!({"operation":"find","symbol":"*"}),
    ] {
        assert!(partial_answer(&root, &args(q.clone())).is_none(), "{q}");
    }
}

/// A Go repository where the type a call goes through is five fields away from the call
/// site, in files that never mention the method: deeper than the partial graph follows.
fn deep_chain_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| std::fs::write(dir.path().join(p), s).unwrap();
    w("go.mod", "module example.com/deep\n\ngo 1.22\n");
    w(
        "h.go",
        "package deep\n\ntype H struct{ a *A }\n\nfunc (h *H) Serve() {\n\th.a.b.c.d.e.Save()\n}\n",
    );
    w("a.go", "package deep\n\ntype A struct{ b *B }\n");
    w("b.go", "package deep\n\ntype B struct{ c *C }\n");
    w("c.go", "package deep\n\ntype C struct{ d *D }\n");
    w("d.go", "package deep\n\ntype D struct{ e *E }\n");
    w("e.go", "package deep\n\ntype E struct{ n int }\n");
    w("save.go", "package deep\n\nfunc (e *E) Save() {}\n");
    w(
        "other.go",
        "package deep\n\ntype Other struct{}\n\nfunc (o *Other) Save() {}\n\nfunc use(o *Other) {\n\to.Save()\n}\n",
    );
    dir
}

#[test]
fn a_call_the_partial_graph_cannot_resolve_is_announced_in_one_line() {
    let dir = deep_chain_repo();
    let root = RepoRoot::new(dir.path()).unwrap();
    let q = json!({"operation":"callers","symbol":"E.Save"});
    let partial = partial_text(partial_answer(root.path(), &args(q.clone())).unwrap());
    assert_eq!(
        partial,
        "E.Save (method) at save.go:3\n\nCallers: none found. Calls through interfaces, function values or reflection may not be linked; try rg -n \"Save(\" with the bash tool.\n(first query: searched the 3 files that mention Save; 1 call site of that name needs the full index, being built now; ask again for a complete answer)"
    );
    let tool = tool_for(dir.path());
    let full = text(run(&*tool.graph().unwrap(), &args(q)));
    assert_eq!(
        full,
        "E.Save (method) at save.go:3\n\nCallers:\n  H.Serve (method) at h.go:6"
    );
    // Every call named Save is looked at for callers (the unresolved one could be a call
    // of Other.Save too); the calls of `use` all resolve, so its callees are not announced.
    let q = json!({"operation":"callers","symbol":"Other.Save"});
    assert!(
        partial_text(partial_answer(root.path(), &args(q)).unwrap()).ends_with("complete answer)")
    );
    let q = json!({"operation":"callees","symbol":"use"});
    assert_eq!(
        partial_text(partial_answer(root.path(), &args(q)).unwrap()),
        "use (function) at other.go:7\n\nCallees:\n  Other.Save (method) at other.go:5, called at line 8"
    );
}

#[test]
fn the_tool_answers_first_from_the_partial_graph_then_from_the_full_index() {
    let dir = deep_chain_repo();
    let tool = tool_for(dir.path());
    let q = json!({"operation":"callers","symbol":"E.Save"});
    let first = tool.call(&q).unwrap().text;
    assert!(
        first.ends_with("ask again for a complete answer)"),
        "{first}"
    );
    assert!(tool.stats().is_none(), "the partial graph is not the index");
    // The second call waits for the background build and answers from it.
    let second = tool.call(&q).unwrap().text;
    assert_eq!(
        second,
        "E.Save (method) at save.go:3\n\nCallers:\n  H.Serve (method) at h.go:6"
    );
    assert_eq!(tool.stats().unwrap().files, 8);
}

#[test]
fn a_cached_repository_is_not_answered_partially() {
    let dir = deep_chain_repo();
    let cache = tempfile::tempdir().unwrap();
    let options = IndexOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..Default::default()
    };
    let root = RepoRoot::new(dir.path()).unwrap();
    CodeTool::new(root.clone(), options.clone())
        .index()
        .unwrap();
    let tool = CodeTool::new(root, options);
    let q = json!({"operation":"callers","symbol":"E.Save"});
    assert_eq!(
        tool.call(&q).unwrap().text,
        "E.Save (method) at save.go:3\n\nCallers:\n  H.Serve (method) at h.go:6"
    );
}

/// A repository with Go and TypeScript: a question whose name a TypeScript file mentions
/// takes the full index (the first-query rules are Go's and Python's); a Go question is
/// answered from the Go files, the TypeScript ones entering as empty modules, exactly as
/// the full index answers it.
#[test]
fn other_languages_fall_back_to_the_full_index_except_for_find() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, s).unwrap();
    };
    w("go.mod", "module example.com/mix\n");
    w(
        "store/store.go",
        "package store\n\ntype Store struct{}\n\nfunc (s *Store) Save() {}\n\nfunc Run(s *Store) {\n\ts.Save()\n}\n",
    );
    w(
        "web/save.ts",
        "export class Form {\n  save(): void {}\n}\n\nexport function submit(f: Form) {\n  f.save();\n}\n",
    );
    let tool = tool_for(dir.path());
    let graph = tool.graph().unwrap();
    for q in [
        json!({"operation":"callers","symbol":"Form.save"}),
        // `Save` and `save` are one literal ignoring case: the TypeScript file mentions it.
        json!({"operation":"callers","symbol":"Store.Save"}),
    ] {
        assert!(
            partial_answer(dir.path(), &args(q.clone())).is_none(),
            "{q}"
        );
    }
    // `find` needs no closure: the files of other languages that mention the name are
    // parsed whole, and the answer is the full index's (`save` is in both languages).
    for q in [
        json!({"operation":"find","symbol":"Form"}),
        json!({"operation":"find","symbol":"save"}),
        json!({"operation":"find","symbol":"*ave*"}),
        json!({"operation":"find","symbol":"Run"}),
        json!({"operation":"callees","symbol":"Run"}),
        json!({"operation":"usages","symbol":"Store"}),
    ] {
        let a = args(q.clone());
        let partial = partial_text(partial_answer(dir.path(), &a).expect("answerable"));
        assert_eq!(partial, text(run(&*graph, &a)), "{q}");
    }
}
