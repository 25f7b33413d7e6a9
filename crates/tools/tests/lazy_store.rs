//! The store file a warm query answers from (`code::StoreFile`): it must answer every
//! lookup and every tool operation exactly as the embedded graph does, notice every kind
//! of change to the repository without walking it, and never answer from a damaged file.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use explore_tools::Tool;
use explore_tools::code::{
    CodeArgs, CodeGraph, EdgeKind, GraphStore, NameMatch, StoreError, StoreFile, run,
};
use pretty_assertions::assert_eq;

mod common;
use common::Repo;

impl Repo {
    fn store_path(&self) -> PathBuf {
        self.tool().cache_path().unwrap().with_extension("store")
    }

    /// Builds the index and returns the graph it holds.
    fn index(&self) -> std::sync::Arc<CodeGraph> {
        let tool = self.tool();
        tool.index().unwrap();
        tool.graph().unwrap()
    }

    /// What a new process would answer from: the warm store, if it is usable.
    fn warm(&self) -> Option<std::sync::Arc<StoreFile>> {
        self.tool().warm_store()
    }

    /// A `code` call's text (or error) through the tool, as the CLI makes it.
    fn call(&self, args: serde_json::Value) -> String {
        match self.tool().call(&args) {
            Ok(out) => out.text,
            Err(e) => format!("error: {e}"),
        }
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Every lookup of the trait, on every symbol, file, name and path, must agree.
fn same_lookups(reference: &CodeGraph, store: &dyn GraphStore) {
    let n = reference.symbols().len() as u32;
    for id in 0..n + 2 {
        assert_eq!(reference.symbol(id), store.symbol(id), "symbol {id}");
        for kind in EdgeKind::ALL {
            for limit in [0, 1, 2, usize::MAX] {
                assert_eq!(
                    reference.edges_out(id, kind, limit),
                    store.edges_out(id, kind, limit),
                    "edges out of {id} {kind:?} {limit}"
                );
                assert_eq!(
                    reference.edges_in(id, kind, limit),
                    store.edges_in(id, kind, limit),
                    "edges into {id} {kind:?} {limit}"
                );
            }
        }
    }
    for id in 0..reference.files().len() as u32 + 2 {
        assert_eq!(reference.file(id), store.file(id), "file {id}");
    }
    let mut patterns = vec![
        NameMatch::Contains(String::new()),
        NameMatch::Contains("e".into()),
        NameMatch::Contains("ISSUE".into()),
        NameMatch::Contains("zzz-none".into()),
        NameMatch::Exact("no such name".into()),
        NameMatch::Glob("*issue*".into()),
        NameMatch::Glob("[unclosed".into()),
        NameMatch::Glob("{get,set}*".into()),
        NameMatch::Glob("*er".into()),
    ];
    for s in reference.symbols() {
        patterns.push(NameMatch::Exact(s.name.clone()));
        patterns.push(NameMatch::Exact(s.name.to_ascii_uppercase()));
        patterns.push(NameMatch::Contains(s.name.clone()));
        let mid = &s.name[s.name.len() / 3..s.name.len() * 2 / 3];
        patterns.push(NameMatch::Contains(mid.to_string()));
        assert_eq!(reference.by_qname(&s.qname), store.by_qname(&s.qname));
        assert_eq!(reference.in_file(&s.path), store.in_file(&s.path));
    }
    for p in &patterns {
        assert_eq!(reference.find_names(p), store.find_names(p), "{p:?}");
    }
    assert_eq!(store.by_qname("no.such.Name"), Vec::<u32>::new());
    assert_eq!(store.in_file("no/such/file.go"), Vec::<u32>::new());
}

/// Every operation of the tool on every symbol (and a few globs and traces), as text.
fn transcript(reference: &CodeGraph, store: &dyn GraphStore) -> Vec<String> {
    let mut names: Vec<&str> = reference
        .symbols()
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    let displays = reference.symbols().iter().map(|s| s.display.as_str());
    names.extend(displays);
    names.extend([
        "*Issue*",
        "Plan?",
        "[Hh]andle*",
        "*_*",
        "nothing_like_this",
        "ISSUE",
    ]);
    names.sort_unstable();
    names.dedup();
    let ops = [
        "find",
        "callers",
        "callees",
        "implementations",
        "methods",
        "usages",
    ];
    let mut out = Vec::new();
    let mut answer = |args: serde_json::Value| {
        let a: CodeArgs = serde_json::from_value(args.clone()).unwrap();
        let text = match run(store, &a) {
            Ok(o) => format!("{}\n{:?}", o.text, o.findings),
            Err(e) => format!("error: {e}"),
        };
        out.push(format!("{args}\n{text}"));
    };
    for name in &names {
        for op in ops {
            answer(serde_json::json!({"operation": op, "symbol": name}));
        }
        for depth in [2, 3] {
            for op in ["callers", "callees"] {
                answer(serde_json::json!({"operation": op, "symbol": name, "depth": depth}));
            }
        }
        answer(serde_json::json!({"operation": "find", "symbol": name, "kind": "method"}));
        answer(serde_json::json!({"operation": "find", "symbol": name, "file": "internal"}));
    }
    for from in names.iter().take(40) {
        for to in ["Plan", "Run", "save", "Ingest"] {
            answer(serde_json::json!({"operation": "trace", "symbol": from, "to": to}));
        }
    }
    out
}

#[test]
fn the_store_answers_every_operation_like_the_embedded_graph() {
    for name in ["relay", "ledger"] {
        let repo = Repo::new(name);
        let graph = repo.index();
        let store = repo.warm().expect("a fresh store after indexing");
        same_lookups(&graph, &*store);
        let want = transcript(&graph, &*graph);
        let got = transcript(&graph, &*store);
        assert_eq!(want.len(), got.len());
        for (w, g) in want.iter().zip(&got) {
            assert_eq!(w, g, "{name}");
        }
        assert_eq!(store.failure(), None);
    }
}

#[test]
fn the_store_of_an_unchanged_repository_is_used_and_not_rewritten() {
    let repo = Repo::new("relay");
    repo.index();
    let before = std::fs::metadata(repo.store_path())
        .unwrap()
        .modified()
        .unwrap();
    assert!(repo.warm().is_some());
    // A refresh of an unchanged repository keeps the store as it is.
    repo.tool().index().unwrap();
    let after = std::fs::metadata(repo.store_path())
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);
    let text = repo.call(serde_json::json!({"operation": "find", "symbol": "Planner.Plan"}));
    assert!(
        text.starts_with("Planner.Plan (method) at internal/brain/planner.go:101\n"),
        "{text}"
    );
}

/// After `change`, the next call must see it (the store patched in place by a delta, see
/// `refresh.rs`), the store must be fresh again, and a full refresh must answer the same.
fn after_change(change: impl FnOnce(&Path), query: serde_json::Value, expect: &str) {
    let repo = Repo::new("relay");
    repo.index();
    assert!(repo.warm().is_some());
    let unchanged = std::fs::read(repo.store_path()).unwrap();
    change(&repo.root);
    let text = repo.call(query.clone());
    assert!(text.contains(expect), "{query}: {text}");
    let store = repo.warm().expect("the store is fresh after the call");
    let a: CodeArgs = serde_json::from_value(query).unwrap();
    let warm = run(&*store, &a).map_or_else(|e| format!("error: {e}"), |o| o.text);
    assert_eq!(warm, text);
    assert!(
        std::fs::read(repo.store_path()).unwrap() == unchanged,
        "patched through a delta, not rewritten"
    );
    let graph = repo.index();
    let full = run(&*graph, &a).map_or_else(|e| format!("error: {e}"), |o| o.text);
    assert_eq!(full, text);
}

#[test]
fn an_edited_file_is_noticed() {
    after_change(
        |root| {
            let p = root.join("internal/brain/planner.go");
            let mut text = std::fs::read_to_string(&p).unwrap();
            text.push_str("\nfunc AddedByTheTest() int { return 1 }\n");
            std::fs::write(&p, text).unwrap();
        },
        serde_json::json!({"operation": "find", "symbol": "AddedByTheTest"}),
        "AddedByTheTest (function) at internal/brain/planner.go:",
    );
}

#[test]
fn a_new_file_is_noticed() {
    after_change(
        |root| {
            write(
                &root.join("internal/brain/added.go"),
                "package brain\n\nfunc NewlyAdded() {}\n",
            )
        },
        serde_json::json!({"operation": "find", "symbol": "NewlyAdded"}),
        "NewlyAdded (function) at internal/brain/added.go:3",
    );
}

#[test]
fn a_new_file_in_a_new_directory_is_noticed() {
    after_change(
        |root| {
            write(
                &root.join("internal/fresh/deep/added.go"),
                "package deep\n\nfunc DeepAdded() {}\n",
            )
        },
        serde_json::json!({"operation": "find", "symbol": "DeepAdded"}),
        "DeepAdded (function) at internal/fresh/deep/added.go:3",
    );
}

#[test]
fn a_deleted_file_is_noticed() {
    after_change(
        |root| std::fs::remove_file(root.join("internal/brain/planner.go")).unwrap(),
        serde_json::json!({"operation": "find", "symbol": "Plan", "file": "internal/brain/planner.go"}),
        "No symbol \"Plan\" found in \"internal/brain/planner.go\".",
    );
}

#[test]
fn a_renamed_file_is_noticed() {
    after_change(
        |root| {
            std::fs::rename(
                root.join("internal/brain/planner.go"),
                root.join("internal/brain/renamed.go"),
            )
            .unwrap()
        },
        serde_json::json!({"operation": "find", "symbol": "Plan", "kind": "method"}),
        "Planner.Plan (method) at internal/brain/renamed.go:",
    );
}

#[test]
fn a_changed_gitignore_is_noticed() {
    let repo = Repo::new("relay");
    write(&repo.root.join(".gitignore"), "# nothing yet\n");
    repo.index();
    assert!(repo.warm().is_some());
    std::fs::write(repo.root.join(".gitignore"), "internal/brain/\n").unwrap();
    assert!(
        repo.warm().is_none(),
        "the edited .gitignore went unnoticed"
    );
    let text =
        repo.call(serde_json::json!({"operation": "find", "symbol": "Planner", "kind": "struct"}));
    assert!(
        text.starts_with("TaskPlanner (struct) at internal/task/planner.go:35\n"),
        "{text}"
    );
    assert!(repo.warm().is_some());
}

#[test]
fn a_git_exclude_created_later_is_noticed() {
    let repo = Repo::new("relay");
    std::fs::create_dir_all(repo.root.join(".git/info")).unwrap();
    repo.index();
    assert!(repo.warm().is_some());
    write(&repo.root.join(".git/info/exclude"), "internal/brain/\n");
    assert!(
        repo.warm().is_none(),
        "the new .git/info/exclude went unnoticed"
    );
}

/// The answers of a store that survived damage: equal to the graph's, or the damage noticed.
fn damaged_answers_are_right_or_refused(graph: &CodeGraph, store: &StoreFile) {
    let n = graph.symbols().len() as u32;
    let mut wrong = Vec::new();
    for id in 0..n {
        if graph.symbol(id) != store.symbol(id) {
            wrong.push(format!("symbol {id}"));
        }
        for kind in EdgeKind::ALL {
            if graph.edges_in(id, kind, usize::MAX) != store.edges_in(id, kind, usize::MAX)
                || graph.edges_out(id, kind, usize::MAX) != store.edges_out(id, kind, usize::MAX)
            {
                wrong.push(format!("edges {id}"));
            }
        }
    }
    for id in 0..graph.files().len() as u32 {
        if graph.file(id) != store.file(id) {
            wrong.push(format!("file {id}"));
        }
    }
    for s in graph.symbols() {
        let p = NameMatch::Exact(s.name.clone());
        if graph.find_names(&p) != store.find_names(&p)
            || graph.by_qname(&s.qname) != store.by_qname(&s.qname)
            || graph.in_file(&s.path) != store.in_file(&s.path)
        {
            wrong.push(format!("lookups of {}", s.qname));
        }
    }
    assert!(
        wrong.is_empty() || store.failure().is_some(),
        "wrong answers from a damaged store, unnoticed: {wrong:?}"
    );
}

#[test]
fn flipped_bytes_are_never_answered_from() {
    let repo = Repo::new("ledger");
    let graph = repo.index();
    let path = repo.store_path();
    let good = std::fs::read(&path).unwrap();
    let mut noticed = 0;
    let step = good.len() / 97;
    for at in (0..good.len()).step_by(step.max(1)) {
        let mut bad = good.clone();
        bad[at] ^= 0x5a;
        std::fs::write(&path, &bad).unwrap();
        match StoreFile::open(&path, &repo.root, fingerprint_of(&good)) {
            Err(_) => noticed += 1,
            Ok(store) => {
                let fresh = store.is_fresh(&repo.root);
                damaged_answers_are_right_or_refused(&graph, &store);
                // The link's tables are read by a refresh in place, never by a lookup.
                store.verify_link_tables();
                if fresh.is_err() || store.failure().is_some() {
                    noticed += 1;
                }
            }
        }
    }
    // Every flipped byte is in a checked part of the file.
    assert_eq!(noticed, good.len().div_ceil(step.max(1)));
}

/// The fingerprint a store was written with (bytes 23 to 39, after the magic and version).
fn fingerprint_of(store: &[u8]) -> [u8; 16] {
    let start = b"explore code store\n".len() + 4;
    store[start..start + 16].try_into().unwrap()
}

#[test]
fn a_damaged_store_is_rebuilt_and_the_answers_stay_the_same() {
    let repo = Repo::new("relay");
    repo.index();
    let path = repo.store_path();
    let query = serde_json::json!({"operation": "callers", "symbol": "Planner.Plan", "depth": 2});
    let want = repo.call(query.clone());
    assert!(want.contains("Orchestrator.Run"), "{want}");
    let good = std::fs::read(&path).unwrap();
    let version_at = b"explore code store\n".len();
    let mut damages: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() / 2].to_vec()),
        ("cut to the prefix", good[..30].to_vec()),
        ("empty", Vec::new()),
    ];
    let mut version = good.clone();
    version[version_at] = version[version_at].wrapping_add(1);
    damages.push(("another version", version));
    let mut tail = good.clone();
    let last = tail.len() - 3;
    tail[last] ^= 0xff;
    damages.push(("a flipped byte in the edges", tail));
    for (what, bytes) in damages {
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(repo.call(query.clone()), want, "{what}");
        let store = repo.warm().unwrap_or_else(|| panic!("{what}: not rebuilt"));
        assert_eq!(store.failure(), None, "{what}");
        let now = std::fs::read(&path).unwrap();
        if now != good {
            let at = now.iter().zip(&good).position(|(a, b)| a != b);
            panic!(
                "{what}: rebuilt differently ({} vs {} bytes, first difference at {at:?})",
                now.len(),
                good.len()
            );
        }
    }
    // Damage in a record the query does not read goes unnoticed until one reads it; the
    // answer is right either way.
    let mut middle = good.clone();
    // A byte of a symbol record (a signature): `find *` reads every one.
    let signature = b"func (p *Planner) Plan(";
    let mid = good
        .windows(signature.len())
        .position(|w| w == signature)
        .unwrap()
        + 8;
    middle[mid] ^= 0xff;
    std::fs::write(&path, &middle).unwrap();
    assert_eq!(repo.call(query.clone()), want);
    let all = serde_json::json!({"operation": "find", "symbol": "*"});
    let everything = {
        std::fs::write(&path, &good).unwrap();
        repo.call(all.clone())
    };
    std::fs::write(&path, &middle).unwrap();
    assert_eq!(repo.call(all), everything);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        good,
        "rebuilt after the damage was read"
    );
}

#[test]
fn a_store_says_why_it_cannot_be_used() {
    let repo = Repo::new("relay");
    repo.index();
    let path = repo.store_path();
    let good = std::fs::read(&path).unwrap();
    let print = fingerprint_of(&good);
    let err = StoreFile::open(&path, Path::new("/somewhere/else"), print).unwrap_err();
    assert!(matches!(err, StoreError::OtherRoot(_)), "{err}");
    let err = StoreFile::open(&path, &repo.root, [0; 16]).unwrap_err();
    assert!(matches!(err, StoreError::Fingerprint), "{err}");
    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    let err = StoreFile::open(&path, &repo.root, print).unwrap_err();
    assert_eq!(
        err.to_string(),
        "it is truncated (the incoming edges section ends past the end of the file)"
    );
    std::fs::write(&path, b"not a store").unwrap();
    let err = StoreFile::open(&path, &repo.root, print).unwrap_err();
    assert!(matches!(err, StoreError::NotAStore), "{err}");
}
