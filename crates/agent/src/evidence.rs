//! What the run has seen, and the check that an answer cites only that.
//!
//! Models invent paths and line numbers. Every [`Finding`] a tool returns is recorded
//! here (which file, which lines were shown, which symbols were pointed at, by which
//! tool), and a submitted answer is checked against it: a path no tool returned, a line no
//! tool showed, a line past the end of the file or a role outside spec 004's list is a
//! complaint the model gets back once, word for word; what is still uncited after that is
//! dropped and counted, never printed. The same record is the measure of information gain
//! for doom-loop detection, and, when a run stops early, the material of the partial
//! result, ranked by how each file was found.

use std::collections::{BTreeMap, BTreeSet};

use explore_tools::Finding;

use explore_tools::ToolName;

use crate::result::{Location, RelevantFile, Role};
use crate::specs::SubmitArgs;

/// How strongly a tool's finding says "this file matters": a symbol the code graph
/// resolved beats lines read, which beat a search hit, which beats a directory listing.
pub fn source_rank(tool: &str) -> u8 {
    match ToolName::parse(tool) {
        Some(ToolName::Code) => 0,
        Some(ToolName::Read) => 1,
        Some(ToolName::Bash) => 2,
        Some(ToolName::Tree) => 3,
        None => 4,
    }
}

/// What one file's findings showed.
#[derive(Debug, Clone, Default)]
pub struct FileEvidence {
    /// Order in which the file was first seen.
    pub first_seen: u32,
    /// The best-ranked tool that returned it.
    pub source: String,
    /// Line ranges shown in full (by `read`), merged.
    pub ranges: Vec<(u32, u32)>,
    /// Places pointed at (a symbol's definition, a search hit), with their span if known.
    pub points: Vec<Finding>,
    /// Symbols seen in it.
    pub symbols: BTreeSet<String>,
}

/// What a batch of findings added.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gain {
    /// Files never seen before.
    pub files: u32,
    /// Symbols never seen before.
    pub symbols: u32,
    /// Lines never shown before (new ranges or points).
    pub locations: u32,
}

impl Gain {
    /// True when anything was new.
    pub fn any(&self) -> bool {
        self.files + self.symbols + self.locations > 0
    }
}

/// Everything the run has seen.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    files: BTreeMap<String, FileEvidence>,
    seen: u32,
}

impl Evidence {
    /// Records what `tool` returned and says what was new.
    pub fn add(&mut self, tool: &str, findings: &[Finding]) -> Gain {
        let mut gain = Gain::default();
        for f in findings {
            let path = f.path.trim_start_matches("./").to_string();
            if path.is_empty() {
                continue;
            }
            let next = self.seen;
            if !self.files.contains_key(&path) {
                gain.files += 1;
                self.seen += 1;
            }
            let entry = self.files.entry(path).or_insert_with(|| FileEvidence {
                first_seen: next,
                source: tool.to_string(),
                ..FileEvidence::default()
            });
            if source_rank(tool) < source_rank(&entry.source) {
                entry.source = tool.to_string();
            }
            if let Some(sym) = &f.symbol
                && entry.symbols.insert(sym.clone())
            {
                gain.symbols += 1;
            }
            let Some(line) = f.line else { continue };
            let end = f.end_line.unwrap_or(line).max(line);
            if ToolName::parse(tool) == Some(ToolName::Read) && f.symbol.is_none() {
                if !covered(&entry.ranges, line, end) {
                    gain.locations += 1;
                    entry.ranges.push((line, end));
                    entry.ranges = merge(std::mem::take(&mut entry.ranges));
                }
            } else if !entry
                .points
                .iter()
                .any(|p| p.line == Some(line) && p.end_line.unwrap_or(line) >= end)
            {
                if !covered(&entry.ranges, line, end) {
                    gain.locations += 1;
                }
                entry.points.push(Finding {
                    path: f.path.clone(),
                    line: Some(line),
                    end_line: f.end_line,
                    symbol: f.symbol.clone(),
                    kind: f.kind.clone(),
                });
            }
        }
        gain
    }

    /// The record of `path`, if any tool returned it.
    pub fn file(&self, path: &str) -> Option<&FileEvidence> {
        self.files.get(path.trim_start_matches("./"))
    }

    /// Number of distinct files seen.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// True when the lines `line..=end` of `path` were shown (read in full, or pointed at
    /// by a finding whose span covers them).
    pub fn supports(&self, path: &str, line: u32, end: u32) -> bool {
        let Some(f) = self.file(path) else {
            return false;
        };
        covered(&f.ranges, line, end)
            || f.points.iter().any(|p| {
                let pl = p.line.unwrap_or(0);
                pl == line && end <= p.end_line.unwrap_or(pl).max(pl)
            })
    }

    /// A short description of what was shown of `path`, for complaints.
    pub fn shown(&self, path: &str) -> String {
        let Some(f) = self.file(path) else {
            return "nothing".into();
        };
        let mut parts: Vec<String> = f
            .ranges
            .iter()
            .map(|(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        for p in &f.points {
            if let Some(l) = p.line {
                parts.push(match p.end_line {
                    Some(e) if e > l => format!("{l}-{e}"),
                    _ => l.to_string(),
                });
            }
        }
        parts.dedup();
        if parts.is_empty() {
            "no lines (only its name)".into()
        } else {
            let n = parts.len();
            let mut shown: Vec<String> = parts.into_iter().take(8).collect();
            if n > 8 {
                shown.push(format!("and {} more", n - 8));
            }
            format!("lines {}", shown.join(", "))
        }
    }

    /// The files worth reporting when the run stops before an accepted `submit`: every
    /// file a tool pointed into (directory listings alone are not evidence of relevance),
    /// best-found first, then in the order seen.
    pub fn ranked(&self, limit: usize) -> Vec<RelevantFile> {
        let mut files: Vec<(&String, &FileEvidence)> = self
            .files
            .iter()
            .filter(|(_, f)| source_rank(&f.source) < source_rank("tree"))
            .collect();
        files.sort_by_key(|(_, f)| {
            (
                source_rank(&f.source),
                u8::from(f.points.is_empty() && f.ranges.is_empty()),
                f.first_seen,
            )
        });
        files
            .into_iter()
            .take(limit)
            .map(|(path, f)| fallback_file(path, f))
            .collect()
    }
}

fn fallback_file(path: &str, f: &FileEvidence) -> RelevantFile {
    let mut locations: Vec<Location> = f
        .points
        .iter()
        .filter_map(|p| {
            Some(Location {
                line: p.line?,
                end_line: p.end_line.filter(|e| Some(*e) != p.line),
                symbol: p.symbol.clone(),
                kind: p.kind.clone(),
            })
        })
        .collect();
    locations.extend(f.ranges.iter().map(|(a, b)| Location {
        line: *a,
        end_line: (b > a).then_some(*b),
        symbol: None,
        kind: None,
    }));
    locations.truncate(5);
    let type_kinds = ["interface", "struct", "class", "type"];
    let role = if explore_tools::paths::classify(path).test {
        Role::TestTarget
    } else if f
        .points
        .iter()
        .any(|p| p.kind.as_deref().is_some_and(|k| type_kinds.contains(&k)))
    {
        Role::TypeDefinition
    } else {
        Role::ContextOnly
    };
    let what = if !f.symbols.is_empty() {
        format!(
            "{} here",
            f.symbols
                .iter()
                .take(4)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else if !f.ranges.is_empty() {
        format!("read {}", shown_ranges(&f.ranges))
    } else {
        "matched a search".into()
    };
    RelevantFile {
        path: path.to_string(),
        rationale: format!(
            "Found by {} during the run ({what}); not confirmed by a submitted answer",
            f.source
        ),
        role,
        discovery_source: f.source.clone(),
        key_symbols: f.symbols.iter().take(6).cloned().collect(),
        locations,
    }
}

fn shown_ranges(ranges: &[(u32, u32)]) -> String {
    ranges
        .iter()
        .map(|(a, b)| format!("lines {a}-{b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn covered(ranges: &[(u32, u32)], line: u32, end: u32) -> bool {
    ranges.iter().any(|(a, b)| *a <= line && end <= *b)
}

fn merge(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
    for (a, b) in ranges {
        match out.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// The outcome of checking a submission.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// The files that passed (with the loop's discovery source, bad locations removed).
    pub files: Vec<RelevantFile>,
    /// What the model must fix, one line each, exactly.
    pub complaints: Vec<String>,
    /// Paths and locations the model claimed.
    pub claims: u32,
    /// Claims that were dropped.
    pub dropped: u32,
    /// Roles that were not in spec 004's list and were replaced by `context_only`.
    pub roles_replaced: u32,
    /// Citations in the prose answer that no tool output backs.
    pub answer_unbacked: Vec<UnbackedCite>,
}

/// Checks `submit`'s files against the evidence. `line_count` gives a file's length in
/// lines (None when it cannot be read). Everything that fails is a complaint, and is left
/// out of `files`.
pub fn check_submission(
    submitted: &SubmitArgs,
    evidence: &Evidence,
    line_count: &dyn Fn(&str) -> Option<u32>,
) -> Checked {
    let mut out = Checked::default();
    let mut seen_paths = BTreeSet::new();
    for (i, f) in submitted.relevant_files.iter().enumerate() {
        out.claims += 1 + f.locations.len() as u32;
        let path = f.path.trim().trim_start_matches("./").to_string();
        let Some(ev) = evidence.file(&path) else {
            out.complaints.push(format!(
                "relevant_files[{i}].path `{}` was not returned by any tool in this run; cite only paths a tool printed (or look it up first, e.g. code {{\"operation\":\"find\",\"symbol\":\"…\"}}), or drop it",
                f.path
            ));
            out.dropped += 1 + f.locations.len() as u32;
            continue;
        };
        if !seen_paths.insert(path.clone()) {
            out.complaints.push(format!(
                "relevant_files[{i}].path `{path}` is listed twice; merge its entries"
            ));
            out.dropped += 1 + f.locations.len() as u32;
            continue;
        }
        let role = match Role::parse(&f.role.trim().to_lowercase().replace([' ', '-'], "_")) {
            Some(r) => r,
            None => {
                out.complaints.push(format!(
                    "relevant_files[{i}].role `{}` is not a role; use one of: {}",
                    f.role,
                    Role::ALL.map(|r| r.as_str()).join(", ")
                ));
                out.roles_replaced += 1;
                Role::ContextOnly
            }
        };
        let total = line_count(&path);
        let mut locations = Vec::new();
        for (j, loc) in f.locations.iter().enumerate() {
            let end = loc.end_line.unwrap_or(loc.line);
            let place = format!("relevant_files[{i}].locations[{j}]");
            if loc.line == 0 || end < loc.line {
                out.complaints.push(format!(
                    "{place} has line {} and end_line {end}; lines are 1-based and end_line is not before line",
                    loc.line
                ));
                out.dropped += 1;
                continue;
            }
            if let Some(total) = total
                && end > total
            {
                out.complaints.push(format!(
                    "{place} cites line {end} of `{path}`, which has {total} lines"
                ));
                out.dropped += 1;
                continue;
            }
            if !evidence.supports(&path, loc.line, end) {
                let span = if end == loc.line {
                    format!("line {} of `{path}` was", loc.line)
                } else {
                    format!("lines {}-{end} of `{path}` were", loc.line)
                };
                out.complaints.push(format!(
                    "{place}: {span} never shown by a tool (shown: {}); cite lines you saw, or read them first",
                    evidence.shown(&path)
                ));
                out.dropped += 1;
                continue;
            }
            locations.push(Location {
                line: loc.line,
                end_line: loc.end_line.filter(|e| *e != loc.line),
                symbol: loc.symbol.clone(),
                kind: loc.kind.clone(),
            });
        }
        out.files.push(RelevantFile {
            path,
            rationale: f.rationale.trim().to_string(),
            role,
            discovery_source: ev.source.clone(),
            key_symbols: f.key_symbols.clone(),
            locations,
        });
    }
    out.answer_unbacked = check_answer(&submitted.answer, evidence);
    out.complaints
        .extend(out.answer_unbacked.iter().map(|u| u.complaint.clone()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_counts_only_new_things() {
        let mut e = Evidence::default();
        let g = e.add("read", &[Finding::range("a.go", 1, 50)]);
        assert_eq!(
            g,
            Gain {
                files: 1,
                symbols: 0,
                locations: 1
            }
        );
        assert!(!e.add("read", &[Finding::range("a.go", 10, 20)]).any());
        let g = e.add("read", &[Finding::range("a.go", 40, 80)]);
        assert_eq!(g.locations, 1);
        assert_eq!(e.file("a.go").unwrap().ranges, vec![(1, 80)]);
        assert!(e.supports("a.go", 60, 70));
        assert!(!e.supports("a.go", 60, 90));
        assert_eq!(e.shown("a.go"), "lines 1-80");
    }

    #[test]
    fn code_outranks_tree_for_discovery() {
        let mut e = Evidence::default();
        e.add("tree", &[Finding::file("m.go")]);
        e.add(
            "code",
            &[Finding {
                path: "m.go".into(),
                line: Some(7),
                end_line: Some(9),
                symbol: Some("Store".into()),
                kind: Some("interface".into()),
            }],
        );
        assert_eq!(e.file("m.go").unwrap().source, "code");
        assert!(e.supports("m.go", 7, 9));
        assert!(!e.supports("m.go", 8, 8));
        let r = e.ranked(5);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].role, Role::TypeDefinition);
        assert_eq!(r[0].locations[0].line, 7);
        assert_eq!(r[0].locations[0].end_line, Some(9));
    }
}

/// File extensions that make a word in the answer a path citation even without a `/`.
const CITED_EXTENSIONS: [&str; 18] = [
    "go", "py", "rs", "md", "toml", "yaml", "yml", "json", "proto", "sql", "js", "ts", "txt",
    "mod", "sum", "cfg", "ini", "sh",
];

/// A `path[:line[-end]]` the prose answer cites that the evidence does not back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnbackedCite {
    /// The citation as written.
    pub text: String,
    /// What is wrong with it, for the model.
    pub complaint: String,
}

/// The citations in `answer` that no tool output backs: paths no tool returned, lines no
/// tool showed. A bare file name (`issue.go`) is backed when it names exactly one file
/// the run saw.
pub fn check_answer(answer: &str, evidence: &Evidence) -> Vec<UnbackedCite> {
    let mut out: Vec<UnbackedCite> = Vec::new();
    let separators = |c: char| c.is_whitespace() || ",;()[]{}\"'`<>*".contains(c);
    for raw in answer.split(separators) {
        let word = raw.trim_end_matches(['.', ':', '!', '?']);
        if word.is_empty() || word.contains("://") || out.iter().any(|u| u.text == word) {
            continue;
        }
        let (path, lines) = match word.split_once(':') {
            Some((p, l)) => (p, Some(l)),
            None => (word, None),
        };
        let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        let looks_like_path =
            (path.contains('/') && path.contains('.')) || CITED_EXTENSIONS.contains(&ext);
        if !looks_like_path || path.starts_with('@') {
            continue;
        }
        let path = path.trim_start_matches("./");
        let known = if evidence.file(path).is_some() {
            Some(path.to_string())
        } else {
            let matches: Vec<&String> = evidence
                .files
                .keys()
                .filter(|k| k.ends_with(&format!("/{path}")))
                .collect();
            (matches.len() == 1).then(|| matches[0].clone())
        };
        let Some(known) = known else {
            out.push(UnbackedCite {
                text: word.to_string(),
                complaint: format!(
                    "the answer cites `{word}`, a path no tool returned in this run; cite only paths a tool printed"
                ),
            });
            continue;
        };
        let Some(lines) = lines else { continue };
        let (a, b) = match lines.split_once('-') {
            Some((a, b)) => (a.parse::<u32>().ok(), b.parse::<u32>().ok()),
            None => (lines.parse::<u32>().ok(), lines.parse::<u32>().ok()),
        };
        if let (Some(a), Some(b)) = (a, b)
            && !evidence.supports(&known, a, b.max(a))
        {
            out.push(UnbackedCite {
                text: word.to_string(),
                complaint: format!(
                    "the answer cites `{word}`, lines no tool showed (shown of `{known}`: {}); cite lines you saw",
                    evidence.shown(&known)
                ),
            });
        }
    }
    out
}

/// `answer` with every unbacked citation marked `(unverified)`, so no invented path or
/// line is printed as fact.
pub fn mark_unverified(answer: &str, unbacked: &[UnbackedCite]) -> String {
    let is_sep = |c: char| c.is_whitespace() || ",;()[]{}\"'`<>*".contains(c);
    let mut out = String::with_capacity(answer.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let core = word.trim_end_matches(['.', ':', '!', '?']);
        if !core.is_empty() && unbacked.iter().any(|u| u.text == core) {
            let tail = &word[core.len()..];
            out.push_str(core);
            out.push_str(" (unverified)");
            out.push_str(tail);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in answer.chars() {
        if is_sep(c) {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod answer_tests {
    use super::*;

    #[test]
    fn answer_citations_are_checked() {
        let mut e = Evidence::default();
        e.add(
            "read",
            &[Finding::range("internal/model/issue.go", 150, 162)],
        );
        let bad = check_answer(
            "IssueStore is at internal/model/issue.go:155-162 (see issue.go:155), not in internal/store/issue_store.go or internal/model/issue.go:40. See https://example.com/a.go, e.g. v1.2.",
            &e,
        );
        let texts: Vec<&str> = bad.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "internal/store/issue_store.go",
                "internal/model/issue.go:40"
            ]
        );
        assert_eq!(
            bad[1].complaint,
            "the answer cites `internal/model/issue.go:40`, lines no tool showed (shown of `internal/model/issue.go`: lines 150-162); cite lines you saw"
        );
        assert_eq!(
            mark_unverified(
                "see internal/store/issue_store.go. Not internal/store/issue_store.gox",
                &bad[..1]
            ),
            "see internal/store/issue_store.go (unverified). Not internal/store/issue_store.gox"
        );
    }
}
