//! The answer: entries grouped by file with roles, ordered best first, and the prose
//! that cites them.

use super::*;

impl LocalPolicy {
    /// The arguments of the final `submit`.
    pub(super) fn submission(&self, query: &Query) -> Value {
        // "Where is X tested", "which tests call X": its uses in tests first. Not for a
        // definition ("the capture_logs helper used in tests") nor a report that mentions
        // tests.
        let intent = self.effective_intent(query);
        let tests_first =
            matches!(intent, Intent::Callers(_)) && classify::Focus::of(&query.terms).tests;
        let files = group(&self.found, intent, tests_first);
        let relevant: Vec<Value> = files
            .iter()
            .map(|f| {
                json!({
                    "path": f.path,
                    "rationale": f.rationale,
                    "role": f.role.as_str(),
                    "discovery_source": f.source,
                    "key_symbols": f.key_symbols,
                    "locations": f.locations,
                })
            })
            .collect();
        let answer = self.answer_text(query, &files);
        json!({"answer": answer, "relevant_files": relevant})
    }

    /// The intent the answer was found for: a symbol question that fell back to ranking
    /// is answered as a concept question.
    pub(super) fn effective_intent<'q>(&self, query: &'q Query) -> &'q Intent {
        if self.fallback.is_some() {
            &CONCEPT
        } else {
            &query.intent
        }
    }

    pub(super) fn answer_text(&self, query: &Query, files: &[Grouped]) -> String {
        let intent = self.effective_intent(query);
        let mut parts: Vec<String> = Vec::new();
        if files.is_empty() {
            if let (true, Some(sym)) = (self.undefined, query.intent.symbol()) {
                return self.undefined_text(&sym.name);
            }
            if let (Some(n), Some(sym)) = (self.unmentioned, query.intent.symbol()) {
                return format!(
                    "No symbol `{}` was found: the code graph does not know it and no source file mentions it (text search over {n} files); no relevant files.",
                    sym.name
                );
            }
            if !self.absent.is_empty() && self.fallback.is_none() {
                return format!(
                    "No file in the repository mentions {}; no relevant files.",
                    self.absent.join(", ")
                );
            }
            let what = match &self.fallback {
                Some(s) => format!("{s}, and no file matches the question's words"),
                None if query.terms.is_empty() => {
                    "The question has no words to search for".to_string()
                }
                None => format!(
                    "Nothing in the repository matches the question's terms ({})",
                    query.terms.join(", ")
                ),
            };
            return format!("{what}; no relevant files.");
        }
        let cite = |e: &Entry| format!("{}:{}", e.path, e.line);
        let primary: Vec<&Entry> = self.found.iter().filter(|e| e.line > 0).collect();
        let target = query
            .intent
            .symbol()
            .map(|s| s.name.clone())
            .unwrap_or_default();
        match intent {
            Intent::Definition(_) => {
                let defs: Vec<String> = files
                    .iter()
                    .flat_map(|f| f.entries.iter())
                    .filter(|e| e.relation == Relation::Definition && e.line > 0)
                    .map(|e| {
                        format!(
                            "`{}`{} at {}",
                            e.name.as_deref().unwrap_or(&target),
                            e.kind
                                .as_ref()
                                .map(|k| format!(" ({k})"))
                                .unwrap_or_default(),
                            cite(e)
                        )
                    })
                    .collect();
                if defs.len() == 1 {
                    parts.push(format!("{} is the definition.", defs[0]));
                } else {
                    parts.push(format!("{} definitions: {}.", defs.len(), defs.join("; ")));
                }
            }
            Intent::Concept => {
                let tops: Vec<String> = files
                    .iter()
                    .take(4)
                    .filter_map(|f| {
                        let e = f.entries.iter().find(|e| e.line > 0)?;
                        Some(match &e.name {
                            Some(n) => format!("`{n}` at {}", cite(e)),
                            None => cite(e),
                        })
                    })
                    .collect();
                if !tops.is_empty() {
                    parts.push(format!("Most relevant: {}.", tops.join("; ")));
                }
            }
            _ => {
                // One entry per symbol and place: a caller of two definitions of an
                // ambiguous name (`Demo.__call__` calling `self.run_cell`, guessed to be
                // both `Demo.run_cell` and `IPythonDemo.run_cell`) is one caller.
                let mut seen: std::collections::HashSet<(&str, u32, Option<&str>)> =
                    std::collections::HashSet::new();
                let related: Vec<&&Entry> = primary
                    .iter()
                    .filter(|e| {
                        (e.name.is_some() || self.text_note.is_some())
                            && if intent.name() == "methods" {
                                e.kind.as_deref() == Some("method")
                            } else {
                                e.relation != Relation::Definition
                            }
                    })
                    .filter(|e| seen.insert((e.path.as_str(), e.line, e.name.as_deref())))
                    .collect();
                let named = &related[..related.len().min(MAX_NAMED)];
                let rels: Vec<String> = named
                    .iter()
                    .map(|e| match e.name.as_deref() {
                        Some(n) => format!("{n} at {}", cite(e)),
                        None => cite(e),
                    })
                    .collect();
                // Only the asked-for symbol's own definitions: the callers' and callees'
                // definitions are relations, listed after the verb.
                let last = |n: &str| n.rsplit('.').next().unwrap_or(n).to_string();
                let wanted = last(&target);
                let defs: Vec<String> = primary
                    .iter()
                    .filter(|e| {
                        e.relation == Relation::Definition
                            && e.name.as_deref().is_some_and(|n| last(n) == wanted)
                    })
                    .map(|e| format!("`{}` at {}", e.name.as_deref().unwrap_or(&target), cite(e)))
                    .collect();
                let verb = match intent.name() {
                    "callers" if self.ops.contains(&"usages") => "Used by",
                    "callers" => "Called by",
                    "callees" => "Calls",
                    "implementations" => "Implemented by",
                    "methods" => "Methods",
                    "trace" if self.no_path => "Both ends",
                    "trace" => "Path",
                    _ => "Related",
                };
                if !defs.is_empty() && intent.name() != "methods" {
                    parts.push(format!("{}.", defs.join("; ")));
                }
                if rels.is_empty() {
                    parts.push(format!("{verb}: none found."));
                } else {
                    let sep = if intent.name() == "trace" && !self.no_path {
                        " -> "
                    } else {
                        "; "
                    };
                    parts.push(format!("{verb}: {}.", rels.join(sep)));
                }
                if let Some(cut) = self.cut_note(intent.name(), &target, &related, named.len()) {
                    parts.push(cut);
                }
            }
        }
        if let Some(s) = &self.fallback {
            parts.insert(0, format!("{s}; these files match the question's words."));
        }
        if let Some(s) = &self.text_note {
            parts.insert(0, s.clone());
        }
        parts.extend(self.notes.iter().cloned());
        parts.join(" ")
    }
}

/// Related symbols a relation answer names in its prose; the files list the rest.
const MAX_NAMED: usize = 8;

impl LocalPolicy {
    /// "8 of 110 methods shown; the list: `explore tool code … --json`" when the answer
    /// names fewer related symbols than the `code` lists hold, so a cut list never reads
    /// as the whole; "the files below list all 12" when the files carry every one.
    /// `related` are the entries the prose could name, the first `named` of which it
    /// does (a caller calling twice is two entries, one symbol).
    fn cut_note(
        &self,
        relation: &str,
        target: &str,
        related: &[&&Entry],
        named: usize,
    ) -> Option<String> {
        let distinct = |entries: &[&&Entry]| {
            let mut seen: Vec<(&str, Option<&str>)> = Vec::new();
            for e in entries {
                let key = (e.path.as_str(), e.name.as_deref());
                if !seen.contains(&key) {
                    seen.push(key);
                }
            }
            seen.len()
        };
        let shown = distinct(&related[..named]);
        if relation == "trace" || shown == 0 || self.list_total <= shown {
            return None;
        }
        let op = self
            .ops
            .iter()
            .copied()
            .find(|&o| o != "find")
            .unwrap_or(relation);
        let noun = if op == "usages" { "users" } else { op };
        let total = self.list_total;
        if distinct(related) >= total {
            return Some(format!(
                "{shown} of {total} {noun} named here; the files below list all {total}."
            ));
        }
        let args = json!({"operation": op, "symbol": target});
        Some(format!(
            "{shown} of {total} {noun} shown; the list: `explore tool code '{args}' --json`."
        ))
    }
}

/// A file of the answer, grouped from entries.
#[derive(Debug, Clone)]
pub(super) struct Grouped {
    path: String,
    role: Role,
    rationale: String,
    source: &'static str,
    key_symbols: Vec<String>,
    locations: Vec<Location>,
    entries: Vec<Entry>,
    order: (u8, u8, usize),
}

/// Groups entries by file, picks each file's role and rationale, and orders files best
/// first: for relation questions the related files (callers, implementations, hops)
/// before the target's definition, real code before tests, vendored and generated code.
///
/// With `tests_first` (the question asks about tests: "where is X tested", "which tests
/// cover X") tests come first, then real code, then the other secondary code.
pub(super) fn group(entries: &[Entry], intent: &Intent, tests_first: bool) -> Vec<Grouped> {
    let mut files: Vec<Grouped> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let rel_rank = match (intent, e.relation) {
            (Intent::Definition(_) | Intent::Methods(_), Relation::Definition) => 0,
            (Intent::Definition(_) | Intent::Methods(_), _) => 1,
            (Intent::Concept, Relation::Concept { rank: 0, .. }) => 0,
            (Intent::Concept, Relation::Callee | Relation::Caller) => 1,
            (Intent::Concept, _) => 2,
            (_, Relation::Definition) => 1,
            // A callee the graph only guessed comes after the target's own file.
            _ if e.guessed => 2,
            _ => 0,
        };
        let pos = match files.iter().position(|f| f.path == e.path) {
            Some(p) => {
                // The target's own file that also holds its subclasses is a file of the
                // answer, not only of the definition.
                if matches!(intent, Intent::Implementations(_)) {
                    files[p].order.1 = files[p].order.1.min(rel_rank);
                }
                p
            }
            None => {
                let class = classify::classify(&e.path);
                files.push(Grouped {
                    path: e.path.clone(),
                    role: classify::role(&e.path, e.relation, e.kind.as_deref()),
                    rationale: String::new(),
                    source: e.source,
                    key_symbols: Vec::new(),
                    locations: Vec::new(),
                    entries: Vec::new(),
                    order: (
                        match (tests_first && class.test, class.secondary()) {
                            (true, _) => 0,
                            (false, false) => 1,
                            (false, true) => 2,
                        },
                        rel_rank,
                        i,
                    ),
                });
                files.len() - 1
            }
        };
        files[pos].entries.push(e.clone());
    }
    for f in &mut files {
        let class = classify::classify(&f.path);
        let mut notes: Vec<String> = Vec::new();
        for e in &f.entries {
            if !notes.contains(&e.note) {
                notes.push(e.note.clone());
            }
            if let Some(n) = &e.name
                && !f.key_symbols.contains(n)
            {
                f.key_symbols.push(n.clone());
            }
            if e.line > 0 {
                let loc = Location {
                    line: e.line,
                    end_line: e.end_line.filter(|&x| x > e.line),
                    symbol: e.name.clone(),
                    kind: e.kind.clone(),
                };
                if !f.locations.iter().any(|l| l.line == loc.line) {
                    f.locations.push(loc);
                }
            }
        }
        let mut rationale = notes.join("; ");
        if let Intent::Concept = intent
            && let Some(t) = f.entries.first().and_then(|e| e.target.clone())
            && !t.is_empty()
        {
            rationale.push_str(&format!(" (matches {t})"));
        }
        if class.generated {
            rationale.push_str(" — generated code, do not edit");
        } else if class.vendored {
            rationale.push_str(" — vendored third-party code");
        } else if class.test {
            rationale.push_str(" — test code");
        } else if class.sample {
            rationale.push_str(" — example, fixture or documentation code");
        }
        f.rationale = rationale;
        f.locations.sort_by_key(|l| l.line);
    }
    // How many of a file's entries stand in `relation` to the target.
    let held = |f: &Grouped, relation: Relation| {
        f.entries.iter().filter(|e| e.relation == relation).count()
    };
    match intent {
        // The file with the most call sites first (a class calling its own method from
        // four places beats a module calling it once).
        Intent::Callers(_) => files.sort_by_key(|f| {
            let calls = held(f, Relation::Caller);
            (f.order.0, std::cmp::Reverse(calls), f.order.1, f.order.2)
        }),
        // Among the files that hold implementations, the one with most of them first (the
        // interface's own file with one implementer after the file of five). On a tie the
        // target's own file, which came first, stays first: it holds the declaration the
        // implementations answer to (goflags, sqlx, toml-test cases).
        Intent::Implementations(_) => files.sort_by_key(|f| {
            let implementations = held(f, Relation::Implementation);
            (
                f.order.0,
                f.order.1,
                std::cmp::Reverse(implementations),
                f.order.2,
            )
        }),
        // The file holding most of what the target calls first, the target's own file
        // included (a method calling four helpers beside it and one elsewhere); callees
        // the graph only guessed do not count. On a tie the other file, then the order of
        // first entries.
        Intent::Callees(_) => files.sort_by_key(|f| {
            let callees = f
                .entries
                .iter()
                .filter(|e| e.relation == Relation::Callee && !e.guessed)
                .count();
            (f.order.0, std::cmp::Reverse(callees), f.order.1, f.order.2)
        }),
        _ => files.sort_by_key(|f| f.order),
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, relation: Relation, line: u32) -> Entry {
        Entry {
            path: path.into(),
            relation,
            name: None,
            kind: Some("class".into()),
            line,
            end_line: None,
            note: String::new(),
            source: "code",
            target: None,
            guessed: false,
        }
    }

    fn sym(name: &str) -> SymbolRef {
        SymbolRef {
            name: name.into(),
            kind: None,
            within: Vec::new(),
            params: None,
            described: false,
            implementor: None,
            joined: None,
            method_call: false,
            excluded: Vec::new(),
        }
    }

    #[test]
    fn implementations_rank_files_by_what_they_hold() {
        // The base class's own file holds five subclasses; another file holds one.
        let mut entries = vec![entry("pkg/__init__.py", Relation::Definition, 42)];
        entries.push(entry("pkg/func.py", Relation::Implementation, 19));
        for line in [144, 172, 203, 240, 277] {
            entries.push(entry("pkg/__init__.py", Relation::Implementation, line));
        }
        let files = group(&entries, &Intent::Implementations(sym("Cache")), false);
        let order: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(order, ["pkg/__init__.py", "pkg/func.py"]);
        // A definition file with no subclass stays after the files that have them.
        let entries = vec![
            entry("pkg/base.py", Relation::Definition, 1),
            entry("pkg/a.py", Relation::Implementation, 3),
        ];
        let files = group(&entries, &Intent::Implementations(sym("Base")), false);
        assert_eq!(files[0].path, "pkg/a.py");
        // One implementation each: the target's own file, seen first, stays first.
        let entries = vec![
            entry("pkg/base.py", Relation::Definition, 1),
            entry("pkg/a.py", Relation::Implementation, 3),
            entry("pkg/base.py", Relation::Implementation, 9),
        ];
        let files = group(&entries, &Intent::Implementations(sym("Base")), false);
        assert_eq!(files[0].path, "pkg/base.py");
        // Other questions keep the order of a file's first entry.
        let entries = vec![
            entry("pkg/base.py", Relation::Definition, 1),
            entry("pkg/a.py", Relation::Caller, 3),
            entry("pkg/base.py", Relation::Caller, 9),
        ];
        let files = group(&entries, &Intent::Callees(sym("run")), false);
        assert_eq!(files[0].path, "pkg/a.py");
        // Callees: the file holding most of them first, the target's own file included;
        // guessed ones do not count.
        let mut entries = vec![
            entry("pkg/base.py", Relation::Definition, 1),
            entry("pkg/a.py", Relation::Callee, 3),
        ];
        for line in [20, 30, 40] {
            entries.push(entry("pkg/base.py", Relation::Callee, line));
        }
        let files = group(&entries, &Intent::Callees(sym("run")), false);
        assert_eq!(files[0].path, "pkg/base.py");
        for e in entries.iter_mut().filter(|e| e.line >= 20) {
            e.guessed = true;
        }
        let files = group(&entries, &Intent::Callees(sym("run")), false);
        assert_eq!(files[0].path, "pkg/a.py");
    }
}
