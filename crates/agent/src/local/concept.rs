//! Concept questions: ranking files by the question's words, reading the best ranges so
//! every citation is backed, and following the best symbol one step through the call
//! graph.

use super::report;
use super::*;

impl LocalPolicy {
    pub(super) fn lex_index(&self) -> Arc<LexIndex> {
        self.lex_index_from(true)
    }

    /// The ranking's index, shared by the engines of this process: from the persisted
    /// file when `persisted` allows it and the file is fresh for the warm code store,
    /// else built (and written for the next process).
    fn lex_index_from(&self, persisted: bool) -> Arc<LexIndex> {
        let mut guard = match self.index.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(idx) = guard.as_ref() {
            return idx.clone();
        }
        let idx = Arc::new(match &self.corpus_source {
            Some(src) => LexIndex::build(src()),
            None => self.load_lex_index(persisted),
        });
        *guard = Some(idx.clone());
        idx
    }

    /// Loads or builds the index of the registry's repository (see [`lexfile`]).
    fn load_lex_index(&self, persisted: bool) -> LexIndex {
        let root = self.registry.root().path();
        let code = self.registry.code();
        let file = code.cache_path().map(|c| lexfile::path_for(&c));
        // A warm store gives the corpus without loading the whole graph, and keys the
        // persisted index.
        if let Some(store) = code.warm_store() {
            if persisted && let Some(path) = &file {
                match lexfile::open(path, root, store.key()) {
                    Ok(idx) => return idx,
                    Err(e) if e.is_expected() => {
                        tracing::debug!("the lexical index {} is rebuilt: {e}", path.display());
                    }
                    Err(e) => tracing::warn!(
                        "the lexical index {} cannot be used ({e}); rebuilding",
                        path.display()
                    ),
                }
            }
            if let Some(corpus) = corpus::from_store(&*store).filter(|_| store.failure().is_none())
            {
                return self.build_and_save(corpus, file.as_deref(), Some(store.key()));
            }
        }
        match code.graph() {
            Ok(g) if !g.symbols().is_empty() => {
                let corpus = corpus::from_graph(&g);
                drop(g);
                // Keyed by the store the refresh just wrote, if the tree did not change
                // since (else the next question builds it again).
                let key = file
                    .as_ref()
                    .and_then(|_| code.fresh_store())
                    .map(|s| s.key());
                self.build_and_save(corpus, file.as_deref(), key)
            }
            _ => self.build_and_save(scan::scan_repo(root), None, None),
        }
    }

    /// [`lexfile::build_and_save`] over this engine's list of source files.
    fn build_and_save(
        &self,
        corpus: Corpus,
        file: Option<&std::path::Path>,
        key: Option<[u8; 16]>,
    ) -> LexIndex {
        let files = self.source_files();
        lexfile::build_and_save(corpus, self.registry.root().path(), &files, file, key)
    }

    /// Drops a persisted index that a lookup found damaged (its answers may be short):
    /// removes the file and builds the index again, in memory and on disk.
    fn rebuild_damaged(&self, why: &str) -> Arc<LexIndex> {
        if let Some(path) = self
            .registry
            .code()
            .cache_path()
            .map(|c| lexfile::path_for(&c))
        {
            tracing::warn!(
                "the lexical index {} cannot be used ({why}); rebuilding",
                path.display()
            );
            let _ = std::fs::remove_file(path);
        }
        if let Ok(mut guard) = self.index.lock() {
            *guard = None;
        }
        self.lex_index_from(false)
    }

    /// Ranks files for a concept question and reads the best ranges of the chosen ones.
    pub(super) fn concept(&mut self, query: &Query) -> Vec<ToolCall> {
        let idx = self.lex_index();
        let calls = self.concept_with(query, &idx);
        match idx.failure() {
            Some(why) => {
                for c in &calls {
                    self.pending.remove(&c.id);
                }
                let idx = self.rebuild_damaged(&why);
                self.absent.clear();
                self.concept_with(query, &idx)
            }
            None => calls,
        }
    }

    fn concept_with(&mut self, query: &Query, idx: &Arc<LexIndex>) -> Vec<ToolCall> {
        let root = self.registry.root().path().to_path_buf();
        let focus = classify::Focus::of(&query.terms);
        let mut contents: HashMap<String, String> = HashMap::new();
        let mut content = |rel: &str| -> Option<HashMap<String, f64>> {
            let text = read_small(&root, rel)?;
            let terms = rank::content_terms(&text);
            contents.insert(rel.to_string(), text);
            Some(terms)
        };
        // The project's own name ("where does chi respond with 405") matches a file that
        // carries it, not the topic.
        let project = project::words(&root, idx.files());
        let weights = term_weights(idx, &query.terms, &query.weights, &project);
        let hints = signals::of(&query.raw);
        let bonuses = signals::bonuses(idx, &hints, &mut |rel| read_small(&root, rel));
        // A pasted report is ranked by every file's content (see `report`); a question by
        // names and docs, with the content of a shortlist.
        let (ranked, report_index) = if signals::is_report(&query.raw) {
            let read = |rel: &str| read_small(&root, rel);
            let (ranked, content) = report::rank_report(idx, &query.raw, &bonuses, &read);
            (ranked, Some(content))
        } else {
            let also = content_candidates(idx, &query.terms, &weights, focus, &|rel| {
                read_small(&root, rel)
            });
            let mut ranked = idx.rank_with(&query.terms, &weights, &mut content, focus, &also);
            rerank_by_bodies(
                idx,
                &mut ranked,
                &query.terms,
                &weights,
                &query.raw,
                focus,
                &|rel| {
                    contents
                        .get(rel)
                        .cloned()
                        .or_else(|| read_small(&root, rel))
                },
            );
            // `-vv`: why each file is where it is, as for a report ("report rank:").
            for r in ranked.iter().take(12) {
                tracing::debug!(
                    "concept rank: {} score={:.3} lexical={:.3} evidence={:.3} from_text={} named={} matched={:?}",
                    idx.files()[r.file],
                    r.score,
                    r.lexical,
                    r.evidence,
                    also.contains(&r.file),
                    r.named,
                    r.matched
                );
            }
            // The words choose the files (a report's hints must not crowd them out by
            // raising the bar); the hints add the files they point at and reorder.
            let chosen: Vec<usize> = LexIndex::select(ranked.clone())
                .iter()
                .map(|r| r.file)
                .collect();
            let pointed: Vec<usize> = bonuses
                .iter()
                .filter(|b| b.1 >= MIN_SIGNAL)
                .map(|b| b.0)
                .collect();
            lift_named(&mut ranked, bonuses);
            let kept: Vec<rank::RankedFile> = ranked
                .into_iter()
                .filter(|r| chosen.contains(&r.file) || pointed.contains(&r.file))
                .take(rank::MAX_FILES)
                .collect();
            (kept, None)
        };
        // A question naming something the repository never mentions ("where is the
        // GraphQL schema", "Kafka", "Redis") is not answered by whatever matches its
        // other words. A kind word ("what methods does …") is not a topic, nor a word
        // whose close synonym the repository uses ("the lexer" of a code base that calls
        // it its scanner).
        let unknown: Vec<&String> = query
            .terms
            .iter()
            .zip(&query.weights)
            .filter(|(t, w)| {
                **w >= 1.0
                    && !idx.knows(t)
                    && !query::is_kind_term(t)
                    && !text::synonyms(t)
                        .iter()
                        .any(|(s, sw)| *sw >= 0.7 && idx.knows(s))
            })
            .map(|(t, _)| t)
            .collect();
        if !unknown.is_empty() {
            let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
            for c in contents.values() {
                seen.extend(text::index_terms(c));
            }
            let absent: Vec<String> = unknown
                .into_iter()
                .filter(|t| {
                    !seen.contains(*t)
                        && !report_index.as_ref().is_some_and(|c| c.knows(t))
                        && !text::near_stopword(t)
                })
                .cloned()
                .collect();
            // A missing word is the question's topic when it is a name (capitalised:
            // GraphQL, Kafka, Redis) or when at most one other word is found ("where is
            // the flux capacitor", "the zebra quokka bookkeeping"); with two or more found
            // it is phrasing, the user's words for what the code says otherwise ("how do
            // stale entries get dropped from the time to live cache": the found words
            // rank, and `MIN_EVIDENCE` still stops an answer that only a word of every
            // file would give).
            let present = query
                .terms
                .iter()
                .zip(&query.weights)
                .filter(|(t, w)| **w >= 1.0 && !absent.contains(t))
                .count();
            // Only a short question is about its missing word: in a long one (a bug
            // report, a paragraph) a word no file contains is ignored, and the answer
            // stops only when nothing it says matches.
            let asked = present + absent.len();
            let short = asked <= SHORT_QUESTION_TERMS;
            if !absent.is_empty()
                && (present == 0
                    || (short
                        && (present == 1
                            || absent.iter().any(|t| {
                                capitalised_in(&query.raw, t) || self.name_terms.contains(t)
                            }))))
            {
                self.absent = absent;
                return Vec::new();
            }
        }
        // The function whose body does what the question asks, in each of the best files
        // (see [`body`]): cited first, beside the symbols whose names match.
        let phrases = body::quoted(&query.raw);
        let names = body::code_names(&query.raw);
        // Within a file the action is what tells its functions apart ("resolved": the
        // file's `ref_to_obj`, beside `obj_to_ref` that shares every topic word), so an
        // action word counts more there ([`CITE_ACTION_WEIGHT`]); the rarity among the
        // file's functions still discounts one most of them do.
        let cite_weights: Vec<f64> = weights
            .iter()
            .zip(&query.weights)
            .map(|(&w, &asked)| if asked < 1.0 { CITE_ACTION_WEIGHT } else { w })
            .collect();
        let type_kinds = query::asked_type_kinds(&query.raw);
        const ANY_TYPE: &[&str] = &["struct", "interface", "class", "type"];
        let noun_phrase = {
            let first = query
                .raw
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_lowercase();
            matches!(first.as_str(), "the" | "a" | "an" | "one")
                && query.raw.split_whitespace().count() <= 20
        };
        let bodies: Vec<Vec<usize>> = ranked
            .iter()
            .enumerate()
            .map(|(rank, r)| {
                if rank >= body::FILES {
                    return Vec::new();
                }
                let path = &idx.files()[r.file];
                let text = match contents.get(path) {
                    Some(t) => Some(t.clone()),
                    None => read_small(&root, path),
                };
                let Some(text) = text else {
                    return Vec::new();
                };
                let question = body::Question {
                    terms: &query.terms,
                    weights: &cite_weights,
                    phrases: &phrases,
                    names: &names,
                };
                let all = body::rank_bodies(idx, r.file, &text, &question);
                // `-vv`: which functions of the file match the question, and how well.
                for m in all.iter().take(5) {
                    tracing::debug!(
                        "body rank: {path} {} score={:.3} terms={:.1} strong={}",
                        idx.symbol(m.symbol).unwrap_or_default().display,
                        m.score,
                        m.terms,
                        m.strong()
                    );
                }
                let mut chosen = body::chosen(&all, rank == 0);
                // A question describing a type ("the enum saying …") is answered by the
                // type whose doc and fields say it, cited before any function.
                // A short noun phrase with no type word ("the query path step that takes
                // [start:end:step]") may describe a type too: its best one is cited
                // first only when it outscores the best body, and never moved.
                let Some(kinds) = type_kinds.or(noun_phrase.then_some(ANY_TYPE)) else {
                    return chosen;
                };
                let types = body::rank_types(idx, r.file, &text, &question, kinds);
                let Some(m) = types.first().filter(|m| m.strong()) else {
                    return chosen;
                };
                tracing::debug!(
                    "type rank: {path} {} score={:.3} terms={:.1}",
                    idx.symbol(m.symbol).unwrap_or_default().display,
                    m.score,
                    m.terms
                );
                if type_kinds.is_some() {
                    chosen.retain(|&si| si != m.symbol);
                    chosen.insert(0, m.symbol);
                } else if !chosen.contains(&m.symbol) {
                    if all.first().is_none_or(|b| m.score >= b.score) {
                        chosen.insert(0, m.symbol);
                    } else {
                        chosen.push(m.symbol);
                    }
                }
                chosen
            })
            .collect();
        // The symbol to follow through the call graph (see below), cited in the top file.
        let symbol = |si: usize| idx.symbol(si).unwrap_or_default();
        let callable = |si: &&usize| matches!(symbol(**si).kind.as_str(), "function" | "method");
        let how = query.raw.to_lowercase().starts_with("how");
        let pick = ranked.first().and_then(|top| {
            if how {
                top.symbols.iter().find(callable).copied()
            } else {
                top.symbols
                    .iter()
                    .filter(callable)
                    .max_by_key(|&&si| (idx.callers_of(si), std::cmp::Reverse(si)))
                    .copied()
            }
        });
        let mut plans: Vec<Plan> = Vec::new();
        for (rank, r) in ranked.iter().enumerate() {
            let path = idx.files()[r.file].clone();
            let mut cites: Vec<Cite> = r
                .symbols
                .iter()
                .take(3)
                .map(|&si| {
                    let s = symbol(si);
                    Cite {
                        line: s.line,
                        end_line: s.end_line.max(s.line),
                        symbol: Some(s.display.clone()),
                        kind: Some(s.kind.clone()),
                    }
                })
                .collect();
            // A question about entry points wants the `main` function itself.
            if focus.entry
                && let Some(s) = idx
                    .symbols_in(r.file)
                    .into_iter()
                    .map(symbol)
                    .find(|s| s.name == "main" && s.kind == "function")
                && !cites.iter().any(|c| c.line == s.line)
            {
                cites.insert(
                    0,
                    Cite {
                        line: s.line,
                        end_line: s.end_line.max(s.line),
                        symbol: Some(s.display.clone()),
                        kind: Some(s.kind.clone()),
                    },
                );
            }
            if rank == 0
                && let Some(si) = pick
                && !r.symbols.iter().take(3).any(|&x| x == si)
            {
                let s = symbol(si);
                cites.push(Cite {
                    line: s.line,
                    end_line: s.end_line.max(s.line),
                    symbol: Some(s.display.clone()),
                    kind: Some(s.kind.clone()),
                });
            }
            // A file with no symbol to cite (a report's ranking reads no shortlist) cites
            // its line that holds most of the question's words.
            if cites.is_empty()
                && let Some(text) = contents
                    .get(&path)
                    .cloned()
                    .or_else(|| read_small(&root, &path))
                && let Some(line) = best_line(&text, &query.terms)
            {
                cites.push(Cite {
                    line,
                    end_line: line,
                    symbol: None,
                    kind: None,
                });
            }
            let types = !r.symbols.is_empty()
                && r.symbols
                    .iter()
                    .take(3)
                    .filter(|&&si| {
                        matches!(
                            symbol(si).kind.as_str(),
                            "interface" | "struct" | "class" | "type"
                        )
                    })
                    .count()
                    * 2
                    > r.symbols.len().min(3);
            // The best body match goes first (the answer names a file's first citation),
            // the others after the names. One already cited by name only moves to the
            // front (it costs no read).
            let mut body = Vec::new();
            let mut body_first = false;
            for (k, &si) in bodies.get(rank).into_iter().flatten().enumerate() {
                let c = cite_of(&symbol(si));
                match cites.iter().position(|x| x.line == c.line) {
                    Some(at) if k == 0 => {
                        let c = cites.remove(at);
                        cites.insert(0, c);
                    }
                    Some(_) => {}
                    None => {
                        body_first |= k == 0;
                        body.push(c);
                    }
                }
            }
            plans.push(Plan {
                rank,
                path,
                cites,
                body,
                body_first,
                matched: r.matched.clone(),
                types,
            });
        }
        // One read per stretch of nearby citations: a single window over citations 300
        // lines apart would be cut, and the cut-off ones (often the function that does
        // it) dropped. Body matches must not push other calls past the turn's limit.
        fit_reads(&mut plans, usize::from(pick.is_some()));
        let mut calls = Vec::new();
        for Plan {
            rank,
            path,
            cites,
            matched,
            types,
            ..
        } in plans
        {
            for group in clusters(cites) {
                let (start, num) = window(&group);
                let file = ConceptFile {
                    path: path.clone(),
                    rank,
                    cites: group,
                    matched: matched.clone(),
                    types,
                };
                let args = json!({"file": path, "start_line": start, "num_lines": num});
                calls.push(self.call(ToolName::Read, args, Some(Purpose::Read { file })));
            }
        }
        // Follow the best file's best callable one step through the call graph. "How"
        // follows it down: what it hands off to is part of the answer (the handler's
        // signature check, router and ingest) even when those files do not repeat the
        // question's words. Otherwise follow the most-used match up: who relies on it.
        if let Some(top) = ranked.first()
            && let Some(si) = pick
        {
            let s = symbol(si);
            let op = if how { "callees" } else { "callers" };
            let path = idx.files()[top.file].clone();
            let args = json!({"operation": op, "symbol": s.display, "file": path});
            let from = s.display.clone();
            calls.push(self.call(
                ToolName::Code,
                args,
                Some(Purpose::Expand {
                    op,
                    from,
                    path,
                    index: idx.clone(),
                }),
            ));
        }
        calls
    }

    /// Adds what a concept answer's best symbol leads to: its callers (first-party, in
    /// other files), or its specific callees: first-party code in other files that few
    /// others call (helpers called from everywhere, like an error constructor, say nothing
    /// about this question).
    pub(super) fn on_expand(
        &mut self,
        op: &str,
        from: &str,
        path: &str,
        idx: &LexIndex,
        result: &ToolResult,
    ) {
        let Reply::Hits(hits, _) = evidence::read_code(result.detail.as_ref()) else {
            return;
        };
        let mut added = 0;
        for h in hits.iter().filter(|h| h.section.is_some()) {
            if added >= MAX_EXPANSION || h.path == path || classify::classify(&h.path).secondary() {
                continue;
            }
            let shown = h.name.clone().unwrap_or_default();
            if op == "callers" {
                self.found.push(Entry {
                    path: h.path.clone(),
                    relation: Relation::Caller,
                    name: h.name.clone(),
                    kind: h.kind.clone(),
                    line: h.line,
                    end_line: None,
                    note: format!("{shown} calls {from} at line {}", h.line),
                    source: "code",
                    target: None,
                    guessed: false,
                });
                added += 1;
                continue;
            }
            let callers = idx
                .files()
                .iter()
                .position(|p| *p == h.path)
                .and_then(|f| {
                    idx.symbols_in(f)
                        .into_iter()
                        .find(|&si| idx.symbol(si).is_some_and(|s| s.line == h.line))
                })
                .map(|si| idx.callers_of(si));
            if callers.is_none_or(|c| c > MAX_EXPANSION_CALLERS) {
                continue;
            }
            let site = match h.call_site {
                Some((ref p, l)) if p == path => format!(", called from {path}:{l}"),
                _ => String::new(),
            };
            self.found.push(Entry {
                path: h.path.clone(),
                relation: Relation::Callee,
                name: h.name.clone(),
                kind: h.kind.clone(),
                line: h.line,
                end_line: h.end_line,
                note: format!(
                    "{from} hands off to {} {shown} here{site}",
                    h.kind.as_deref().unwrap_or("symbol")
                ),
                source: "code",
                target: None,
                guessed: false,
            });
            added += 1;
        }
    }

    /// Keeps the citations a `read` confirmed.
    pub(super) fn on_read(&mut self, file: ConceptFile, findings: &[Finding]) {
        let covered = |line: u32| {
            findings.iter().any(|f| {
                f.path == file.path
                    && f.line.is_some_and(|a| a <= line)
                    && f.end_line.or(f.line).is_some_and(|b| line <= b)
            })
        };
        let relation = Relation::Concept {
            rank: file.rank,
            types: file.types,
        };
        let question = self.query.as_ref().map_or("", |q| q.raw.as_str());
        let terms = file
            .matched
            .iter()
            .map(|t| text::as_written(t, question))
            .collect::<Vec<_>>()
            .join(", ");
        let mut any = false;
        for c in &file.cites {
            if !covered(c.line) {
                continue;
            }
            any = true;
            let what = match (&c.symbol, &c.kind) {
                (Some(s), Some(k)) => format!("Defines {k} {s} at line {}", c.line),
                (Some(s), None) => format!("Defines {s} at line {}", c.line),
                _ => format!("Matching text at line {}", c.line),
            };
            self.found.push(Entry {
                path: file.path.clone(),
                relation,
                name: c.symbol.clone(),
                kind: c.kind.clone(),
                line: c.line,
                end_line: (c.end_line > c.line && covered(c.end_line)).then_some(c.end_line),
                note: what,
                source: "read",
                target: Some(terms.clone()),
                guessed: false,
            });
        }
        if !any && findings.iter().any(|f| f.path == file.path) {
            self.found.push(Entry {
                path: file.path.clone(),
                relation,
                name: None,
                kind: None,
                line: 0,
                end_line: None,
                note: format!("Its path and contents match {terms}"),
                source: "read",
                target: Some(terms),
                guessed: false,
            });
        }
    }
}

/// What one file of a concept answer cites, before its reads are planned.
struct Plan {
    rank: usize,
    path: String,
    /// Best first.
    cites: Vec<Cite>,
    /// The functions whose bodies do what the question asks (see [`body`]), best first,
    /// those not already cited by name; [`fit_reads`] puts the best first in `cites` and
    /// the others last.
    body: Vec<Cite>,
    /// `body[0]` is the best body match (not an extra one): it goes first.
    body_first: bool,
    matched: Vec<String>,
    types: bool,
}

/// Places each plan's body match first in its citations, keeping the turn's reads (one
/// per [`clusters`] group, in plan order, then `after` more calls) within what the loop
/// runs: it refuses calls past [`crate::run::MAX_CALLS_PER_TURN`], the last ones first.
///
/// A body match far from a file's other citations needs a read of its own, which would
/// push the last file's read (or the call-graph step) past the limit. So: reads the
/// loop would refuse anyway are dropped first (as before, nothing past the limit is
/// read); then, when a body match's read does not fit, a lower file's second and later
/// stretches give way (those not holding its best citation), from the last file up,
/// never the top file's; then body matches, from the last file up. Every file that
/// would have been read still is.
fn fit_reads(plans: &mut Vec<Plan>, after: usize) {
    let max = crate::run::MAX_CALLS_PER_TURN;
    let reads =
        |plans: &[Plan]| -> usize { plans.iter().map(|p| clusters(p.cites.clone()).len()).sum() };
    // What the loop would run without body matches: groups past `max` are refused.
    let mut seen = 0;
    let mut keep = plans.len();
    for (i, p) in plans.iter_mut().enumerate() {
        let groups = clusters(std::mem::take(&mut p.cites));
        let live = groups.len().min(max.saturating_sub(seen));
        seen += live;
        if live == 0 {
            keep = keep.min(i);
        }
        // Still best first: the best citation's group comes first, and leads it.
        p.cites = groups.into_iter().take(live).flatten().collect();
    }
    plans.truncate(keep);
    let limit = (max - after).max(reads(plans)).min(max);
    // What gives way, least useful first: a lower file's other stretches, a lower
    // file's body match, the top file's other stretches, the top file's best citation
    // by name (its body match is the answer), the top file's body match.
    let lead: Vec<Option<u32>> = plans
        .iter()
        .map(|p| p.cites.first().map(|c| c.line))
        .collect();
    for p in plans.iter_mut() {
        for (k, c) in p.body.iter().enumerate() {
            if k == 0 && p.body_first {
                p.cites.insert(0, c.clone());
            } else {
                p.cites.push(c.clone());
            }
        }
    }
    // (for the top file?, what gives way)
    let steps = [
        (false, Give::Other),
        (false, Give::Body),
        (true, Give::Other),
        (true, Give::Lead),
        (true, Give::Body),
    ];
    for (top, give) in steps {
        for i in (0..plans.len()).rev().filter(|&i| (i == 0) == top) {
            while reads(plans) > limit {
                let p = &mut plans[i];
                let body: Vec<u32> = p.body.iter().map(|c| c.line).collect();
                let gone: Vec<u32> = match give {
                    // The weakest body match first.
                    Give::Body => match p.body.pop() {
                        Some(b) => vec![b.line],
                        None => break,
                    },
                    Give::Other | Give::Lead => {
                        let keep = |c: &Cite| {
                            body.contains(&c.line)
                                || (Some(c.line) == lead[i]
                                    && (give == Give::Other || body.is_empty()))
                        };
                        let groups = clusters(p.cites.clone());
                        // An empty group (a file with no citation is still read) has
                        // nothing to give.
                        match groups
                            .iter()
                            .rev()
                            .find(|g| !g.is_empty() && !g.iter().any(keep))
                        {
                            Some(g) => g.iter().map(|c| c.line).collect(),
                            None => break,
                        }
                    }
                };
                p.cites.retain(|c| !gone.contains(&c.line));
            }
        }
    }
}

/// What [`fit_reads`] drops from a file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Give {
    /// Stretches holding neither its body match nor its best citation by name.
    Other,
    /// Its body match.
    Body,
    /// The stretch of its best citation by name, when it has a body match.
    Lead,
}

/// The citation of a symbol's whole range.
fn cite_of(s: &rank::SymbolInfo) -> Cite {
    Cite {
        line: s.line,
        end_line: s.end_line.max(s.line),
        symbol: Some(s.display.clone()),
        kind: Some(s.kind.clone()),
    }
}

/// Lifts the files a report points at (see [`signals`]): each gets its hints' bonus on
/// top of its score, cites the symbols they named first, and joins the ranking when the
/// words alone missed it.
/// An action word in at most this share of the files' names, docs and paths is specific
/// enough to count as a topic ([`term_weights`]).
const RARE_ACTION_SHARE: f64 = 0.05;

/// The question's term weights for this repository: the project's own name counts
/// [`project::PROJECT_WORD_WEIGHT`]; an action word (weight below 1: "handled",
/// "configured") counts fully when few files' names and docs use it ("normalized",
/// "decoded": at most [`RARE_ACTION_SHARE`] of the files), since then it says what the
/// question is about rather than how it is phrased.
fn term_weights(idx: &LexIndex, terms: &[String], weights: &[f64], project: &[String]) -> Vec<f64> {
    let n = idx.files().len().max(1) as f64;
    terms
        .iter()
        .zip(weights)
        .map(|(t, &w)| {
            let df = idx.df(t) as f64;
            if project.contains(t) {
                w * project::PROJECT_WORD_WEIGHT
            } else if w < 1.0 && df > 0.0 && df / n <= RARE_ACTION_SHARE {
                1.0
            } else {
                w
            }
        })
        .collect()
}

/// What an action word ("resolved", "handled") counts when choosing which functions of a
/// file to cite, against [`text::ACTION_WEIGHT`] when ranking files: 0.7 to 0.9 cite the
/// same on every suite; at 1.0 "how are webhooks handled" cites the `ServeHTTP` that
/// calls `HandleWebhook` first, at 0.6 "… get resolved to the callable" misses
/// `ref_to_obj`.
const CITE_ACTION_WEIGHT: f64 = 0.8;

/// How many of the best files have their bodies read to rerank them.
const BODY_FILES: usize = 8;
/// What the best body among [`BODY_FILES`] adds to its file's score (the best file's
/// words score 1): 0.4 to 0.7 rank the same on every suite; 1.0 lets a body outrank files
/// that match far better by name.
const BODY_WEIGHT: f64 = 0.5;

/// Reranks the best files by their best function body ([`body::best_bodies`]): a
/// behaviour question is answered where a function does it, not where setters' docs
/// name it (resty's `addCredentials` in `middleware.go`, not `SetAuthToken` in
/// `client.go`). Each file gains [`BODY_WEIGHT`] times its best body's share of the best
/// one, discounted as its path class is; a file the question spells out keeps its lead
/// (it gains the full weight).
fn rerank_by_bodies(
    idx: &LexIndex,
    ranked: &mut [rank::RankedFile],
    terms: &[String],
    weights: &[f64],
    raw: &str,
    focus: classify::Focus,
    read: &dyn Fn(&str) -> Option<String>,
) {
    let phrases = body::quoted(raw);
    let names = body::code_names(raw);
    let question = body::Question {
        terms,
        weights,
        phrases: &phrases,
        names: &names,
    };
    let texts: Vec<(usize, String)> = ranked
        .iter()
        .take(BODY_FILES)
        .map(|r| (r.file, read(&idx.files()[r.file]).unwrap_or_default()))
        .collect();
    let refs: Vec<(usize, &str)> = texts.iter().map(|(f, t)| (*f, t.as_str())).collect();
    let best = body::best_bodies(idx, &refs, &question);
    let top = best.iter().copied().fold(0.0, f64::max);
    if top <= 0.0 {
        return;
    }
    for (r, b) in ranked.iter_mut().zip(&best) {
        let share = if r.named { 1.0 } else { b / top };
        let discount = classify::Discount::discount(&idx.class_of(r.file), focus).min(1.0);
        r.score += BODY_WEIGHT * share * discount;
    }
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.file.cmp(&b.file)));
}

fn lift_named(ranked: &mut Vec<rank::RankedFile>, bonuses: Vec<(usize, f64, Vec<usize>)>) {
    if bonuses.is_empty() {
        return;
    }
    for (file, bonus, named) in bonuses {
        let at = match ranked.iter().position(|r| r.file == file) {
            Some(at) => at,
            None => {
                ranked.push(rank::RankedFile {
                    file,
                    score: 0.0,
                    lexical: 0.0,
                    evidence: 0.0,
                    matched: Vec::new(),
                    symbols: Vec::new(),
                    named: false,
                });
                ranked.len() - 1
            }
        };
        let r = &mut ranked[at];
        r.score += SIGNAL_WEIGHT * bonus;
        // Named evidence is evidence: a file a traceback names is worth answering with.
        r.evidence = r.evidence.max(rank::MIN_EVIDENCE);
        let mut first: Vec<usize> = named;
        first.dedup();
        r.symbols.retain(|s| !first.contains(s));
        first.append(&mut r.symbols);
        r.symbols = first;
    }
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.file.cmp(&b.file)));
}

/// The least bonus that brings a file into a concept answer the words did not choose:
/// a traceback frame or a title name in one file, not a name the prose mentions once.
const MIN_SIGNAL: f64 = 0.4;

/// How much a report's hints count against the words: the best file's word score is
/// about 1, so an innermost traceback frame (1.0) is worth as much as the words.
const SIGNAL_WEIGHT: f64 = 1.0;

/// Most lines one `read` of a concept answer shows.
const READ_WINDOW: u32 = 300;

/// The citations in groups whose [`window`] fits in [`READ_WINDOW`] lines. Each group
/// keeps the citations' order of merit, and the group of the best citation comes first
/// (the answer names the first citation it reads); no citations is one empty group (the
/// file is still read).
fn clusters(cites: Vec<Cite>) -> Vec<Vec<Cite>> {
    let mut by_line: Vec<usize> = (0..cites.len()).collect();
    by_line.sort_by_key(|&i| cites[i].line);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in by_line {
        let c = &cites[i];
        match groups.last_mut() {
            Some(g)
                if c.end_line.max(c.line)
                    < cites[g[0]].line.saturating_sub(2).max(1) + READ_WINDOW =>
            {
                g.push(i)
            }
            _ => groups.push(vec![i]),
        }
    }
    for g in &mut groups {
        g.sort_unstable();
    }
    groups.sort_by_key(|g| g[0]);
    let mut slots: Vec<Option<Cite>> = cites.into_iter().map(Some).collect();
    let mut out: Vec<Vec<Cite>> = groups
        .into_iter()
        .map(|g| g.into_iter().filter_map(|i| slots[i].take()).collect())
        .collect();
    if out.is_empty() {
        out.push(Vec::new());
    }
    out
}

/// The `read` window covering the citations: from the first to the last cited line, at
/// most 300 lines, starting a little before the first so a doc comment shows.
pub(super) fn window(cites: &[Cite]) -> (u32, u32) {
    let Some(first) = cites.iter().map(|c| c.line).min() else {
        return (1, 60);
    };
    let start = first.saturating_sub(2).max(1);
    let last = cites
        .iter()
        .map(|c| c.end_line.max(c.line))
        .max()
        .unwrap_or(first);
    let num = (last + 1).saturating_sub(start).clamp(1, READ_WINDOW);
    (start, num)
}

pub(super) use super::content::read_small;

/// How many files the content index adds to a concept question's shortlist.
const CONTENT_CANDIDATES: usize = 8;

/// The files whose text best matches the question's words (BM25 over the content index,
/// path classes discounted as in ranking), for [`LexIndex::rank_with`].
fn content_candidates(
    idx: &LexIndex,
    terms: &[String],
    weights: &[f64],
    focus: classify::Focus,
    read: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Vec<usize> {
    use classify::Discount;
    let content = report::content_of(idx, read);
    if content.failure().is_some() {
        return Vec::new();
    }
    let weighted: Vec<(String, f64)> = terms
        .iter()
        .zip(weights.iter().chain(std::iter::repeat(&1.0)))
        .map(|(t, w)| (t.clone(), *w))
        .collect();
    // A file that only imports the one word (`from .retry import retry`) scores high in
    // BM25 for its length: a candidate holds two of the question's words when it has two.
    let topic: Vec<&String> = weighted
        .iter()
        .filter(|(t, w)| *w >= 1.0 && content.knows(t))
        .map(|(t, _)| t)
        .collect();
    let needed = topic.len().min(2);
    let mut scored: Vec<(usize, f64)> = content
        .scores(&weighted, report::K1, report::B)
        .into_iter()
        .enumerate()
        .filter(|(_, s)| *s > 0.0)
        .filter(|(f, _)| topic.iter().filter(|t| content.holds(t, *f)).count() >= needed)
        .map(|(f, s)| (f, s * idx.class_of(f).discount(focus)))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored
        .into_iter()
        .take(CONTENT_CANDIDATES)
        .map(|(f, _)| f)
        .collect()
}

/// True when the question spells the word whose stem is `term` with a capital letter
/// (not counting the question's first word): a name, like GraphQL or Kafka.
pub(super) fn capitalised_in(raw: &str, term: &str) -> bool {
    raw.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .skip(1)
        .any(|w| w.chars().any(|c| c.is_uppercase()) && text::stem(&w.to_lowercase()) == term)
}

/// The line of `text` that matches the most distinct question terms (first on ties).
pub(super) fn best_line(text: &str, terms: &[String]) -> Option<u32> {
    let mut best = (0usize, 0u32);
    for (i, l) in text.lines().enumerate() {
        let words = text::index_terms(l);
        let n = terms.iter().filter(|t| words.contains(t)).count();
        if n > best.0 {
            best = (n, (i + 1) as u32);
        }
    }
    (best.0 > 0).then_some(best.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cite(line: u32, end_line: u32) -> Cite {
        Cite {
            line,
            end_line,
            symbol: None,
            kind: None,
        }
    }

    #[test]
    fn distant_citations_get_reads_of_their_own() {
        let lines = |groups: Vec<Vec<Cite>>| -> Vec<Vec<u32>> {
            groups
                .into_iter()
                .map(|g| g.into_iter().map(|c| c.line).collect())
                .collect()
        };
        // 61 and 65 fit one window; 375 is 300 lines past 59 and gets its own, and comes
        // first: it was the best citation. Within a group the order of merit stays.
        assert_eq!(
            lines(clusters(vec![cite(375, 390), cite(65, 65), cite(61, 61)])),
            vec![vec![375], vec![65, 61]]
        );
        assert_eq!(
            lines(clusters(vec![cite(250, 300), cite(10, 200)])),
            vec![vec![250, 10]]
        );
        assert_eq!(lines(clusters(Vec::new())), vec![Vec::<u32>::new()]);
        let windows: Vec<(u32, u32)> = clusters(vec![cite(61, 61), cite(375, 390)])
            .iter()
            .map(|g| window(g))
            .collect();
        assert_eq!(windows, vec![(59, 3), (373, 18)]);
    }

    fn plan(rank: usize, cites: Vec<Cite>, body: Vec<Cite>) -> Plan {
        Plan {
            rank,
            path: format!("f{rank}.go"),
            cites,
            body_first: !body.is_empty(),
            body,
            matched: Vec::new(),
            types: false,
        }
    }

    fn lines_of(plans: &[Plan]) -> Vec<Vec<u32>> {
        plans
            .iter()
            .map(|p| p.cites.iter().map(|c| c.line).collect())
            .collect()
    }

    #[test]
    fn a_body_match_fits_the_turn_without_costing_a_file() {
        // Seven files, one read each, plus the call-graph step: the turn is full. The top
        // file's body match (line 526, far from its names) needs a read: a lower file's
        // second stretch gives way first.
        let mut plans: Vec<Plan> = (0..7)
            .map(|r| plan(r, vec![cite(45, 56)], Vec::new()))
            .collect();
        plans[0].body = vec![cite(526, 554)];
        plans[0].body_first = true;
        plans[5].cites.push(cite(900, 910));
        fit_reads(&mut plans, 1);
        let lines = lines_of(&plans);
        assert_eq!(plans.len(), 7);
        assert_eq!(lines[0], vec![526, 45]);
        assert_eq!(lines[5], vec![45]);
        // Nothing else to give: the top file's names give way to its body match.
        let mut plans: Vec<Plan> = (0..7)
            .map(|r| plan(r, vec![cite(45, 56)], Vec::new()))
            .collect();
        plans[0].body = vec![cite(526, 554)];
        plans[0].body_first = true;
        fit_reads(&mut plans, 1);
        assert_eq!(plans.len(), 7);
        assert_eq!(lines_of(&plans)[0], vec![526]);
        // A lower file's body match gives way before the top file's names.
        let mut plans: Vec<Plan> = (0..7)
            .map(|r| plan(r, vec![cite(45, 56)], Vec::new()))
            .collect();
        plans[2].body = vec![cite(526, 554)];
        plans[2].body_first = true;
        fit_reads(&mut plans, 1);
        assert_eq!(lines_of(&plans)[0], vec![45]);
        assert_eq!(lines_of(&plans)[2], vec![45]);
    }

    #[test]
    fn a_file_with_nothing_to_cite_ends_the_fitting() {
        // Files with no citation are still read (one empty stretch each) and have nothing
        // to give: the fitting ends instead of looping (a report's ranking cites nothing
        // in a file without symbols).
        let mut plans: Vec<Plan> = (0..7).map(|r| plan(r, Vec::new(), Vec::new())).collect();
        plans[0].body = vec![cite(526, 554)];
        plans[0].body_first = true;
        fit_reads(&mut plans, 1);
        assert_eq!(plans.len(), 7);
        assert_eq!(lines_of(&plans)[1], Vec::<u32>::new());
    }

    #[test]
    fn reads_the_loop_would_refuse_are_dropped_before_bodies_are_placed() {
        // Nine files: the last two would never be read (8 calls a turn); a body match in
        // the top file must not push the eighth out.
        let mut plans: Vec<Plan> = (0..9)
            .map(|r| plan(r, vec![cite(10, 20)], Vec::new()))
            .collect();
        plans[0].body = vec![cite(700, 720)];
        plans[0].body_first = true;
        plans[3].cites.push(cite(600, 610));
        fit_reads(&mut plans, 1);
        assert_eq!(plans.len(), 7);
        let lines = lines_of(&plans);
        assert_eq!(lines[0], vec![700, 10]);
        assert_eq!(lines[3], vec![10]);
        let reads: usize = plans.iter().map(|p| clusters(p.cites.clone()).len()).sum();
        assert_eq!(reads, 8);
    }

    #[test]
    fn a_rare_action_word_counts_as_a_topic() {
        use crate::local::rank::{Corpus, SymbolInfo};
        // Forty files: `handle` is in every name, `normalize` in one.
        let files: Vec<String> = (0..40).map(|i| format!("pkg/f{i}.go")).collect();
        let mut symbols: Vec<SymbolInfo> = (0..40)
            .map(|i| SymbolInfo {
                name: format!("handleThing{i}"),
                display: format!("handleThing{i}"),
                kind: "function".into(),
                file: i,
                line: 1,
                end_line: 3,
                doc: String::new(),
            })
            .collect();
        symbols[7].name = "normalizePath".into();
        symbols[7].display = "normalizePath".into();
        let idx = LexIndex::build(Corpus {
            files,
            symbols,
            edges: Vec::new(),
        });
        let (terms, weights): (Vec<String>, Vec<f64>) =
            text::query_terms_weighted("how are paths normalized and handled")
                .into_iter()
                .unzip();
        let at = |t: &str| terms.iter().position(|x| x == t).unwrap();
        let (normal, handle) = (at(&text::stem("normalized")), at(&text::stem("handled")));
        assert!(
            weights[normal] < 1.0 && weights[handle] < 1.0,
            "{terms:?} {weights:?}"
        );
        let got = term_weights(&idx, &terms, &weights, &[]);
        assert_eq!(got[normal], 1.0);
        assert_eq!(got[handle], weights[handle]);
    }
}
