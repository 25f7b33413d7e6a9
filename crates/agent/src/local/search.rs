//! Text search: symbol questions the code graph cannot answer (languages it does not
//! parse, constants and variables, names it does not know), answered from the shape of
//! source lines and backed by `read` calls.

use super::symbol::kind_matches;
use super::*;

/// Most places a text search cites in one file.
const MAX_PLACES_PER_FILE: usize = 40;

impl LocalPolicy {
    /// The repository's source files, listed once per engine.
    pub(super) fn source_files(&self) -> Arc<Vec<String>> {
        let mut guard = match self.sources.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(files) = guard.as_ref() {
            return files.clone();
        }
        let files = Arc::new(lexical::list_sources(self.registry.root().path()));
        *guard = Some(files.clone());
        files
    }

    /// The paths the code graph parsed. A warm store answers without loading the graph
    /// (one small record per file instead of the whole graph, ~0.5 s on 1.4M lines);
    /// without one (cold or stale cache) the graph is loaded as the `code` tool would.
    pub(super) fn graph_files(&self) -> std::collections::HashSet<String> {
        let code = self.registry.code();
        if let Some(store) = code.warm_store() {
            let mut paths = std::collections::HashSet::new();
            let mut id = 0;
            while let Some(f) = store.file(id) {
                paths.insert(f.path);
                id += 1;
            }
            if store.failure().is_none() {
                return paths;
            }
        }
        match code.graph() {
            Ok(g) => g.files().iter().map(|f| f.path.clone()).collect(),
            Err(_) => std::collections::HashSet::new(),
        }
    }

    /// Answers a symbol question by text search (definitions, usages or implementations
    /// recognised by the shape of a line), for languages the code graph does not parse
    /// and for names it records no relation for (constants, variables). Returns the
    /// `read` calls that back the places found, or `None` when the text has nothing (or,
    /// with `need_primary`, nothing outside tests, fixtures, examples, vendored and
    /// generated code).
    pub(super) fn text_search(
        &mut self,
        op: &'static str,
        sym: &SymbolRef,
        need_primary: bool,
    ) -> Option<Vec<ToolCall>> {
        if !matches!(
            op,
            "find" | "callers" | "usages" | "implementations" | "methods" | "callees"
        ) {
            return None;
        }
        let root = self.registry.root().path().to_path_buf();
        let files = self.source_files();
        let leaf = sym.leaf().to_string();
        let secondary = |p: &str| classify::classify(p).secondary();
        // Every file is read once; only those that contain the name are searched.
        let texts = lexical::candidates(&root, &files, &leaf);
        if texts.is_empty() {
            self.unmentioned = Some(files.len());
        }
        let mut defs = lexical::definitions(&texts, &sym.name);
        if defs.is_empty() && sym.qualifier().is_some() {
            defs = lexical::definitions(&texts, &leaf);
        }
        if let Some(k) = sym.kind {
            let keep: Vec<lexical::TextHit> = defs
                .iter()
                .filter(|d| d.kind.is_some_and(|g| kind_matches(k, g)))
                .cloned()
                .collect();
            if !keep.is_empty() {
                defs = keep;
            }
        }
        if defs.iter().any(|d| !secondary(&d.path)) {
            defs.retain(|d| !secondary(&d.path));
        }
        // Who implements or uses `std::error::Error` is asked of the standard library's
        // type: the repository's own `Error` is a namesake, not its definition.
        if op != "find" && sym.std_rooted() {
            defs.clear();
        }
        let value_or_type = defs.iter().any(|d| {
            matches!(
                d.kind,
                Some(
                    "struct"
                        | "class"
                        | "enum"
                        | "trait"
                        | "interface"
                        | "type"
                        | "const"
                        | "variable"
                )
            )
        });
        let calls_only = op == "callers" && !value_or_type;
        let (main, relation) = match op {
            "find" => (defs.clone(), Relation::Definition),
            "implementations" => {
                let mut hits = lexical::implementations(&texts, &leaf);
                // "the FromStr impl for Version": that type's, when the text has it.
                if let Some(ty) = &sym.implementor
                    && hits.iter().any(|h| h.name.as_deref() == Some(ty.as_str()))
                {
                    hits.retain(|h| h.name.as_deref() == Some(ty.as_str()));
                }
                (hits, Relation::Implementation)
            }
            "methods" => (lexical::methods(&texts, &leaf), Relation::Definition),
            "callees" => (self.text_callees(&texts, &defs), Relation::Callee),
            _ => {
                let access = self
                    .query
                    .as_ref()
                    .map_or(lexical::Access::Any, |q| lexical::Access::of(&q.raw));
                let mut hits = lexical::usages(&texts, &leaf, calls_only, access);
                // "Where is X caught": the handlers, when some use is one.
                if self
                    .query
                    .as_ref()
                    .is_some_and(|q| query::asks_where_caught(&q.raw))
                {
                    let line_of = |h: &lexical::TextHit| {
                        texts
                            .iter()
                            .find(|(p, _)| *p == h.path)
                            .and_then(|(_, t)| t.lines().nth(h.line as usize - 1))
                            .unwrap_or("")
                            .to_string()
                    };
                    let caught: Vec<lexical::TextHit> = hits
                        .iter()
                        .filter(|h| lexical::catches(&line_of(h)))
                        .cloned()
                        .collect();
                    if !caught.is_empty() {
                        hits = caught;
                    }
                }
                // A use inside a definition of the name itself (a getter returning the
                // variable it is named for, a recursive call) is not a use by another
                // place, when other places use it.
                let inside_own = |h: &lexical::TextHit| {
                    defs.iter()
                        .any(|d| d.path == h.path && d.line < h.line && h.line <= d.end_line)
                };
                if hits.iter().any(|h| !inside_own(h)) {
                    hits.retain(|h| !inside_own(h));
                }
                (hits, Relation::Caller)
            }
        };
        if main.is_empty() || (need_primary && main.iter().all(|h| secondary(&h.path))) {
            return None;
        }
        let verb = if calls_only { "calls" } else { "uses" };
        let mut entries: Vec<Entry> = Vec::new();
        for (_, hits) in lexical::rank_files(main).into_iter().take(8) {
            // Every place in a file (a callers answer lists every call site), up to what
            // three reads of a file can back.
            for h in hits.into_iter().take(MAX_PLACES_PER_FILE) {
                let shown = h.name.clone().unwrap_or_else(|| leaf.clone());
                let kind = h.kind.map(str::to_string);
                let note = match relation {
                    Relation::Definition => format!(
                        "Defines {}{shown} at line {}",
                        kind.as_deref().map(|k| format!("{k} ")).unwrap_or_default(),
                        h.line
                    ),
                    Relation::Implementation => format!(
                        "{shown} ({}) implements {}, at line {}",
                        kind.as_deref().unwrap_or("type"),
                        sym.name,
                        h.line
                    ),
                    Relation::Callee => format!(
                        "Defines {}{shown} at line {}, called by {}",
                        kind.as_deref().map(|k| format!("{k} ")).unwrap_or_default(),
                        h.line,
                        sym.name
                    ),
                    _ => match &h.name {
                        Some(n) => format!("{n} {verb} {} at line {}", sym.name, h.line),
                        None => format!("Uses {} at line {}", sym.name, h.line),
                    },
                };
                entries.push(Entry {
                    path: h.path,
                    relation,
                    name: h.name,
                    kind,
                    line: h.line,
                    end_line: (h.end_line > h.line).then_some(h.end_line),
                    note,
                    source: "read",
                    target: Some(sym.name.clone()),
                    guessed: false,
                });
            }
        }
        if op != "find" {
            for d in defs.iter().take(3) {
                let kind = d.kind.map(str::to_string);
                entries.push(Entry {
                    path: d.path.clone(),
                    relation: Relation::Definition,
                    name: d.name.clone(),
                    kind: kind.clone(),
                    line: d.line,
                    end_line: (d.end_line > d.line).then_some(d.end_line),
                    note: format!(
                        "Defines {}{} at line {}",
                        kind.as_deref().map(|k| format!("{k} ")).unwrap_or_default(),
                        d.name.as_deref().unwrap_or(&leaf),
                        d.line
                    ),
                    source: "read",
                    target: Some(sym.name.clone()),
                    guessed: false,
                });
            }
        }
        // Say how it was found, and why the graph did not find it.
        let graph_files = self.graph_files();
        let mut langs: Vec<&str> = Vec::new();
        for e in &entries {
            // A stub (`.pyi`) is Python the graph does not parse; its `.py` may well be.
            let lang = if e.path.ends_with(".pyi") {
                Some("Python stubs (.pyi)")
            } else {
                lexical::language_of(&e.path)
            };
            if !graph_files.contains(&e.path)
                && let Some(l) = lang
                && !langs.contains(&l)
            {
                langs.push(l);
            }
        }
        self.text_note = Some(if langs.is_empty() {
            format!(
                "Found by text search (the code graph records no {} for `{}`).",
                match op {
                    "find" => "definition",
                    "implementations" => "implementations",
                    "methods" => "methods",
                    "callees" => "calls",
                    _ if calls_only => "calls",
                    _ => "uses",
                },
                sym.name
            )
        } else {
            format!(
                "Found by text search (no code graph for {}).",
                langs.join(", ")
            )
        });
        self.ops.push(if calls_only { "callers" } else { "usages" });
        self.ops.push(op);
        // One `read` per file and window, so every place is backed by what it showed.
        let mut by_file: Vec<(String, Vec<Entry>)> = Vec::new();
        for e in entries {
            match by_file.iter_mut().find(|(p, _)| *p == e.path) {
                Some((_, v)) => v.push(e),
                None => by_file.push((e.path.clone(), vec![e])),
            }
        }
        let mut calls = Vec::new();
        for (path, mut list) in by_file {
            list.sort_by_key(|e| e.line);
            let mut windows: Vec<Vec<Entry>> = Vec::new();
            for e in list {
                let fits = windows.last().is_some_and(|w| {
                    let start = w[0].line.saturating_sub(2).max(1);
                    e.end_line.unwrap_or(e.line) < start + 300
                });
                match windows.last_mut() {
                    Some(w) if fits => w.push(e),
                    _ => windows.push(vec![e]),
                }
            }
            for w in windows.into_iter().take(3) {
                let start = w[0].line.saturating_sub(2).max(1);
                let last = w
                    .iter()
                    .map(|e| e.end_line.unwrap_or(e.line))
                    .max()
                    .unwrap_or(start);
                let num = (last + 1).saturating_sub(start).clamp(1, 300);
                let args = json!({"file": path, "start_line": start, "num_lines": num});
                calls.push(self.call(ToolName::Read, args, Some(Purpose::TextRead { entries: w })));
            }
        }
        Some(calls)
    }

    /// What the text-found definitions `defs` call: the names called in their bodies that
    /// the ranking corpus defines (the same file first, then real code), at most eight.
    /// Names defined nowhere in the repository (the standard library) are left out.
    pub(super) fn text_callees(
        &self,
        texts: &[(String, String)],
        defs: &[lexical::TextHit],
    ) -> Vec<lexical::TextHit> {
        let idx = self.lex_index();
        let corpus = idx.corpus();
        let mut out: Vec<lexical::TextHit> = Vec::new();
        for d in defs.iter().take(2) {
            let Some((_, text)) = texts.iter().find(|(p, _)| *p == d.path) else {
                continue;
            };
            for (name, _, method) in lexical::calls_in(text, d.line, d.end_line) {
                let named: Vec<&rank::SymbolInfo> = corpus
                    .symbols
                    .iter()
                    .filter(|s| s.name == name && s.kind != "module")
                    .collect();
                // A call on a value (`x.kind()`) says nothing about the type: only a
                // definition in the same file or the only one of that name is its target.
                if method
                    && named.len() > 1
                    && !named.iter().any(|s| corpus.files[s.file] == d.path)
                {
                    continue;
                }
                let best = named.into_iter().min_by_key(|s| {
                    let path = &corpus.files[s.file];
                    (
                        u8::from(*path != d.path),
                        u8::from(classify::classify(path).secondary()),
                    )
                });
                if let Some(s) = best
                    && out.len() < 8
                {
                    out.push(lexical::TextHit {
                        path: corpus.files[s.file].clone(),
                        line: s.line,
                        end_line: s.end_line,
                        name: Some(s.display.clone()),
                        kind: Some(match s.kind.as_str() {
                            "method" => "method",
                            "struct" => "struct",
                            "class" => "class",
                            _ => "function",
                        }),
                    });
                }
            }
        }
        out
    }

    /// Keeps the places of a text search that a `read` showed.
    pub(super) fn on_text_read(&mut self, entries: Vec<Entry>, findings: &[Finding]) {
        let covered = |path: &str, line: u32| {
            findings.iter().any(|f| {
                f.path == path
                    && f.line.is_some_and(|a| a <= line)
                    && f.end_line.or(f.line).is_some_and(|b| line <= b)
            })
        };
        for mut e in entries {
            if !covered(&e.path, e.line) {
                continue;
            }
            if let Some(end) = e.end_line
                && !covered(&e.path, end)
            {
                e.end_line = None;
            }
            self.found.push(e);
        }
    }
}
