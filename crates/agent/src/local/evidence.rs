//! Reading `code` results back: the places a [`CodeAnswer`] holds, and what each one is.
//!
//! The `code` tool returns its answer as a typed value beside the text the model reads
//! ([`ToolDetail::Code`]); the local engine reads only that value. Which place is the
//! target and which are callers, implementations or what the target implements comes
//! from the answer's sections, so a change of the model-facing wording changes nothing
//! here. Only places the tool returned ever reach an answer.

use explore_tools::ToolDetail;

use super::routing::Doubt;
use super::text;
use explore_tools::code::answer::{Item, Origin};
use explore_tools::code::{self, CodeAnswer, Operation};

/// One place a `code` answer holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The symbol's name as shown (`Planner.Plan`).
    pub name: Option<String>,
    /// Its fully qualified name, package or module path included.
    pub qname: Option<String>,
    /// Its kind.
    pub kind: Option<String>,
    /// Repo-relative path.
    pub path: String,
    /// Line, 1-based: the definition, or for callers the first call site.
    pub line: u32,
    /// Last line of the definition.
    pub end_line: Option<u32>,
    /// How it relates to the target; `None` for the target itself.
    pub section: Option<code::answer::Relation>,
    /// Where it is called, for callees and trace hops: the calling file and line.
    pub call_site: Option<(String, u32)>,
    /// Every call site of a caller, in its own file (the first is `line`).
    pub calls: Vec<u32>,
    /// The graph guessed this call from the name alone.
    pub inferred: bool,
    /// Where its path says it comes from (tests, vendored, generated code).
    pub origin: Origin,
    /// An inherited method's declaring class; an indirect subclass's parent.
    pub via: Option<String>,
    /// Its declaration's first line, as the index keeps it (`pub(crate) struct X<T>`).
    pub signature: Option<String>,
    /// A guessed caller: how many other methods the guess chose at its call site.
    pub rivals: u32,
}

impl Hit {
    fn of(item: &Item, section: Option<code::answer::Relation>) -> Hit {
        // A reader of a Go variable (`used_by` with lines) is cited where it reads, as a
        // caller is where it calls.
        let up = match section {
            Some(
                code::answer::Relation::Callers
                | code::answer::Relation::Through
                | code::answer::Relation::Constructions,
            ) => true,
            Some(code::answer::Relation::UsedBy) => !item.calls.is_empty(),
            Some(code::answer::Relation::References) => true,
            _ => false,
        };
        // A caller is cited where it calls; a callee or a hop where it is defined, with
        // the call site beside it.
        let (line, end_line, call_site) = match (up, item.first_call(), &item.call_path) {
            (true, Some(first), _) => (first, Some(first), None),
            (false, Some(first), Some(path)) => {
                (item.line, Some(item.end_line), Some((path.clone(), first)))
            }
            _ => (item.line, Some(item.end_line), None),
        };
        Hit {
            name: Some(item.name.clone()),
            qname: Some(item.qname.clone()),
            kind: Some(item.kind.as_str().to_string()),
            path: item.path.clone(),
            line,
            end_line,
            section,
            call_site,
            calls: if up { item.calls.clone() } else { Vec::new() },
            inferred: item.inferred,
            origin: item.origin,
            via: item.via.clone(),
            signature: item.signature.clone(),
            rivals: item.rivals,
        }
    }
}

/// What a `code` call answered, as the engine acts on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The target (first, `section: None`) and what relates to it, with what makes the
    /// answer less than certain (guessed calls, a cut list, dispatch through an interface).
    Hits(Vec<Hit>, Vec<Doubt>),
    /// The name matched several symbols and the tool wants a narrower one.
    Ambiguous(Vec<Hit>),
    /// Nothing by that name, or no call path between two names.
    NotFound,
    /// The name is a symbol the operation does not work on; `instead` are operations that
    /// do (`usages` for a type asked about as `callers`).
    WrongKind {
        /// Operations that work on it.
        instead: Vec<Operation>,
    },
    /// The call itself was wrong (bad arguments) or failed.
    Error,
}

/// Reads a `code` result from its typed detail; a result without one (bad arguments, an
/// index failure) is an error.
pub fn read_code(detail: Option<&ToolDetail>) -> Reply {
    let Some(answer) = detail.and_then(ToolDetail::code) else {
        return Reply::Error;
    };
    match answer {
        CodeAnswer::Found(f) => {
            let mut hits: Vec<Hit> = f.target.iter().map(|t| Hit::of(t, None)).collect();
            let mut doubts = Vec::new();
            for s in &f.sections {
                hits.extend(s.items.iter().map(|i| Hit::of(i, Some(s.relation))));
                if s.total > s.items.len() {
                    doubts.push(Doubt::Cut);
                }
                if s.relation == code::answer::Relation::Through && !s.items.is_empty() {
                    doubts.push(Doubt::Dispatch);
                }
            }
            if hits.iter().any(|h| h.inferred) {
                doubts.push(Doubt::Inferred);
            }
            if f.partial_graph.is_some() {
                doubts.push(Doubt::PartialGraph);
            }
            Reply::Hits(hits, doubts)
        }
        CodeAnswer::Ambiguous(a) => {
            Reply::Ambiguous(a.candidates.iter().map(|c| Hit::of(c, None)).collect())
        }
        CodeAnswer::NotFound(_) | CodeAnswer::NoPath(_) => Reply::NotFound,
        CodeAnswer::WrongKind(w) => Reply::WrongKind {
            instead: w.instead.clone(),
        },
    }
}

/// The name of a definition a `find` answer lists (found, partial match or suggestion)
/// whose own name is `joined` ignoring case and underscores (`_PClassEvolver` for
/// `PClassEvolver`), as the tool shows it; `None` when no definition is spelled so.
pub fn spelled_as(detail: Option<&ToolDetail>, joined: &str) -> Option<String> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|&c| c != '_')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let want = key(joined);
    let items: Vec<&code::answer::Item> = match detail.and_then(ToolDetail::code)? {
        CodeAnswer::Found(f) => f
            .target
            .iter()
            .chain(f.sections.iter().flat_map(|s| s.items.iter()))
            .collect(),
        CodeAnswer::Ambiguous(a) => a.candidates.iter().collect(),
        CodeAnswer::NotFound(n) => n.near.iter().collect(),
        _ => return None,
    };
    items
        .into_iter()
        .find(|i| key(i.name.rsplit(['.', ':']).next().unwrap_or(&i.name)) == want)
        .map(|i| i.name.clone())
}

/// How many related symbols a `code` answer's lists hold in all (callers, methods,
/// implementations…; not a `find`'s definitions): more than its items when the walk
/// stopped at its limit, and more than an answer names when it names the first few.
pub fn list_total(detail: Option<&ToolDetail>) -> usize {
    match detail.and_then(ToolDetail::code) {
        Some(CodeAnswer::Found(f)) => f
            .sections
            .iter()
            .filter(|s| {
                !matches!(
                    s.relation,
                    code::answer::Relation::Definitions | code::answer::Relation::PartialMatches
                )
            })
            .map(|s| s.total.max(s.items.len()))
            .sum(),
        _ => 0,
    }
}

/// Whether a line's call of method `method` is on a receiver that names type `owner`:
/// the last name before `.method(` shares a word of three letters or more with it
/// (`self.shell.run_cell(` and `InteractiveShell`, `self.conn_pool.get(` and
/// `ConnectionPool`). A guess from the name alone is then most likely right.
pub fn receiver_names(line: &str, method: &str, owner: &str) -> bool {
    let owner_words: Vec<String> = text::split_words(owner)
        .into_iter()
        .filter(|w| w.chars().count() >= 3)
        .collect();
    let call = format!(".{method}(");
    line.match_indices(&call).any(|(at, _)| {
        let before = &line[..at];
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        text::split_words(&before[start..])
            .iter()
            .any(|w| owner_words.iter().any(|o| o == w))
    })
}

#[cfg(test)]
mod receiver_tests {
    use super::receiver_names;

    #[test]
    fn a_receiver_names_the_type_by_a_word_of_it() {
        let line = "        self.shell.run_cell(source, store_history=False)";
        assert!(receiver_names(line, "run_cell", "InteractiveShell"));
        assert!(!receiver_names(line, "run_cell", "Demo"));
        assert!(receiver_names(
            "p = self.conn_pool.get(key)",
            "get",
            "ConnectionPool"
        ));
        // Not the receiver of another call on the line, nor a call's result.
        assert!(!receiver_names(
            "shell.x(); ip.run_cell(c)",
            "run_cell",
            "InteractiveShell"
        ));
        assert!(!receiver_names(
            "get_shell().run_cell(c)",
            "run_cell",
            "InteractiveShell"
        ));
        // Words shorter than three letters do not count.
        assert!(!receiver_names("io.run(x)", "run", "IO"));
    }
}
