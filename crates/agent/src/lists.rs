//! Lists shown in part: how many of each `code` list the result carries, of how many.
//!
//! A `code` answer's sections hold every related symbol the walk found with the total
//! (`Section::total`), but a result cites only what its writer chose: a type's 110
//! methods may end as 16 locations. Whoever reads the result must be able to tell a
//! complete list from the first part of one, and know how to get the rest, so the loop
//! (not the engine) counts, for every list a `code` call returned, how many of its items
//! the result cites. The counts are `_metadata.lists` in the JSON; the human output says
//! so when a list is cut.

use explore_tools::code::CodeAnswer;
use explore_tools::code::answer::Relation;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::result::RelevantFile;

/// One list a `code` call returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListSeen {
    operation: &'static str,
    symbol: String,
    file: Option<String>,
    relation: Relation,
    total: usize,
    /// Each item's path and the lines that cite it: its definition and its call lines.
    items: Vec<(String, Vec<u32>)>,
}

/// A list as the result reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListReport {
    /// The `code` operation (`methods`, `callers`, …).
    pub operation: String,
    /// The symbol as asked.
    pub symbol: String,
    /// The section's relation (`methods`, `callers`, `through`, …).
    pub relation: Relation,
    /// How many items the list has in all.
    pub total: usize,
    /// How many of them the result cites.
    pub listed: usize,
    /// The command that prints the list's items (its JSON `detail` holds up to the
    /// walk's limit; its text the first few).
    pub rest: String,
}

impl ListSeen {
    /// The lists of one `code` answer. Definitions (`find`) are not lists a reader
    /// expects in full: the chosen definition over tests is the answer.
    pub fn of(answer: &CodeAnswer) -> Vec<ListSeen> {
        let CodeAnswer::Found(f) = answer else {
            return Vec::new();
        };
        f.sections
            .iter()
            .filter(|s| {
                s.total > 0
                    && !matches!(s.relation, Relation::Definitions | Relation::PartialMatches)
            })
            .map(|s| ListSeen {
                operation: f.operation.as_str(),
                symbol: f.asked.symbol.clone(),
                file: f.asked.file.clone(),
                relation: s.relation,
                total: s.total.max(s.items.len()),
                items: s
                    .items
                    .iter()
                    .map(|i| {
                        let mut lines = vec![i.line];
                        lines.extend(&i.calls);
                        (i.path.clone(), lines)
                    })
                    .collect(),
            })
            .collect()
    }

    /// How many of this list's items `files` cite, by path and line.
    fn report(&self, files: &[RelevantFile]) -> ListReport {
        let listed = self
            .items
            .iter()
            .filter(|(path, lines)| {
                files
                    .iter()
                    .any(|f| f.path == *path && f.locations.iter().any(|l| lines.contains(&l.line)))
            })
            .count();
        let mut args = json!({"operation": self.operation, "symbol": self.symbol});
        if let Some(file) = &self.file {
            args["file"] = json!(file);
        }
        ListReport {
            operation: self.operation.to_string(),
            symbol: self.symbol.clone(),
            relation: self.relation,
            total: self.total,
            listed,
            rest: format!("explore tool code '{args}' --json"),
        }
    }
}

/// The reports of every list seen, once each (a repeated call adds nothing).
pub fn reports(lists: &[ListSeen], files: &[RelevantFile]) -> Vec<ListReport> {
    let mut out: Vec<ListReport> = Vec::new();
    for l in lists {
        let r = l.report(files);
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}
