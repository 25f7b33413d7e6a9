//! Symbol questions: the first `code` call, reading its typed answer back, narrowing an
//! ambiguous name by the question's owner, places and kind, and recording what was found
//! with how it relates to the question.

use super::routing::Doubt;
use super::*;

/// Words beyond which a question is a paragraph, not a lookup.
const LONG_QUESTION_WORDS: usize = 16;

impl LocalPolicy {
    pub(super) fn start(&mut self, query: &Query) -> Vec<ToolCall> {
        // A pasted report or a paragraph: its symbol words may not be its point.
        if query.raw.lines().count() > 1
            || query.raw.split_whitespace().count() > LONG_QUESTION_WORDS
        {
            self.doubts.push(Doubt::LongQuestion);
        }
        match &query.intent {
            Intent::Concept => self.doubts.push(Doubt::NotSymbolQuestion),
            Intent::Trace { .. } => self.doubts.push(Doubt::Trace),
            _ => {}
        }
        match &query.intent {
            Intent::Concept => self.concept(query),
            Intent::Trace { from, to } => {
                let args = json!({"operation": "trace", "symbol": from.name, "to": to.name});
                vec![self.call(
                    ToolName::Code,
                    args,
                    Some(Purpose::Code {
                        op: "trace",
                        sym: from.clone(),
                    }),
                )]
            }
            intent => {
                let op = operation(intent);
                let Some(sym) = intent.symbol().cloned() else {
                    return self.concept(query);
                };
                if let Some(joined) = &sym.joined {
                    let args = json!({"operation": "find", "symbol": joined});
                    return vec![self.call(
                        ToolName::Code,
                        args,
                        Some(Purpose::Joined { op, sym }),
                    )];
                }
                self.symbol_call(op, sym)
            }
        }
    }

    /// The first `code` call of a symbol question: `op` on `sym`.
    pub(super) fn symbol_call(&mut self, op: &'static str, sym: SymbolRef) -> Vec<ToolCall> {
        // "What implements sort.Interface": the package word qualifies the name first (the
        // tool resolves package-qualified names, and knows the standard library's
        // interfaces the repository does not define).
        if op == "implementations"
            && let Some(pkg) = sym.within.first()
            && !sym.name.contains('.')
        {
            let args = json!({"operation": op, "symbol": format!("{pkg}.{}", sym.name)});
            return vec![self.call(ToolName::Code, args, Some(Purpose::Qualified { op, sym }))];
        }
        // Package and module words (`sym.within`) are not sent as a `file` filter, which
        // could match nothing: the candidates are narrowed by them after.
        let args = json!({"operation": op, "symbol": sym.asked()});
        vec![self.call(ToolName::Code, args, Some(Purpose::Code { op, sym }))]
    }

    pub(super) fn on_code(
        &mut self,
        query: &Query,
        op: &'static str,
        sym: &SymbolRef,
        answer: Reply,
        list_total: usize,
        narrowed: bool,
    ) -> Vec<ToolCall> {
        let definition = op == "find" && !narrowed && matches!(query.intent, Intent::Definition(_));
        // "Which places catch InvalidVersion": the graph's calls of a type are where it is
        // raised, not caught; the `except` clauses are found in the text.
        let answer = match answer {
            Reply::Hits(hits, doubts) if op == "usages" && query::asks_where_caught(&query.raw) => {
                let hits = hits
                    .into_iter()
                    .filter(|h| h.section != Some(CodeRelation::Constructions))
                    .collect();
                Reply::Hits(hits, doubts)
            }
            other => other,
        };
        match answer {
            // A described plain word ("error type that keeps the whole trail of
            // contexts") that only matches names in another case (`Error`) is the
            // user's word for the type, not its name: the description ranks.
            Reply::Hits(hits, _)
                if definition
                    && sym.described
                    && !hits.is_empty()
                    && !hits.iter().any(|h| {
                        h.name
                            .as_deref()
                            .and_then(|n| n.rsplit('.').next())
                            .is_some_and(|n| n == sym.leaf())
                    }) =>
            {
                self.doubts.push(Doubt::NotInGraph);
                // Say "in that case" only of a name that differs in case alone; a longer
                // name that holds the word (`addToMap` for `add`) is only a near one.
                let leaf = sym.leaf();
                let recased = hits.iter().filter_map(|h| h.name.as_deref()).find(|n| {
                    n.rsplit('.')
                        .next()
                        .is_some_and(|l| l.eq_ignore_ascii_case(leaf))
                });
                self.fallback = Some(match recased {
                    Some(other) => format!(
                        "No symbol is named `{leaf}` in that case (`{other}` is), so the question reads as a description"
                    ),
                    None => format!(
                        "No symbol is named `{leaf}`, so the question reads as a description"
                    ),
                });
                self.concept_fallback(query, sym)
            }
            Reply::Hits(hits, _)
                if definition
                    && !hits.is_empty()
                    && hits
                        .iter()
                        .all(|h| h.section == Some(CodeRelation::PartialMatches)) =>
            {
                // Names that only contain the one asked for are suggestions, not its
                // definition; the text may still define it in a language the graph does
                // not parse.
                self.doubts.push(Doubt::NotInGraph);
                if sym.described {
                    return match self.text_search(op, sym, false) {
                        Some(calls) => calls,
                        None => self.concept_fallback(query, sym),
                    };
                }
                let calls = self.undefined(sym, hits);
                self.text_search(op, sym, false).unwrap_or(calls)
            }
            Reply::Hits(hits, doubts) if !hits.is_empty() => {
                // Only tests, fixtures or examples in the languages the graph parses: the
                // product itself may be in another language (Rust beside Go fixtures).
                if !narrowed
                    && matches!(op, "find" | "implementations" | "callers" | "usages")
                    && hits.iter().all(|h| classify::classify(&h.path).secondary())
                    && let Some(calls) = self.text_search(op, sym, true)
                {
                    return calls;
                }
                // No linked caller: calls at module level, through function values or
                // registries are not edges of the graph; the text may show them. Nor are
                // all uses of a type (a class instantiated in a `raise`, passed as a value).
                if matches!(op, "callers" | "usages")
                    && !narrowed
                    && hits.iter().all(|h| h.section.is_none())
                    && let Some(calls) = self.text_search(op, sym, false)
                {
                    self.doubts.push(Doubt::NotInGraph);
                    return calls;
                }
                self.doubts.extend(doubts);
                if narrowed {
                    self.doubts.push(Doubt::Ambiguous);
                }
                let hits = if op == "find" {
                    let chosen = choose_definitions(sym, hits.clone());
                    self.note_dropped(sym, &hits, &chosen);
                    self.doubt_definitions(sym, &chosen);
                    chosen
                } else if hits.iter().any(|h| h.section.is_some() && !h.inferred) {
                    // Calls the graph guessed from a name alone are noise next to linked
                    // ones, except a callee that is the only guess for its call: one
                    // method of that name in the repository (`job._modify(…)` on an
                    // untyped parameter is `Job._modify`). A guessed caller is kept (marked
                    // guessed, after the linked ones) when the guess had no rival, or
                    // when its receiver names the target's type (`self.shell.run_cell(…)`
                    // for `InteractiveShell.run_cell`): who calls a method is asked to
                    // find every call site, and in Python most are on receivers the graph
                    // cannot type.
                    let owner = hits
                        .iter()
                        .find(|h| h.section.is_none())
                        .and_then(|t| t.name.as_deref())
                        .and_then(|n| n.rsplit_once('.'))
                        .map(|(o, m)| (o.to_string(), m.to_string()));
                    let root = self.registry.root().path().to_path_buf();
                    // Each calling file is read once, however many calls it holds.
                    let mut texts: HashMap<String, Option<String>> = HashMap::new();
                    let mut likely_caller = |h: &Hit| {
                        op == "callers"
                            && (h.rivals == 0
                                || owner.as_ref().is_some_and(|(o, m)| {
                                    texts
                                        .entry(h.path.clone())
                                        .or_insert_with(|| {
                                            super::content::read_small(&root, &h.path)
                                        })
                                        .as_deref()
                                        .and_then(|t| {
                                            t.lines().nth(h.line.saturating_sub(1) as usize)
                                        })
                                        .is_some_and(|l| evidence::receiver_names(l, m, o))
                                }))
                    };
                    let only_guess = |h: &Hit| {
                        op == "callees"
                            && h.call_site.is_some()
                            && hits
                                .iter()
                                .filter(|o| o.inferred && o.call_site == h.call_site)
                                .count()
                                == 1
                    };
                    let keep: Vec<bool> = hits
                        .iter()
                        .map(|h| !h.inferred || only_guess(h) || likely_caller(h))
                        .collect();
                    hits.into_iter()
                        .zip(keep)
                        .filter_map(|(h, k)| k.then_some(h))
                        .collect()
                } else {
                    hits
                };
                // "the FromStr impl for Version": that type's implementation, when the
                // graph lists it.
                let hits = match &sym.implementor {
                    Some(ty) if op == "implementations" => {
                        let of_ty = |h: &Hit| {
                            h.section.is_none()
                                || h.name
                                    .as_deref()
                                    .is_some_and(|n| n.rsplit('.').next() == Some(ty.as_str()))
                        };
                        if hits.iter().any(|h| h.section.is_some() && of_ty(h)) {
                            hits.into_iter().filter(of_ty).collect()
                        } else {
                            hits
                        }
                    }
                    _ => hits,
                };
                // "which classes subclass Cache directly": not those through another
                // subclass (`TTLCache` via `_TimedCache`).
                let direct = |h: &Hit| h.section.is_none() || h.via.is_none();
                let hits = if op == "implementations"
                    && query::asks_direct(&query.raw)
                    && hits.iter().any(|h| h.section.is_some() && h.via.is_none())
                {
                    hits.into_iter().filter(direct).collect()
                } else {
                    hits
                };
                if op != "find"
                    && let Some(target) = hits.iter().find(|h| h.section.is_none())
                {
                    let related = hits.iter().filter(|h| h.section.is_some()).count();
                    self.certain_because = Some(format!(
                        "{op} of {} ({}) read from the code graph's linked edges, {related} found",
                        target.name.as_deref().unwrap_or(&sym.name),
                        target.kind.as_deref().unwrap_or("symbol"),
                    ));
                }
                let files: Vec<String> = if op == "usages" {
                    hits.iter().map(|h| h.path.clone()).collect()
                } else {
                    Vec::new()
                };
                self.record(op, sym, hits, list_total);
                self.table_uses(sym, &files)
            }
            Reply::Ambiguous(candidates) if !narrowed => {
                self.doubts.push(Doubt::Ambiguous);
                if candidates
                    .iter()
                    .all(|h| classify::classify(&h.path).secondary())
                    && let Some(calls) = self.text_search(op, sym, true)
                {
                    return calls;
                }
                // Overloads (`@typing.overload` stubs before the implementation) share a
                // name and a file: the tool cannot tell them apart by `file`, the text can.
                if op != "find"
                    && op != "trace"
                    && candidates.len() > 1
                    && candidates
                        .iter()
                        .all(|c| c.path == candidates[0].path && c.name == candidates[0].name)
                    && let Some(calls) = self.text_search(op, sym, false)
                {
                    return calls;
                }
                let chosen = narrow(sym, &candidates);
                if op == "find" {
                    // A find that lists several is an answer in itself.
                    let hits = choose_definitions(sym, candidates.clone());
                    self.note_dropped(sym, &candidates, &hits);
                    self.record(op, sym, hits, list_total);
                    return Vec::new();
                }
                if chosen.len() > 1 {
                    self.notes.push(format!(
                        "The name `{}` is ambiguous: {}.",
                        sym.name,
                        chosen
                            .iter()
                            .map(|c| format!(
                                "`{}` at {}:{}",
                                c.name.as_deref().unwrap_or(&sym.name),
                                c.path,
                                c.line
                            ))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                } else if let Some(c) = chosen.first() {
                    let others = candidates.len() - 1;
                    self.notes.push(format!(
                        "`{}` matched {} symbols; chose `{}` at {}:{} ({}).",
                        sym.name,
                        candidates.len(),
                        c.name.as_deref().unwrap_or(&sym.name),
                        c.path,
                        c.line,
                        if others > 0 {
                            "the others are tests, vendored or generated code, or do not match the question"
                        } else {
                            "the only one"
                        }
                    ));
                }
                let mut calls = Vec::new();
                for c in chosen.into_iter().take(4) {
                    let name = c.name.clone().unwrap_or_else(|| sym.name.clone());
                    let narrowed_sym = SymbolRef {
                        name: name.clone(),
                        kind: sym.kind,
                        within: Vec::new(),
                        params: sym.params.clone(),
                        described: false,
                        implementor: sym.implementor.clone(),
                        joined: None,
                        method_call: false,
                        excluded: Vec::new(),
                    };
                    let args = match op {
                        "trace" => {
                            let to = match &query.intent {
                                Intent::Trace { to, .. } => to.name.clone(),
                                _ => String::new(),
                            };
                            json!({"operation": op, "symbol": name, "file": c.path, "to": to})
                        }
                        _ => {
                            let mut args = json!({"operation": op, "symbol": narrowed_sym.asked(), "file": c.path});
                            // The chosen one's kind too: a file may hold a function and a
                            // method of one name (redigo's `ReceiveWithTimeout` function
                            // beside the interface method in `redis.go`).
                            if let Some(k) = c
                                .kind
                                .as_deref()
                                .filter(|k| explore_tools::code::Kind::parse(k).is_some())
                            {
                                args["kind"] = json!(k);
                            }
                            args
                        }
                    };
                    calls.push(self.call(
                        ToolName::Code,
                        args,
                        Some(Purpose::Narrowed {
                            op,
                            sym: narrowed_sym,
                        }),
                    ));
                }
                calls
            }
            // "Implementations of Zone#offset", "which classes implement Store.save": a
            // method's implementations are its owner's implementers' methods of that name.
            Reply::WrongKind { .. } if op == "implementations" && !narrowed => {
                match sym.qualifier() {
                    Some(owner) => {
                        let args = json!({"operation": "implementations", "symbol": owner});
                        vec![self.call(
                            ToolName::Code,
                            args,
                            Some(Purpose::OverrideOwners { sym: sym.clone() }),
                        )]
                    }
                    None => self.concept_fallback(query, sym),
                }
            }
            Reply::WrongKind { instead } if op == "callers" && !narrowed => {
                self.doubts.push(Doubt::WrongKind);
                // `callers` of a type is not a call relation: ask for its usages.
                if instead.contains(&Operation::Usages) {
                    let args = json!({"operation": "usages", "symbol": sym.name});
                    return vec![self.call(
                        ToolName::Code,
                        args,
                        Some(Purpose::Code {
                            op: "usages",
                            sym: sym.clone(),
                        }),
                    )];
                }
                // A constant or variable (the graph links calls and type uses only), or a
                // name the graph does not know: search the text.
                if let Some(calls) = self.text_search(op, sym, false) {
                    return calls;
                }
                self.concept_fallback(query, sym)
            }
            other => {
                self.doubts.push(match other {
                    Reply::WrongKind { .. } => Doubt::WrongKind,
                    Reply::Ambiguous(_) => Doubt::Ambiguous,
                    _ => Doubt::NotInGraph,
                });
                if narrowed && self.found.is_empty() && self.text_note.is_none() && op != "trace" {
                    // Even the narrowed name found nothing: the text may.
                    return self.text_search(op, sym, false).unwrap_or_default();
                }
                if narrowed || !self.found.is_empty() {
                    return Vec::new();
                }
                if op == "trace"
                    && other == Reply::NotFound
                    && let Intent::Trace { from, to } = &query.intent
                {
                    // No linked path: show both ends, what the start calls and what
                    // calls the target, so the gap (a registry, a decorator) is visible.
                    self.no_path = true;
                    self.notes.push(format!(
                        "The call graph has no path from `{}` to `{}` (calls through registries, decorators, interfaces or function values are not linked); shown are what `{}` calls and what calls `{}`.",
                        from.name, to.name, from.name, to.name
                    ));
                    let a = json!({"operation": "callees", "symbol": from.name});
                    let b = json!({"operation": "callers", "symbol": to.name});
                    let ca = self.call(
                        ToolName::Code,
                        a,
                        Some(Purpose::Code {
                            op: "callees",
                            sym: from.clone(),
                        }),
                    );
                    let cb = self.call(
                        ToolName::Code,
                        b,
                        Some(Purpose::Code {
                            op: "callers",
                            sym: to.clone(),
                        }),
                    );
                    return vec![ca, cb];
                }
                if op != "trace"
                    && let Some(calls) = self.text_search(op, sym, false)
                {
                    return calls;
                }
                if definition && !sym.described {
                    // Files that share the name's words are not where it is defined.
                    return self.undefined(sym, Vec::new());
                }
                self.concept_fallback(query, sym)
            }
        }
    }

    /// Says which same-named definitions an answer leaves out, and why.
    pub(super) fn note_dropped(&mut self, sym: &SymbolRef, all: &[Hit], chosen: &[Hit]) {
        let leaf = sym.leaf();
        for h in all {
            let same = h.name.as_deref().and_then(|n| n.rsplit('.').next()) == Some(leaf);
            let kept = chosen.iter().any(|c| c.path == h.path && c.line == h.line);
            let class = classify::classify(&h.path);
            if same && !kept && class.secondary() {
                let why = if class.generated {
                    "generated code"
                } else if class.vendored {
                    "vendored code"
                } else if class.test {
                    "test code"
                } else {
                    "example or fixture code"
                };
                self.notes.push(format!(
                    "`{}` at {}:{} is {why}, not the answer.",
                    h.name.as_deref().unwrap_or(leaf),
                    h.path,
                    h.line
                ));
            }
        }
    }

    /// Notes whether a `find` kept exactly one definition of the asked kind.
    fn doubt_definitions(&mut self, sym: &SymbolRef, chosen: &[Hit]) {
        match chosen {
            [one] => {
                if sym.kind.is_some_and(|k| one.kind.as_deref() != Some(k)) {
                    self.doubts.push(Doubt::KindMismatch);
                }
                self.certain_because = Some(format!(
                    "one definition of {} ({}) in the code graph",
                    one.name.as_deref().unwrap_or(&sym.name),
                    one.kind.as_deref().unwrap_or("symbol")
                ));
            }
            _ => self.doubts.push(Doubt::SeveralDefinitions),
        }
    }

    /// Records the hits of a successful `code` call as entries, and the size of its lists
    /// (`list_total`, see [`evidence::list_total`]).
    /// Uses of `sym` inside values declared at the top of `files` (the files the graph's
    /// usages answer cites, the definition's among them): a package-level table or a
    /// registry names a constant where no function does, and the graph does not see it
    /// ([`lexical::top_level_uses`]).
    fn table_uses(&mut self, sym: &SymbolRef, files: &[String]) -> Vec<ToolCall> {
        let root = self.registry.root().path().to_path_buf();
        let mut seen: Vec<&String> = Vec::new();
        let texts: Vec<(String, String)> = files
            .iter()
            .filter(|f| {
                let new = !seen.contains(f);
                seen.push(f);
                new
            })
            .take(8)
            .filter_map(|f| lexical::read_source(&root, f).map(|t| (f.clone(), t)))
            .collect();
        let leaf = sym.leaf().to_string();
        let mut calls = Vec::new();
        for h in lexical::top_level_uses(&texts, &leaf) {
            if self
                .found
                .iter()
                .any(|e| e.path == h.path && e.line == h.line)
            {
                continue;
            }
            let shown = h
                .name
                .clone()
                .unwrap_or_else(|| "a top-level value".to_string());
            // Backed by a read of its line, as every place found in the text is.
            let args = json!({"file": h.path, "start_line": h.line, "num_lines": 1});
            let entry = Entry {
                path: h.path,
                relation: Relation::Caller,
                name: h.name,
                kind: None,
                line: h.line,
                end_line: None,
                note: format!(
                    "{shown} uses {} at line {} (a value declared at the top of the file, \
                     read from the text)",
                    sym.name, h.line
                ),
                source: "read",
                target: Some(sym.name.clone()),
                guessed: false,
            };
            calls.push(self.call(
                ToolName::Read,
                args,
                Some(Purpose::TextRead {
                    entries: vec![entry],
                }),
            ));
        }
        calls
    }

    /// The owner's implementers are known: ask for every definition of the method's bare
    /// name, to keep theirs.
    pub(super) fn on_override_owners(
        &mut self,
        query: &Query,
        sym: &SymbolRef,
        answer: Reply,
    ) -> Vec<ToolCall> {
        let types: Vec<String> = match answer {
            Reply::Hits(hits, _) => hits
                .iter()
                .filter(|h| {
                    matches!(
                        h.section,
                        Some(CodeRelation::Implementations | CodeRelation::Subclasses)
                    )
                })
                .filter_map(|h| h.name.clone())
                .collect(),
            _ => Vec::new(),
        };
        if types.is_empty() {
            self.fallback = Some(format!(
                "Nothing implements or extends `{}`, so `{}` has no implementations",
                sym.qualifier().unwrap_or_default(),
                sym.name
            ));
            return self.concept_fallback(query, sym);
        }
        let args = json!({"operation": "find", "symbol": sym.leaf()});
        vec![self.call(
            ToolName::Code,
            args,
            Some(Purpose::Overrides {
                sym: sym.clone(),
                types,
            }),
        )]
    }

    /// Every definition of the method's name: the owner's own is the target, those of its
    /// implementers are the implementations.
    pub(super) fn on_overrides(
        &mut self,
        query: &Query,
        sym: &SymbolRef,
        types: &[String],
        answer: Reply,
    ) -> Vec<ToolCall> {
        let candidates = match answer {
            Reply::Hits(hits, _) | Reply::Ambiguous(hits) => hits,
            _ => Vec::new(),
        };
        let owner_of = |h: &Hit| {
            h.name
                .as_deref()
                .and_then(|n| n.rsplit_once('.'))
                .map(|(o, _)| o.to_string())
        };
        let target = candidates
            .iter()
            .find(|h| h.name.as_deref() == Some(sym.name.as_str()))
            .cloned();
        let overrides: Vec<Hit> = candidates
            .into_iter()
            .filter(|h| owner_of(h).is_some_and(|o| types.contains(&o)))
            .map(|mut h| {
                h.section = Some(CodeRelation::Implementations);
                h
            })
            .collect();
        let Some(mut target) = target.filter(|_| !overrides.is_empty()) else {
            self.fallback = Some(format!(
                "No type that implements or extends `{}` defines `{}`",
                sym.qualifier().unwrap_or_default(),
                sym.leaf()
            ));
            return self.concept_fallback(query, sym);
        };
        target.section = None;
        let mut hits = vec![target];
        hits.extend(overrides);
        self.certain_because = Some(format!(
            "implementations of {}: the methods of that name on the types that implement or \
             extend its owner, read from the code graph",
            sym.name
        ));
        self.record("implementations", sym, hits, 0);
        Vec::new()
    }

    pub(super) fn record(
        &mut self,
        op: &'static str,
        sym: &SymbolRef,
        hits: Vec<Hit>,
        list_total: usize,
    ) {
        self.ops.push(op);
        self.list_total += list_total;
        let target_name = hits
            .iter()
            .find(|h| h.section.is_none())
            .and_then(|h| h.name.clone())
            .unwrap_or_else(|| sym.name.clone());
        for (i, h) in hits.into_iter().enumerate() {
            let relation = match (&h.section, op) {
                (None, "trace") => Relation::TraceHop,
                (None, "methods") if i > 0 => Relation::Definition,
                (None, _) => Relation::Definition,
                (Some(s), _) => section_relation(*s),
            };
            let name = h.name.clone();
            let shown = name.clone().unwrap_or_else(|| sym.name.clone());
            let kind_txt = h.kind.clone().map(|k| format!("{k} ")).unwrap_or_default();
            let note = match relation {
                Relation::Definition if op == "methods" && h.section.is_some() => match &h.via {
                    Some(base) => format!(
                        "Method {shown} at line {}, inherited by {target_name} from {base}",
                        h.line
                    ),
                    None => format!("Method {shown} at line {}", h.line),
                },
                Relation::Definition => format!("Defines {kind_txt}{shown} at line {}", h.line),
                Relation::Caller => {
                    if op == "usages" {
                        format!("{shown} uses {target_name} at line {}", h.line)
                    } else if h.inferred {
                        format!(
                            "{shown} calls {target_name} at line {} (guessed from the name: \
                             the receiver's type is not known)",
                            h.line
                        )
                    } else {
                        format!("{shown} calls {target_name} at line {}", h.line)
                    }
                }
                Relation::Callee if h.inferred => format!(
                    "Defines {kind_txt}{shown} at line {}, called by {target_name} (guessed: \
                     the only method of that name)",
                    h.line
                ),
                Relation::Callee => format!(
                    "Defines {kind_txt}{shown} at line {}, called by {target_name}",
                    h.line
                ),
                Relation::Implementation => {
                    format!(
                        "{shown} ({}) implements {target_name}, at line {}",
                        h.kind.as_deref().unwrap_or("type"),
                        h.line
                    )
                }
                Relation::Supertype => format!(
                    "{target_name} implements {} {shown}, declared at line {}",
                    h.kind.as_deref().unwrap_or("type"),
                    h.line
                ),
                Relation::TraceHop => format!(
                    "Step {shown} ({}) at line {}",
                    h.kind.as_deref().unwrap_or("symbol"),
                    h.line
                ),
                Relation::Concept { .. } => format!("{shown} at line {}", h.line),
            };
            // Callees and trace hops also say where they are called: cite the call site in
            // the calling file.
            if let Some((site_path, site_line)) = &h.call_site {
                self.found.push(Entry {
                    path: site_path.clone(),
                    relation: if op == "trace" {
                        Relation::TraceHop
                    } else {
                        Relation::Definition
                    },
                    name: None,
                    kind: None,
                    line: *site_line,
                    end_line: None,
                    note: format!("Calls {shown} at line {site_line}"),
                    source: "code",
                    target: Some(target_name.clone()),
                    guessed: false,
                });
            }
            // A caller that calls more than once: every call site is a location.
            if relation == Relation::Caller {
                for &line in h.calls.iter().skip(1).filter(|&&l| l != h.line) {
                    self.found.push(Entry {
                        path: h.path.clone(),
                        relation,
                        name: name.clone(),
                        kind: h.kind.clone(),
                        line,
                        end_line: Some(line),
                        note: format!("{shown} calls {target_name} again at line {line}"),
                        source: "code",
                        target: Some(target_name.clone()),
                        guessed: false,
                    });
                }
            }
            self.found.push(Entry {
                path: h.path,
                relation,
                name,
                kind: h.kind,
                line: h.line,
                end_line: h.end_line,
                note,
                source: "code",
                target: Some(target_name.clone()),
                guessed: h.inferred,
            });
        }
    }

    pub(super) fn concept_fallback(&mut self, query: &Query, sym: &SymbolRef) -> Vec<ToolCall> {
        // Not a word of any source file: nothing to rank, unless the name was only the
        // user's word for what the question describes ("the colored JSON writer"): the
        // description's words rank.
        if self.unmentioned.is_some() && !sym.described {
            return Vec::new();
        }
        self.name_terms = text::index_terms(&sym.name);
        if self.fallback.is_none() {
            self.fallback = Some(format!("No symbol `{}` was found", sym.name));
        }
        // Search by the symbol's words ("FrobnicateQuux" → frobnicate, quux) as well as
        // the rest of the question.
        let mut q = query.clone();
        for t in text::index_terms(&sym.name) {
            if !q.terms.contains(&t) {
                q.terms.push(t);
                q.weights.push(1.0);
            }
        }
        self.concept(&q)
    }
}

/// The `code` operation for a symbol intent.
pub(super) fn operation(intent: &Intent) -> &'static str {
    match intent {
        Intent::Definition(_) => "find",
        Intent::Callers(_) => "callers",
        Intent::Callees(_) => "callees",
        Intent::Implementations(_) => "implementations",
        Intent::Methods(_) => "methods",
        Intent::Trace { .. } => "trace",
        Intent::Concept => "find",
    }
}

/// How a place in a `code` answer relates to the question's symbol, by the section it
/// came in.
pub(super) fn section_relation(section: CodeRelation) -> Relation {
    match section {
        CodeRelation::Path => Relation::TraceHop,
        CodeRelation::Callers
        | CodeRelation::Through
        | CodeRelation::UsedBy
        | CodeRelation::References
        | CodeRelation::Constructions => Relation::Caller,
        CodeRelation::Callees => Relation::Callee,
        CodeRelation::Implementations | CodeRelation::Subclasses => Relation::Implementation,
        CodeRelation::Implements => Relation::Supertype,
        CodeRelation::Methods | CodeRelation::Definitions | CodeRelation::PartialMatches => {
            Relation::Definition
        }
    }
}

pub(super) fn kind_matches(want: &str, got: &str) -> bool {
    want == got
        || (want == "class" && matches!(got, "struct" | "interface" | "type"))
        || (want == "type" && matches!(got, "struct" | "interface" | "class"))
        || (want == "function" && got == "method")
        || (want == "method" && got == "function")
}

/// Narrows candidates of an ambiguous name: the question's qualifier, then its kind, then
/// real code over tests, vendored and generated code. What is left may still be several.
pub(super) fn narrow(sym: &SymbolRef, candidates: &[Hit]) -> Vec<Hit> {
    let mut c: Vec<Hit> = candidates.to_vec();
    // Package, module and file words: the candidates that match most of them, if any do.
    if !sym.within.is_empty() {
        let score = |h: &Hit| sym.within.iter().filter(|w| lives_in(h, w)).count();
        let best = c.iter().map(score).max().unwrap_or(0);
        if best > 0 {
            c.retain(|h| score(h) == best);
        }
    }
    // Places a negated clause ruled out: the candidates that live in fewest of them.
    if !sym.excluded.is_empty() {
        let score = |h: &Hit| sym.excluded.iter().filter(|w| lives_in(h, w)).count();
        let fewest = c.iter().map(score).min().unwrap_or(0);
        c.retain(|h| score(h) == fewest);
    }
    if let Some(q) = sym.qualifier() {
        let q = q.to_lowercase();
        let keep: Vec<Hit> = c
            .iter()
            .filter(|h| {
                let name = h.name.as_deref().unwrap_or("").to_lowercase();
                name.starts_with(&format!("{q}.")) || h.path.to_lowercase().contains(&q)
            })
            .cloned()
            .collect();
        if !keep.is_empty() {
            c = keep;
        }
    }
    if let Some(k) = sym.kind {
        // The kind asked for exactly ("the standalone ReadFile function"), else a close
        // one (a "class" that is a struct).
        let exact: Vec<Hit> = c
            .iter()
            .filter(|h| h.kind.as_deref() == Some(k))
            .cloned()
            .collect();
        let keep: Vec<Hit> = if exact.is_empty() {
            c.iter()
                .filter(|h| h.kind.as_deref().is_some_and(|g| kind_matches(k, g)))
                .cloned()
                .collect()
        } else {
            exact
        };
        if !keep.is_empty() {
            c = keep;
        }
    }
    let primary: Vec<Hit> = c
        .iter()
        .filter(|h| !classify::classify(&h.path).secondary())
        .cloned()
        .collect();
    if !primary.is_empty() {
        c = primary;
    }
    c
}

/// Whether a place word of the question (`afero`, `mem`, `validate`, `text`) names where
/// `h` lives: a segment of its package or module path, a directory, or its file's stem
/// or a word of it (`text` in `text_formatter.go`).
pub(super) fn lives_in(h: &Hit, word: &str) -> bool {
    let word = word.to_lowercase();
    if word.contains('/') || word.contains('.') {
        // A path the question gave: a suffix of the file's path, or a directory of it.
        let path = h.path.to_lowercase();
        let word = word.trim_start_matches("./").trim_end_matches('/');
        let at = |word: &str| {
            path == word
                || path.ends_with(&format!("/{word}"))
                || path.starts_with(&format!("{word}/"))
                || path.contains(&format!("/{word}/"))
        };
        if at(word) {
            return true;
        }
        // A dotted module path (`glom.streaming`, `dateutil.tz`): the file or package
        // directory it names.
        if !word.contains('/') {
            let module = word.replace('.', "/");
            let bare = path.rsplit_once('.').map_or(path.as_str(), |(p, _)| p);
            return bare == module || bare.ends_with(&format!("/{module}")) || at(&module);
        }
        // An import path that starts with the package's own name
        // (`@reduxjs/toolkit/query/react`, `github.com/x/y/cli`): its last two segments.
        let segments: Vec<&str> = word.split('/').filter(|s| !s.is_empty()).collect();
        return segments.len() > 2 && at(&segments[segments.len() - 2..].join("/"));
    }
    let owner_path = h
        .qname
        .as_deref()
        .and_then(|q| h.name.as_deref().and_then(|n| q.strip_suffix(n)))
        .unwrap_or("");
    let in_qname = owner_path
        .split(['/', '.'])
        .any(|seg| seg.eq_ignore_ascii_case(&word));
    let path = h.path.to_lowercase();
    let mut segments: Vec<&str> = path.split('/').collect();
    let file = segments.pop().unwrap_or("");
    let stem = file.split('.').next().unwrap_or(file);
    // A directory may say it in the plural (`schedulers/` for "scheduler").
    let same = |d: &str| d == word || d.strip_suffix('s') == Some(word.as_str());
    // "scheduler.add_job": a lower-case qualifier is often the variable a user holds the
    // owner in, named for a word of its type (`BaseScheduler`).
    let owner_word = h
        .name
        .as_deref()
        .and_then(|n| n.rsplit_once('.'))
        .is_some_and(|(owner, _)| {
            // "responseLogger's WriteHeader": the owner itself, in lower case.
            owner.eq_ignore_ascii_case(&word)
                || text::split_words(owner)
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case(&word))
        });
    in_qname
        || owner_word
        || segments.iter().any(|d| same(d))
        || stem.trim_start_matches('_') == word
        || stem.split(['_', '-']).any(|w| w == word)
}

/// The definitions worth citing from a `find`: exact names first (a `find` may also list
/// partial matches), narrowed as for an ambiguous name.
pub(super) fn choose_definitions(sym: &SymbolRef, hits: Vec<Hit>) -> Vec<Hit> {
    let leaf = sym.leaf();
    let whole = |h: &Hit| h.name.as_deref() == Some(sym.name.as_str());
    let exact: Vec<Hit> = hits
        .iter()
        .filter(|h| whole(h) || h.name.as_deref().and_then(|n| n.rsplit('.').next()) == Some(leaf))
        .cloned()
        .collect();
    // A kind word outranks letter case: "the blueprint class" is the class `Blueprint`,
    // not the property `Request.blueprint` that matches its case.
    let fits = |h: &Hit| {
        sym.kind.is_some_and(|k| {
            h.kind
                .as_deref()
                .is_some_and(|g| g == k || kind_matches(k, g))
        })
    };
    let kind_elsewhere = !exact.iter().any(fits) && hits.iter().any(fits);
    let pool = if exact.is_empty() || kind_elsewhere {
        hits
    } else {
        exact
    };
    let mut chosen = narrow(sym, &pool);
    chosen.iter_mut().for_each(|h| h.section = None);
    // The name as written comes first ("Code": the type before the method `Error.Code`);
    // then a method defined in the file named after its type (`LedgerService.
    // post_transaction` in `ledger_service.py`, `Planner.Plan` in `planner.go`), the
    // primary definition, before overrides elsewhere.
    chosen.sort_by_key(|h| {
        let owner = h
            .name
            .as_deref()
            .and_then(|n| n.rsplit_once('.'))
            .map(|(o, _)| text::split_words(o).join("_"));
        let stem = h
            .path
            .rsplit('/')
            .next()
            .and_then(|f| f.split('.').next())
            .unwrap_or("")
            .to_lowercase();
        // A pasted `view.posAtCoords(…)` calls a method: methods of the name first.
        let not_method = sym.method_call && h.kind.as_deref() != Some("method");
        // The product's definition before a test's or a mock's of the same name (tokio's
        // `JoinHandle` in `runtime/task/join.rs`, not the one in `fs/mocks.rs`).
        let secondary = classify::classify(&h.path).secondary();
        (
            not_method,
            !whole(h),
            secondary,
            !exported(h),
            owner.is_none_or(|o| o != stem),
        )
    });
    chosen
}

/// Whether a definition is visible outside its module, where the language says so in a
/// way the index keeps: a Rust item declared `pub` (not `pub(crate)` or private; a method
/// counts as visible, since a trait's are public without the word), a Go name that starts
/// with a capital, a Python name without a leading underscore on it or its owner. Other
/// languages: visible. Of several definitions of one name, the one a user of the code
/// meets comes first: tokio's `pub struct JoinHandle` in `runtime/task/join.rs`, before
/// the `pub(crate)` stand-ins of `blocking.rs`.
fn exported(h: &Hit) -> bool {
    use explore_tools::code::Language;
    let name = h.name.as_deref().unwrap_or_default();
    let leaf = name.rsplit('.').next().unwrap_or(name);
    match Language::of_path(&h.path) {
        Some(Language::Rust) => {
            h.kind.as_deref() == Some("method")
                || h.signature.as_deref().is_some_and(|s| {
                    s.trim_start()
                        .strip_prefix("pub")
                        .is_some_and(|rest| rest.starts_with(char::is_whitespace))
                })
        }
        Some(Language::Go) => leaf.chars().next().is_some_and(char::is_uppercase),
        Some(Language::Python) => !name
            .split('.')
            .any(|part| part.starts_with('_') && !part.starts_with("__")),
        // A module's own declaration (`function textNodeBefore(…)` in a file that
        // exports another of the name) is local; a member, an `export`ed or `declare`d
        // one and anything CommonJS assigns (`exports.f = …`) is visible. An
        // `export { f }` list after the declaration is not in the signature: such a
        // definition reads as local, which only orders it after an `export`ed rival.
        Some(Language::TypeScript | Language::Tsx | Language::JavaScript) => {
            h.kind.as_deref() == Some("method")
                || h.signature.as_deref().is_none_or(|s| {
                    let s = s.trim_start();
                    let local = [
                        "function ",
                        "function*",
                        "async ",
                        "class ",
                        "abstract ",
                        "interface ",
                        "type ",
                        "enum ",
                        "const ",
                        "let ",
                        "var ",
                    ];
                    !local.iter().any(|k| s.starts_with(k))
                })
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method(name: &str, path: &str) -> Hit {
        Hit {
            name: Some(name.into()),
            qname: Some(format!("handlers.{name}")),
            kind: Some("method".into()),
            path: path.into(),
            line: 1,
            end_line: None,
            section: None,
            call_site: None,
            calls: Vec::new(),
            inferred: false,
            origin: Default::default(),
            via: None,
            signature: None,
            rivals: 0,
        }
    }

    #[test]
    fn a_definition_is_exported_as_its_language_says() {
        let def = |name: &str, kind: &str, path: &str, sig: &str| Hit {
            kind: Some(kind.into()),
            signature: (!sig.is_empty()).then(|| sig.to_string()),
            ..method(name, path)
        };
        assert!(exported(&def(
            "JoinHandle",
            "struct",
            "src/join.rs",
            "pub struct JoinHandle<T> {"
        )));
        assert!(!exported(&def(
            "JoinHandle",
            "struct",
            "src/blocking.rs",
            "pub(crate) struct JoinHandle<R> {"
        )));
        assert!(!exported(&def(
            "Inner",
            "struct",
            "src/a.rs",
            "struct Inner {"
        )));
        assert!(!exported(&def(
            "publish",
            "function",
            "src/a.rs",
            "fn publish() {"
        )));
        assert!(exported(&def(
            "Task.poll",
            "method",
            "src/a.rs",
            "fn poll(self: Pin<&mut Self>)"
        )));
        assert!(exported(&def("Client", "struct", "client.go", "")));
        assert!(!exported(&def("errorConn", "struct", "pool.go", "")));
        assert!(exported(&def("Pool.__init__", "method", "pool.py", "")));
        assert!(!exported(&def("_Pool.get", "method", "pool.py", "")));
        assert!(!exported(&def("_helper", "function", "pool.py", "")));
        assert!(exported(&def("anything", "function", "a.ts", "")));
        assert!(exported(&def(
            "textNodeBefore",
            "function",
            "src/dom.ts",
            "export function textNodeBefore(node: Node)"
        )));
        assert!(!exported(&def(
            "textNodeBefore",
            "function",
            "src/capturekeys.ts",
            "function textNodeBefore(node: Node)"
        )));
        assert!(exported(&def(
            "f",
            "function",
            "lib/a.js",
            "exports.f = function (x)"
        )));
        // A top-level assignment to a name that starts with the keyword's letters is no
        // declaration; a generator is one.
        assert!(exported(&def(
            "functionTable",
            "variable",
            "lib/a.js",
            "functionTable = {}"
        )));
        assert!(!exported(&def(
            "walk",
            "function",
            "lib/a.js",
            "function* walk(node)"
        )));
    }

    #[test]
    fn an_owner_said_in_lower_case_is_where_a_method_lives() {
        let logger = method("responseLogger.WriteHeader", "handlers.go");
        let compress = method("compressResponseWriter.WriteHeader", "compress.go");
        // "responseLogger's WriteHeader": the whole owner, lower-cased.
        assert!(lives_in(&logger, "responselogger"));
        assert!(!lives_in(&compress, "responselogger"));
        // A word of the owner ("the logger's WriteHeader") as before.
        assert!(lives_in(&logger, "logger"));
        assert!(!lives_in(&compress, "logger"));
    }

    #[test]
    fn a_module_or_import_path_names_the_file_it_resolves_to() {
        let def = |path: &str| Hit {
            kind: Some("class".into()),
            ..method("First", path)
        };
        let streaming = def("glom/streaming.py");
        let grouping = def("glom/grouping.py");
        // A dotted module path: the module file, or a package directory.
        assert!(lives_in(&streaming, "glom.streaming"));
        assert!(!lives_in(&grouping, "glom.streaming"));
        assert!(lives_in(&def("src/dateutil/tz/tz.py"), "dateutil.tz"));
        assert!(!lives_in(
            &def("src/dateutil/zoneinfo/__init__.py"),
            "dateutil.tz"
        ));
        // An import path that starts with the package's name: its last two segments.
        let react = def("src/query/react/index.ts");
        let core = def("src/query/core/index.ts");
        assert!(lives_in(&react, "@reduxjs/toolkit/query/react"));
        assert!(!lives_in(&core, "@reduxjs/toolkit/query/react"));
    }

    #[test]
    fn a_negated_place_drops_the_definitions_that_live_there() {
        let def = |path: &str| Hit {
            kind: Some("function".into()),
            ..method("getType", path)
        };
        let mut sym = super::super::query::parse("where is getType defined")
            .intent
            .symbol()
            .cloned()
            .expect("a symbol question");
        sym.excluded = vec!["createaction".into(), "exports".into()];
        let kept = narrow(
            &sym,
            &[def("src/createAction.ts"), def("src/createSlice.ts")],
        );
        assert_eq!(
            kept.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(),
            ["src/createSlice.ts"]
        );
        // A word every candidate shares rules none out.
        sym.excluded = vec!["src".into()];
        assert_eq!(narrow(&sym, &[def("src/a.ts"), def("src/b.ts")]).len(), 2);
    }
}
