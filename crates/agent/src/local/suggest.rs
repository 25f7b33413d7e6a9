//! "Did you mean": a definition question whose name the repository does not define.
//!
//! Such a question has no answer, and saying so is the answer: the run ends `not_found`
//! (exit 1) whatever else resembles the name, because files that merely share its words
//! would read as the place it is defined. What resembles it goes in the answer text as
//! suggestions, each with the `path:line` a `code` call returned, so a typo ("Planer",
//! "IssueStor") costs one more question, not a hunt through unrelated files.
//!
//! Suggestions come from the graph: the `find` answer's partial matches (names that
//! contain the one asked for), else names of the ranking corpus within a small edit
//! distance, each looked up with `code find` so its location is backed by a tool result.

use super::*;

/// Most suggestions an answer lists.
const MAX_SUGGESTIONS: usize = 3;

impl LocalPolicy {
    /// Ends a definition question whose name nothing defines: looks up the names that
    /// are close to it, or ends at once when none is.
    pub(super) fn undefined(&mut self, sym: &SymbolRef, near: Vec<Hit>) -> Vec<ToolCall> {
        self.undefined = true;
        if !near.is_empty() {
            self.suggestions = best(near);
            return Vec::new();
        }
        let index = self.lex_index();
        let names = close_names(index.corpus(), sym.leaf());
        names
            .into_iter()
            .map(|name| {
                let args = json!({"operation": "find", "symbol": name});
                self.call(ToolName::Code, args, Some(Purpose::Suggest))
            })
            .collect()
    }

    /// Reads a suggestion's `find` back: its definitions, real code first.
    pub(super) fn on_suggest(&mut self, answer: Reply) {
        if let Reply::Hits(hits, _) = answer {
            let mut all = std::mem::take(&mut self.suggestions);
            all.extend(hits);
            self.suggestions = best(all);
        }
    }

    /// "No symbol `Planer` is defined in the repository. Did you mean `Planner` (struct)
    /// at internal/brain/planner.go:20?"
    pub(super) fn undefined_text(&self, name: &str) -> String {
        let mut text = format!("No symbol `{name}` is defined in the repository");
        if let Some(n) = self.unmentioned {
            text.push_str(&format!(
                " (no source file mentions it; text search over {n} files)"
            ));
        }
        if self.suggestions.is_empty() {
            text.push_str("; no relevant files.");
            return text;
        }
        let shown: Vec<String> = self
            .suggestions
            .iter()
            .map(|h| {
                let kind = h
                    .kind
                    .as_deref()
                    .map(|k| format!(" ({k})"))
                    .unwrap_or_default();
                format!(
                    "`{}`{kind} at {}:{}",
                    h.name.as_deref().unwrap_or(name),
                    h.path,
                    h.line
                )
            })
            .collect();
        let list = match shown.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => shown.join(""),
        };
        text.push_str(&format!(". Did you mean {list}?"));
        text
    }
}

/// The suggestions worth showing: one per place, real code before tests, vendored and
/// generated code, at most [`MAX_SUGGESTIONS`].
fn best(mut hits: Vec<Hit>) -> Vec<Hit> {
    hits.sort_by_key(|h| u8::from(classify::classify(&h.path).secondary()));
    let mut out: Vec<Hit> = Vec::new();
    for h in hits {
        if !out.iter().any(|o| o.path == h.path && o.line == h.line) {
            out.push(Hit { section: None, ..h });
        }
    }
    out.truncate(MAX_SUGGESTIONS);
    out
}

/// Names of the corpus close to `name`: equal ignoring case and `_`, or within an edit
/// distance that grows with the name's length (1 up to 4 characters, 2 up to 8, else
/// 3), closest first.
fn close_names(corpus: &rank::Corpus, name: &str) -> Vec<String> {
    let want = fold(name);
    let limit = match want.chars().count() {
        0..=2 => return Vec::new(),
        3..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    let mut scored: Vec<(usize, &str)> = Vec::new();
    for s in &corpus.symbols {
        if scored.iter().any(|(_, n)| *n == s.name) {
            continue;
        }
        let d = distance(&want, &fold(&s.name));
        if d <= limit {
            scored.push((d, &s.name));
        }
    }
    scored.sort();
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, n)| n.to_string())
        .collect()
}

/// A name as compared: lower case, without underscores (`issue_store` ≈ `IssueStore`).
fn fold(name: &str) -> String {
    name.chars()
        .filter(|&c| c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance with adjacent transpositions (optimal string alignment): a
/// swapped pair is one typo.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > 3 {
        return usize::MAX;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_close_and_other_words_are_not() {
        assert_eq!(distance("planer", "planner"), 1);
        assert_eq!(distance("blueprnt", "blueprint"), 1);
        assert_eq!(distance("issuestroe", "issuestore"), 1);
        assert_eq!(distance("servemux", "servehttp"), 4);
        assert_eq!(fold("issue_store"), "issuestore");
    }

    #[test]
    fn close_names_are_closest_first_and_skip_short_names() {
        let sym = |name: &str| rank::SymbolInfo {
            name: name.into(),
            display: name.into(),
            kind: "struct".into(),
            file: 0,
            line: 1,
            end_line: 1,
            doc: String::new(),
        };
        let corpus = rank::Corpus {
            files: vec!["a.go".into()],
            symbols: vec![sym("Plans"), sym("Planner"), sym("Planner"), sym("Handler")],
            edges: Vec::new(),
        };
        assert_eq!(close_names(&corpus, "Planer"), vec!["Planner", "Plans"]);
        assert!(close_names(&corpus, "Pl").is_empty());
    }
}
