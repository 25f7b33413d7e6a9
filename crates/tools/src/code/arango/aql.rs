//! AQL construction: every query the ArangoDB store sends, as fixed text plus bind
//! parameters.
//!
//! The query texts are `&'static str`: nothing a user or a model typed is ever pasted into
//! them. Names, paths, patterns, keys and even the edge collection (`@@edges`) travel as
//! bind parameters, which the server substitutes after parsing, so a symbol named
//! `x" RETURN 1 //` is a string to compare with and nothing else. Every read has a `LIMIT`
//! and asks for the full count, so a page can say "showing 15 of N".
//!
//! The `SORT` clauses reproduce the embedded store's orders (see `docs.rs` on `pkey` and
//! `pos`): symbols in index order, out-edges by call line then target, in-edges by the
//! source's rank class, path and call line.

use std::collections::BTreeMap;

use serde_json::Value;

use super::docs::edge_collection;
use crate::code::EdgeKind;

/// Most rows one read returns. The store trait has no limit on name searches and the
/// query layer asks for "all" edges when it walks; this bounds both (the full count is
/// still reported, and a warning logged when rows were cut).
pub const MAX_ROWS: usize = 10_000;

/// One AQL statement: fixed text and its bind parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Aql {
    /// The query text; never built from input.
    pub query: &'static str,
    /// Bind parameters (`@name`, and `@@coll` for collections).
    pub bind: BTreeMap<&'static str, Value>,
    /// Ask the server for the count before `LIMIT` (`fullCount`).
    pub full_count: bool,
}

impl Aql {
    fn new(query: &'static str, full_count: bool) -> Self {
        Aql {
            query,
            bind: BTreeMap::new(),
            full_count,
        }
    }

    fn bind(mut self, name: &'static str, value: impl Into<Value>) -> Self {
        self.bind.insert(name, value.into());
        self
    }
}

fn limit(n: usize) -> Value {
    Value::from(n.min(MAX_ROWS) as u64)
}

/// The symbol document with this key.
pub fn symbol_by_key(key: &str) -> Aql {
    Aql::new(
        "FOR s IN symbols FILTER s._key == @key LIMIT 1 RETURN s",
        false,
    )
    .bind("key", key)
}

/// The file document with this key.
pub fn file_by_key(key: &str) -> Aql {
    Aql::new(
        "FOR f IN files FILTER f._key == @key LIMIT 1 RETURN f",
        false,
    )
    .bind("key", key)
}

/// Symbols of `repo` whose lower-cased name is `lname`, in index order.
pub fn names_exact(repo: &str, lname: &str) -> Aql {
    Aql::new(
        "FOR s IN symbols FILTER s.repo == @repo AND s.lname == @name \
         SORT s.pkey, s.pos LIMIT @limit RETURN s",
        true,
    )
    .bind("repo", repo)
    .bind("name", lname)
    .bind("limit", limit(MAX_ROWS))
}

/// Symbols of `repo` whose lower-cased name contains `part`, in index order.
pub fn names_containing(repo: &str, part: &str) -> Aql {
    Aql::new(
        "FOR s IN symbols FILTER s.repo == @repo AND CONTAINS(s.lname, @part) \
         SORT s.pkey, s.pos LIMIT @limit RETURN s",
        true,
    )
    .bind("repo", repo)
    .bind("part", part)
    .bind("limit", limit(MAX_ROWS))
}

/// Symbols of `repo` whose lower-cased name matches `regex` (from [`glob_to_regex`]).
pub fn names_matching(repo: &str, regex: &str) -> Aql {
    Aql::new(
        "FOR s IN symbols FILTER s.repo == @repo AND REGEX_TEST(s.lname, @regex) \
         SORT s.pkey, s.pos LIMIT @limit RETURN s",
        true,
    )
    .bind("repo", repo)
    .bind("regex", regex)
    .bind("limit", limit(MAX_ROWS))
}

/// Symbols of `repo` with exactly this qualified name.
pub fn by_qname(repo: &str, qname: &str) -> Aql {
    Aql::new(
        "FOR s IN symbols FILTER s.repo == @repo AND s.qname == @qname \
         SORT s.pkey, s.pos LIMIT @limit RETURN s",
        true,
    )
    .bind("repo", repo)
    .bind("qname", qname)
    .bind("limit", limit(MAX_ROWS))
}

/// Symbols of `repo` defined in the file at `path`, in source order.
pub fn in_file(repo: &str, path: &str) -> Aql {
    Aql::new(
        "FOR s IN symbols FILTER s.repo == @repo AND s.path == @path \
         SORT s.pos LIMIT @limit RETURN s",
        true,
    )
    .bind("repo", repo)
    .bind("path", path)
    .bind("limit", limit(MAX_ROWS))
}

/// Edges of `kind` leaving the symbol `node` (`symbols/<key>`), each with its target.
pub fn edges_out(kind: EdgeKind, node: &str, n: usize) -> Aql {
    Aql::new(
        "FOR e IN @@edges FILTER e._from == @node LET t = DOCUMENT(e._to) FILTER t != null \
         SORT e.line, t.pkey, t.pos LIMIT @limit RETURN { edge: e, other: t }",
        true,
    )
    .bind("@edges", edge_collection(kind))
    .bind("node", node)
    .bind("limit", limit(n))
}

/// Edges of `kind` arriving at the symbol `node`, each with its source.
pub fn edges_in(kind: EdgeKind, node: &str, n: usize) -> Aql {
    Aql::new(
        "FOR e IN @@edges FILTER e._to == @node LET f = DOCUMENT(e._from) FILTER f != null \
         SORT f.rank, f.pkey, e.line, f.pos LIMIT @limit RETURN { edge: e, other: f }",
        true,
    )
    .bind("@edges", edge_collection(kind))
    .bind("node", node)
    .bind("limit", limit(n))
}

/// The call edges of every symbol fewer than `hops + 1` calls away from `nodes` (callees,
/// or callers when `up`), each row `{ node, edge, other }`: one traversal for a whole
/// callers/callees walk or trace instead of a round trip per symbol. Rows are ordered by
/// node, then as [`edges_out`] / [`edges_in`] order them, so each node's slice is exactly
/// what those would return. The reached set is not returned: the client re-walks the rows
/// from `nodes` to know it.
pub fn calls_within(nodes: &[String], hops: u32, up: bool) -> Aql {
    let query = if up {
        "LET reached = UNIQUE(FLATTEN(FOR s IN @nodes RETURN (FOR v IN 0..@hops INBOUND s @@edges \
         OPTIONS { order: \"bfs\", uniqueVertices: \"global\" } RETURN v._id))) \
         FOR n IN reached FOR e IN @@edges FILTER e._to == n LET f = DOCUMENT(e._from) \
         FILTER f != null SORT n, f.rank, f.pkey, e.line, f.pos LIMIT @limit \
         RETURN { node: n, edge: e, other: f }"
    } else {
        "LET reached = UNIQUE(FLATTEN(FOR s IN @nodes RETURN (FOR v IN 0..@hops OUTBOUND s @@edges \
         OPTIONS { order: \"bfs\", uniqueVertices: \"global\" } RETURN v._id))) \
         FOR n IN reached FOR e IN @@edges FILTER e._from == n LET t = DOCUMENT(e._to) \
         FILTER t != null SORT n, e.line, t.pkey, t.pos LIMIT @limit \
         RETURN { node: n, edge: e, other: t }"
    };
    Aql::new(query, true)
        .bind("@edges", edge_collection(EdgeKind::Calls))
        .bind("nodes", nodes.to_vec())
        .bind("hops", Value::from(hops))
        .bind("limit", limit(MAX_ROWS))
}

/// The meta document with this key.
pub fn meta(key: &str) -> Aql {
    Aql::new(
        "FOR m IN explore_meta FILTER m._key == @key LIMIT 1 RETURN m",
        false,
    )
    .bind("key", key)
}

/// Path and digest of every file of `repo` (what a push compares against). Not capped
/// by [`MAX_ROWS`]: a push must see every file it may have to remove.
pub fn file_digests(repo: &str, n: usize) -> Aql {
    Aql::new(
        "FOR f IN files FILTER f.repo == @repo SORT f.pkey LIMIT @limit \
         RETURN { path: f.path, digest: f.digest }",
        true,
    )
    .bind("repo", repo)
    .bind("limit", Value::from(n as u64))
}

/// Removes the documents of `repo` in `coll` that belong to one of `paths`.
pub fn remove_paths(coll: &str, repo: &str, paths: &[String]) -> Aql {
    Aql::new(
        "FOR d IN @@coll FILTER d.repo == @repo AND d.path IN @paths REMOVE d IN @@coll",
        false,
    )
    .bind("@coll", coll)
    .bind("repo", repo)
    .bind("paths", paths.to_vec())
}

/// Removes every document of `repo` in `coll` (a graph written by an incompatible build).
pub fn remove_repo(coll: &str, repo: &str) -> Aql {
    Aql::new(
        "FOR d IN @@coll FILTER d.repo == @repo REMOVE d IN @@coll",
        false,
    )
    .bind("@coll", coll)
    .bind("repo", repo)
}

/// Inserts `docs` into `coll`, replacing documents with the same key (idempotent).
pub fn insert(coll: &str, docs: Vec<Value>) -> Aql {
    Aql::new(
        "FOR d IN @docs INSERT d INTO @@coll OPTIONS { overwriteMode: \"replace\" }",
        false,
    )
    .bind("@coll", coll)
    .bind("docs", docs)
}

/// Translates a name glob (globset syntax, as the embedded store reads it: `*`, `?`,
/// `[a-z]`, `[!x]`, `{a,b}`, `\` escapes) into an anchored regular expression for
/// `REGEX_TEST`. `None` for a pattern globset rejects (unclosed `[` or `{`, nested `{`),
/// which the embedded store answers with no symbols.
pub fn glob_to_regex(glob: &str) -> Option<String> {
    let mut out = String::from("^");
    let mut chars = glob.chars().peekable();
    let mut in_alt = false;
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                out.push_str(".*");
            }
            '?' => out.push('.'),
            '\\' => push_literal(&mut out, chars.next()?),
            '{' if in_alt => return None,
            '{' => {
                in_alt = true;
                out.push_str("(?:");
            }
            '}' if in_alt => {
                in_alt = false;
                out.push(')');
            }
            ',' if in_alt => out.push('|'),
            '[' => {
                out.push('[');
                if matches!(chars.peek(), Some('!' | '^')) {
                    chars.next();
                    out.push('^');
                }
                let mut first = true;
                loop {
                    let c = chars.next()?;
                    if c == ']' && !first {
                        break;
                    }
                    first = false;
                    if c == '-' {
                        out.push('-');
                    } else if c.is_ascii_alphanumeric() {
                        out.push(c);
                    } else {
                        out.push('\\');
                        out.push(c);
                    }
                }
                out.push(']');
            }
            c => push_literal(&mut out, c),
        }
    }
    if in_alt {
        return None;
    }
    out.push('$');
    Some(out)
}

fn push_literal(out: &mut String, c: char) {
    if "\\^$.|?*+()[]{}".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn binds(a: &Aql) -> Value {
        serde_json::to_value(&a.bind).unwrap()
    }

    #[test]
    fn name_queries() {
        let a = names_exact("relay", "plan");
        assert_eq!(
            a.query,
            "FOR s IN symbols FILTER s.repo == @repo AND s.lname == @name \
             SORT s.pkey, s.pos LIMIT @limit RETURN s"
        );
        assert_eq!(
            binds(&a),
            json!({"repo": "relay", "name": "plan", "limit": 10000})
        );
        assert!(a.full_count);

        let a = names_containing("ledger", "repo");
        assert_eq!(
            a.query,
            "FOR s IN symbols FILTER s.repo == @repo AND CONTAINS(s.lname, @part) \
             SORT s.pkey, s.pos LIMIT @limit RETURN s"
        );
        assert_eq!(
            binds(&a),
            json!({"repo": "ledger", "part": "repo", "limit": 10000})
        );

        let a = names_matching("relay", "^.*issue.*$");
        assert_eq!(
            a.query,
            "FOR s IN symbols FILTER s.repo == @repo AND REGEX_TEST(s.lname, @regex) \
             SORT s.pkey, s.pos LIMIT @limit RETURN s"
        );
        assert_eq!(
            binds(&a),
            json!({"repo": "relay", "regex": "^.*issue.*$", "limit": 10000})
        );
    }

    #[test]
    fn qname_and_file_queries() {
        let a = by_qname("relay", "example.com/relay/internal/brain.Planner.Plan");
        assert_eq!(
            a.query,
            "FOR s IN symbols FILTER s.repo == @repo AND s.qname == @qname \
             SORT s.pkey, s.pos LIMIT @limit RETURN s"
        );
        assert_eq!(
            binds(&a),
            json!({"repo": "relay", "qname": "example.com/relay/internal/brain.Planner.Plan", "limit": 10000})
        );
        let a = in_file("relay", "internal/brain/planner.go");
        assert_eq!(
            a.query,
            "FOR s IN symbols FILTER s.repo == @repo AND s.path == @path \
             SORT s.pos LIMIT @limit RETURN s"
        );
        assert_eq!(
            binds(&a),
            json!({"repo": "relay", "path": "internal/brain/planner.go", "limit": 10000})
        );
    }

    #[test]
    fn edge_queries_bind_the_collection_and_clamp_the_limit() {
        let a = edges_out(EdgeKind::Calls, "symbols/abc", 30);
        assert_eq!(
            a.query,
            "FOR e IN @@edges FILTER e._from == @node LET t = DOCUMENT(e._to) FILTER t != null \
             SORT e.line, t.pkey, t.pos LIMIT @limit RETURN { edge: e, other: t }"
        );
        assert_eq!(
            binds(&a),
            json!({"@edges": "calls", "node": "symbols/abc", "limit": 30})
        );
        assert!(a.full_count);
        let a = edges_in(EdgeKind::Implements, "symbols/def", usize::MAX);
        assert_eq!(
            a.query,
            "FOR e IN @@edges FILTER e._to == @node LET f = DOCUMENT(e._from) FILTER f != null \
             SORT f.rank, f.pkey, e.line, f.pos LIMIT @limit RETURN { edge: e, other: f }"
        );
        assert_eq!(
            binds(&a),
            json!({"@edges": "implements", "node": "symbols/def", "limit": 10000})
        );
        assert_eq!(edges_in(EdgeKind::Uses, "n", 1).bind["@edges"], "uses");
        assert_eq!(
            edges_out(EdgeKind::Contains, "n", 1).bind["@edges"],
            "contains"
        );
    }

    #[test]
    fn call_traversals_bind_starts_and_depth_and_keep_the_per_node_order() {
        let nodes = vec![
            "symbols/a".to_string(),
            "symbols/b\" RETURN 1 //".to_string(),
        ];
        let up = calls_within(&nodes, 2, true);
        assert!(
            up.query.contains("FOR v IN 0..@hops INBOUND s @@edges"),
            "{}",
            up.query
        );
        assert!(
            up.query
                .contains("SORT n, f.rank, f.pkey, e.line, f.pos LIMIT @limit"),
            "{}",
            up.query
        );
        assert_eq!(
            binds(&up),
            json!({"@edges": "calls", "nodes": nodes, "hops": 2, "limit": 10000})
        );
        assert!(up.full_count);
        let down = calls_within(&nodes, 0, false);
        assert!(down.query.contains("FOR v IN 0..@hops OUTBOUND s @@edges"));
        assert!(
            down.query
                .contains("SORT n, e.line, t.pkey, t.pos LIMIT @limit")
        );
        assert!(!down.query.contains("RETURN 1"));
    }

    #[test]
    fn hostile_names_are_bound_not_injected() {
        let evil = "x\" RETURN 1 //";
        let a = names_exact("relay", evil);
        assert_eq!(a.query, names_exact("relay", "plan").query);
        assert!(!a.query.contains("RETURN 1"));
        assert_eq!(a.bind["name"], Value::from(evil));
        let a = by_qname("relay", evil);
        assert_eq!(a.query, by_qname("r", "q").query);
        assert_eq!(a.bind["qname"], Value::from(evil));
        let a = in_file("relay", evil);
        assert_eq!(a.bind["path"], Value::from(evil));
        // A hostile repo id is bound too.
        let a = names_containing(evil, "p");
        assert_eq!(a.query, names_containing("relay", "p").query);
        assert_eq!(a.bind["repo"], Value::from(evil));
        // And a hostile glob is escaped into a regex value, never into the query.
        let re = glob_to_regex(evil).unwrap();
        assert_eq!(re, "^x\" RETURN 1 //$");
        assert_eq!(names_matching("relay", &re).bind["regex"], Value::from(re));
    }

    #[test]
    fn push_queries() {
        let a = file_digests("relay", 1_000_000);
        assert_eq!(
            a.query,
            "FOR f IN files FILTER f.repo == @repo SORT f.pkey LIMIT @limit \
             RETURN { path: f.path, digest: f.digest }"
        );
        assert_eq!(binds(&a), json!({"repo": "relay", "limit": 1_000_000}));
        let a = remove_paths("calls", "relay", &["a.go".to_string()]);
        assert_eq!(
            a.query,
            "FOR d IN @@coll FILTER d.repo == @repo AND d.path IN @paths REMOVE d IN @@coll"
        );
        assert_eq!(
            binds(&a),
            json!({"@coll": "calls", "repo": "relay", "paths": ["a.go"]})
        );
        let a = insert("symbols", vec![json!({"_key": "k"})]);
        assert_eq!(
            a.query,
            "FOR d IN @docs INSERT d INTO @@coll OPTIONS { overwriteMode: \"replace\" }"
        );
        assert_eq!(
            binds(&a),
            json!({"@coll": "symbols", "docs": [{"_key": "k"}]})
        );
        let a = remove_repo("files", "relay");
        assert_eq!(
            a.query,
            "FOR d IN @@coll FILTER d.repo == @repo REMOVE d IN @@coll"
        );
        assert_eq!(binds(&a), json!({"@coll": "files", "repo": "relay"}));
        assert_eq!(
            meta("k").query,
            "FOR m IN explore_meta FILTER m._key == @key LIMIT 1 RETURN m"
        );
        assert_eq!(
            symbol_by_key("k").query,
            "FOR s IN symbols FILTER s._key == @key LIMIT 1 RETURN s"
        );
        assert_eq!(
            file_by_key("k").query,
            "FOR f IN files FILTER f._key == @key LIMIT 1 RETURN f"
        );
    }

    #[test]
    fn globs_become_anchored_regexes() {
        assert_eq!(glob_to_regex("*issue*").unwrap(), "^.*issue.*$");
        assert_eq!(glob_to_regex("handle?").unwrap(), "^handle.$");
        assert_eq!(glob_to_regex("**x").unwrap(), "^.*x$");
        assert_eq!(glob_to_regex("[!a]x").unwrap(), "^[^a]x$");
        assert_eq!(glob_to_regex("[a-c]*").unwrap(), "^[a-c].*$");
        assert_eq!(glob_to_regex("[]]").unwrap(), "^[\\]]$");
        assert_eq!(glob_to_regex("{get,set}_*").unwrap(), "^(?:get|set)_.*$");
        assert_eq!(glob_to_regex("a.b+c").unwrap(), "^a\\.b\\+c$");
        assert_eq!(glob_to_regex("\\*x").unwrap(), "^\\*x$");
        assert_eq!(glob_to_regex("[ab"), None);
        assert_eq!(glob_to_regex("{a,b"), None);
        assert_eq!(glob_to_regex("{a,{b}}"), None);
        assert_eq!(glob_to_regex("x\\"), None);
    }

    #[test]
    fn globs_agree_with_globset_on_names() {
        let names = [
            "plan",
            "planner",
            "issuestore",
            "getissue",
            "set_x",
            "get_x",
            "a.b",
            "handle1",
            "x*",
            "[]",
        ];
        for pat in [
            "*issue*",
            "plan?",
            "plan*",
            "{get,set}_*",
            "[gs]et_x",
            "[!p]*",
            "handle?",
        ] {
            let g = globset::GlobBuilder::new(pat)
                .literal_separator(false)
                .build()
                .unwrap()
                .compile_matcher();
            let re = glob_to_regex(pat).unwrap();
            for n in names {
                assert_eq!(
                    g.is_match(n),
                    super::super::memory::regex_match(&re, n),
                    "pattern {pat} on {n} (regex {re})"
                );
            }
        }
    }
}
