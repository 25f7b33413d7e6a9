//! An in-process stand-in for the server: a [`Backend`] that evaluates exactly the
//! statements [`super::aql`] builds, over documents kept in memory.
//!
//! It exists so that the store, the push and the conformance suite run without an
//! ArangoDB server (none can be installed on the machines CI uses). It follows the
//! documented semantics of each statement (filters, `SORT`, `LIMIT`, `fullCount`,
//! `overwriteMode: "replace"`), but it is not ArangoDB: the suite also runs against a live
//! server when `EXPLORE_ARANGO_URL` is set, and that run is the proof.

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;

use serde_json::Value;

use super::aql::{self, Aql};
use super::{ArangoError, Backend, Rows};
use crate::code::EdgeKind;

/// Documents by collection, then by key.
#[derive(Debug, Default)]
pub struct MemoryBackend {
    colls: Mutex<BTreeMap<String, BTreeMap<String, Value>>>,
    writes: Mutex<Vec<(String, usize)>>,
}

fn s<'a>(v: &'a Value, field: &str) -> &'a str {
    v[field].as_str().unwrap_or("")
}

fn n(v: &Value, field: &str) -> u64 {
    v[field].as_u64().unwrap_or(0)
}

fn err(msg: impl Into<String>) -> ArangoError {
    ArangoError::Protocol(msg.into())
}

impl MemoryBackend {
    /// An empty database.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many documents `coll` holds.
    pub fn count(&self, coll: &str) -> usize {
        self.colls
            .lock()
            .map(|c| c.get(coll).map_or(0, BTreeMap::len))
            .unwrap_or(0)
    }

    /// Every write so far: (collection, documents inserted or removed).
    pub fn writes(&self) -> Vec<(String, usize)> {
        self.writes.lock().map(|w| w.clone()).unwrap_or_default()
    }

    /// Forgets the write log.
    pub fn clear_writes(&self) {
        if let Ok(mut w) = self.writes.lock() {
            w.clear();
        }
    }

    fn bound<'a>(q: &'a Aql, name: &str) -> Result<&'a Value, ArangoError> {
        q.bind
            .get(name)
            .ok_or_else(|| err(format!("bind parameter @{name} missing")))
    }

    fn bound_str<'a>(q: &'a Aql, name: &str) -> Result<&'a str, ArangoError> {
        Self::bound(q, name)?
            .as_str()
            .ok_or_else(|| err(format!("bind parameter @{name} is not a string")))
    }

    fn page(mut rows: Vec<Value>, q: &Aql) -> Result<Rows, ArangoError> {
        let limit = Self::bound(q, "limit")?.as_u64().unwrap_or(0) as usize;
        let full = rows.len();
        rows.truncate(limit);
        Ok(Rows {
            rows,
            full_count: q.full_count.then_some(full),
        })
    }

    fn by_key(&self, coll: &str, q: &Aql) -> Result<Rows, ArangoError> {
        let key = Self::bound_str(q, "key")?;
        let colls = self.colls.lock().map_err(|_| err("poisoned"))?;
        let rows = colls
            .get(coll)
            .and_then(|c| c.get(key))
            .cloned()
            .into_iter()
            .collect();
        Ok(Rows {
            rows,
            full_count: None,
        })
    }

    fn symbols_where(
        &self,
        q: &Aql,
        keep: impl Fn(&Value) -> bool,
        by_pos_only: bool,
    ) -> Result<Rows, ArangoError> {
        let repo = Self::bound_str(q, "repo")?;
        let colls = self.colls.lock().map_err(|_| err("poisoned"))?;
        let mut rows: Vec<Value> = colls
            .get(super::docs::SYMBOLS)
            .into_iter()
            .flat_map(|c| c.values())
            .filter(|d| s(d, "repo") == repo && keep(d))
            .cloned()
            .collect();
        if by_pos_only {
            rows.sort_by_key(|d| n(d, "pos"));
        } else {
            rows.sort_by(|a, b| (s(a, "pkey"), n(a, "pos")).cmp(&(s(b, "pkey"), n(b, "pos"))));
        }
        Self::page(rows, q)
    }

    fn edges(&self, q: &Aql, out: bool) -> Result<Rows, ArangoError> {
        let coll = Self::bound_str(q, "@edges")?;
        let node = Self::bound_str(q, "node")?;
        let colls = self.colls.lock().map_err(|_| err("poisoned"))?;
        let rows = Self::edge_rows(&colls, coll, node, out)
            .into_iter()
            .map(|(edge, other)| serde_json::json!({ "edge": edge, "other": other }))
            .collect();
        Self::page(rows, q)
    }

    /// [`aql::calls_within`]: breadth-first from each start over `@@edges` up to `@hops`,
    /// every vertex once, then each reached vertex's edges, ordered by vertex id.
    fn calls_within(&self, q: &Aql, up: bool) -> Result<Rows, ArangoError> {
        let coll = Self::bound_str(q, "@edges")?;
        let hops = Self::bound(q, "hops")?.as_u64().unwrap_or(0);
        let starts: Vec<String> = Self::bound(q, "nodes")?
            .as_array()
            .ok_or_else(|| err("@nodes is not an array"))?
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        let colls = self.colls.lock().map_err(|_| err("poisoned"))?;
        let theirs = if up { "_from" } else { "_to" };
        let mut reached = std::collections::BTreeSet::new();
        for start in starts {
            let mut seen = HashSet::from([start.clone()]);
            let mut level = vec![start];
            for _ in 0..=hops {
                let mut next = Vec::new();
                for v in &level {
                    reached.insert(v.clone());
                }
                for v in &level {
                    for (e, _) in Self::edge_rows(&colls, coll, v, !up) {
                        let other = s(&e, theirs).to_string();
                        if seen.insert(other.clone()) {
                            next.push(other);
                        }
                    }
                }
                level = next;
            }
        }
        let mut rows = Vec::new();
        for n in reached {
            for (edge, other) in Self::edge_rows(&colls, coll, &n, !up) {
                rows.push(serde_json::json!({ "node": n, "edge": edge, "other": other }));
            }
        }
        Self::page(rows, q)
    }

    /// The edges of `node` in `coll` with their other ends, in [`aql::edges_out`] /
    /// [`aql::edges_in`] order.
    fn edge_rows(
        colls: &BTreeMap<String, BTreeMap<String, Value>>,
        coll: &str,
        node: &str,
        out: bool,
    ) -> Vec<(Value, Value)> {
        let symbols = colls.get(super::docs::SYMBOLS);
        let (mine, theirs) = if out {
            ("_from", "_to")
        } else {
            ("_to", "_from")
        };
        let mut rows: Vec<(Value, Value)> = colls
            .get(coll)
            .into_iter()
            .flat_map(|c| c.values())
            .filter(|e| s(e, mine) == node)
            .filter_map(|e| {
                let key = s(e, theirs).strip_prefix("symbols/")?;
                let other = symbols?.get(key)?;
                Some((e.clone(), other.clone()))
            })
            .collect();
        if out {
            rows.sort_by(|(ea, ta), (eb, tb)| {
                (n(ea, "line"), s(ta, "pkey"), n(ta, "pos")).cmp(&(
                    n(eb, "line"),
                    s(tb, "pkey"),
                    n(tb, "pos"),
                ))
            });
        } else {
            rows.sort_by(|(ea, fa), (eb, fb)| {
                (n(fa, "rank"), s(fa, "pkey"), n(ea, "line"), n(fa, "pos")).cmp(&(
                    n(fb, "rank"),
                    s(fb, "pkey"),
                    n(eb, "line"),
                    n(fb, "pos"),
                ))
            });
        }
        rows
    }

    fn remove(&self, q: &Aql, paths: Option<HashSet<String>>) -> Result<Rows, ArangoError> {
        let coll = Self::bound_str(q, "@coll")?;
        let repo = Self::bound_str(q, "repo")?;
        let mut colls = self.colls.lock().map_err(|_| err("poisoned"))?;
        let c = colls.entry(coll.to_string()).or_default();
        let before = c.len();
        c.retain(|_, d| {
            !(s(d, "repo") == repo && paths.as_ref().is_none_or(|p| p.contains(s(d, "path"))))
        });
        let removed = before - c.len();
        if let Ok(mut w) = self.writes.lock() {
            w.push((coll.to_string(), removed));
        }
        Ok(Rows::default())
    }

    fn insert(&self, q: &Aql) -> Result<Rows, ArangoError> {
        let coll = Self::bound_str(q, "@coll")?;
        let docs = Self::bound(q, "docs")?
            .as_array()
            .ok_or_else(|| err("@docs is not an array"))?;
        let mut colls = self.colls.lock().map_err(|_| err("poisoned"))?;
        let c = colls.entry(coll.to_string()).or_default();
        for d in docs {
            let key = s(d, "_key");
            if key.is_empty() {
                return Err(err("document without _key"));
            }
            c.insert(key.to_string(), d.clone());
        }
        if let Ok(mut w) = self.writes.lock() {
            w.push((coll.to_string(), docs.len()));
        }
        Ok(Rows::default())
    }
}

impl Backend for MemoryBackend {
    fn run(&self, q: &Aql) -> Result<Rows, ArangoError> {
        let text = q.query;
        let is = |other: Aql| other.query == text;
        if is(aql::symbol_by_key("")) {
            self.by_key(super::docs::SYMBOLS, q)
        } else if is(aql::file_by_key("")) {
            self.by_key(super::docs::FILES, q)
        } else if is(aql::meta("")) {
            self.by_key(super::docs::META, q)
        } else if is(aql::names_exact("", "")) {
            let name = Self::bound_str(q, "name")?;
            self.symbols_where(q, |d| s(d, "lname") == name, false)
        } else if is(aql::names_containing("", "")) {
            let part = Self::bound_str(q, "part")?;
            self.symbols_where(q, |d| s(d, "lname").contains(part), false)
        } else if is(aql::names_matching("", "")) {
            let re = Self::bound_str(q, "regex")?;
            self.symbols_where(q, |d| regex_match(re, s(d, "lname")), false)
        } else if is(aql::by_qname("", "")) {
            let qname = Self::bound_str(q, "qname")?;
            self.symbols_where(q, |d| s(d, "qname") == qname, false)
        } else if is(aql::in_file("", "")) {
            let path = Self::bound_str(q, "path")?;
            self.symbols_where(q, |d| s(d, "path") == path, true)
        } else if is(aql::edges_out(EdgeKind::Calls, "", 0)) {
            self.edges(q, true)
        } else if is(aql::edges_in(EdgeKind::Calls, "", 0)) {
            self.edges(q, false)
        } else if is(aql::calls_within(&[], 0, true)) {
            self.calls_within(q, true)
        } else if is(aql::calls_within(&[], 0, false)) {
            self.calls_within(q, false)
        } else if is(aql::file_digests("", 0)) {
            let repo = Self::bound_str(q, "repo")?;
            let colls = self.colls.lock().map_err(|_| err("poisoned"))?;
            let mut files: Vec<&Value> = colls
                .get(super::docs::FILES)
                .into_iter()
                .flat_map(|c| c.values())
                .filter(|d| s(d, "repo") == repo)
                .collect();
            files.sort_by_key(|d| s(d, "pkey").to_string());
            let rows = files
                .into_iter()
                .map(|d| serde_json::json!({"path": d["path"], "digest": d["digest"]}))
                .collect();
            Self::page(rows, q)
        } else if is(aql::remove_paths("", "", &[])) {
            let paths = Self::bound(q, "paths")?
                .as_array()
                .ok_or_else(|| err("@paths is not an array"))?
                .iter()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect();
            self.remove(q, Some(paths))
        } else if is(aql::remove_repo("", "")) {
            self.remove(q, None)
        } else if is(aql::insert("", Vec::new())) {
            self.insert(q)
        } else {
            Err(err(format!("the memory backend does not know: {text}")))
        }
    }

    fn ensure_collection(&self, name: &str, _edge: bool) -> Result<(), ArangoError> {
        let mut colls = self.colls.lock().map_err(|_| err("poisoned"))?;
        colls.entry(name.to_string()).or_default();
        Ok(())
    }

    fn ensure_index(&self, _collection: &str, _fields: &[&str]) -> Result<(), ArangoError> {
        Ok(())
    }
}

/// Matches the regex subset [`aql::glob_to_regex`] emits: `^…$`, `.`, `.*`, classes with
/// ranges and negation, `\` escapes and one `(?:a|b)` group of literals.
pub fn regex_match(re: &str, text: &str) -> bool {
    let Some(body) = re.strip_prefix('^').and_then(|b| b.strip_suffix('$')) else {
        return false;
    };
    if let Some(start) = body.find("(?:")
        && let Some(len) = body[start..].find(')')
    {
        let end = start + len;
        let alts = &body[start + 3..end];
        return alts.split('|').any(|alt| {
            let expanded = format!("^{}{}{}$", &body[..start], alt, &body[end + 1..]);
            regex_match(&expanded, text)
        });
    }
    let Some(toks) = tokens(body) else {
        return false;
    };
    let chars: Vec<char> = text.chars().collect();
    matches(&toks, &chars)
}

enum Tok {
    Star,
    Any,
    Lit(char),
    Class(bool, Vec<(char, char)>),
}

fn matches(t: &[Tok], s: &[char]) -> bool {
    match t.first() {
        None => s.is_empty(),
        Some(Tok::Star) => (0..=s.len()).any(|i| matches(&t[1..], &s[i..])),
        Some(tok) => {
            !s.is_empty()
                && match tok {
                    Tok::Star | Tok::Any => true,
                    Tok::Lit(l) => *l == s[0],
                    Tok::Class(neg, ranges) => {
                        ranges.iter().any(|&(a, b)| a <= s[0] && s[0] <= b) != *neg
                    }
                }
                && matches(&t[1..], &s[1..])
        }
    }
}

fn tokens(body: &str) -> Option<Vec<Tok>> {
    let cs: Vec<char> = body.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        match cs[i] {
            '.' if cs.get(i + 1) == Some(&'*') => {
                out.push(Tok::Star);
                i += 2;
            }
            '.' => {
                out.push(Tok::Any);
                i += 1;
            }
            '\\' => {
                out.push(Tok::Lit(*cs.get(i + 1)?));
                i += 2;
            }
            '[' => {
                i += 1;
                let neg = cs.get(i) == Some(&'^');
                if neg {
                    i += 1;
                }
                let mut ranges = Vec::new();
                while *cs.get(i)? != ']' {
                    if cs[i] == '\\' {
                        i += 1;
                    }
                    let a = *cs.get(i)?;
                    if cs.get(i + 1) == Some(&'-') && cs.get(i + 2).is_some_and(|&c| c != ']') {
                        ranges.push((a, *cs.get(i + 2)?));
                        i += 3;
                    } else {
                        ranges.push((a, a));
                        i += 1;
                    }
                }
                i += 1;
                out.push(Tok::Class(neg, ranges));
            }
            c => {
                out.push(Tok::Lit(c));
                i += 1;
            }
        }
    }
    Some(out)
}
