//! `explore eval`: suite parsing errors, scoring math on hand-made results, report
//! rendering (JUnit well-formedness and escaping), thresholds and exit codes, and an
//! end-to-end run of a small suite on the relay fixture.
//!
//! The eval modules are compiled into this test binary from their source files, so the
//! scoring is tested on exact hand-made `ExploreResult`s without going through a run.

// Helpers outside `#[test]` functions unwrap too: a failed fixture write is a failed test.
#![allow(clippy::unwrap_used)]

#[allow(dead_code)]
#[path = "../src/eval/mod.rs"]
mod eval;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use eval::report::{self, RunInfo};
use eval::score::{Outcome, budgeted_lines, median, percentile, score_case, summarize};
use eval::suite::{self, Case, Kind};
use explore_agent::{ExploreResult, Location, Metadata, RelevantFile, Role, StopReason, Usage};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../evals/fixtures")
}

fn parse(text: &str) -> Result<suite::Suite, suite::SuiteError> {
    suite::parse(Path::new("evals/suites/t.toml"), text)
}

fn one_case(body: &str) -> Case {
    let text = format!("[suite]\nrepo = \"r\"\nline_budget = 10\n\n[[case]]\n{body}");
    parse(&text).unwrap().cases.remove(0)
}

fn file(path: &str, locs: &[(u32, Option<u32>)], syms: &[&str]) -> RelevantFile {
    RelevantFile {
        path: path.into(),
        rationale: "r".into(),
        role: Role::ContextOnly,
        discovery_source: "code".into(),
        key_symbols: syms.iter().map(|s| s.to_string()).collect(),
        locations: locs
            .iter()
            .map(|(line, end)| Location {
                line: *line,
                end_line: *end,
                symbol: None,
                kind: None,
            })
            .collect(),
    }
}

fn result(files: Vec<RelevantFile>, stop: StopReason) -> ExploreResult {
    ExploreResult {
        version: 1,
        query: "q".into(),
        angle: "general".into(),
        answer: "The answer cites internal/model/issue.go:155.".into(),
        metadata: Metadata {
            created_by: "explore".into(),
            timestamp: "2026-11-21T10:00:00Z".into(),
            cache_key: "general".into(),
            engine: "local".into(),
            model: None,
            search_sources: vec!["code".into()],
            total_files_scanned: 10,
            relevant_file_count: files.len(),
            partial: stop.is_partial(),
            stop_reason: stop,
            usage: Usage {
                prompt_tokens: 900,
                completion_tokens: 100,
                total_tokens: 1000,
                budget: 60000,
            },
            turns: 3,
            tool_calls: BTreeMap::from([("code".to_string(), 2), ("read".to_string(), 1)]),
            duration_ms: 5,
            extra: serde_json::Map::new(),
        },
        relevant_files: files,
        patterns: vec![],
        dependencies: vec![],
        external_refs: vec![],
    }
}

fn ok(r: ExploreResult, ms: u64) -> Outcome {
    Outcome {
        result: Ok(r),
        wall_ms: ms,
    }
}

// ------------------------------------------------------------------ suite parsing

#[test]
fn unknown_kind_names_file_case_and_field() {
    let e = parse(
        "[suite]\nrepo = \"r\"\n[[case]]\nid = \"k1\"\nquery = \"q\"\nkind = \"definitions\"\nfiles = [\"a\"]\n",
    )
    .unwrap_err();
    assert_eq!(e.case.as_deref(), Some("k1"));
    assert_eq!(e.field.as_deref(), Some("kind"));
    assert_eq!(
        e.to_string(),
        "malformed suite evals/suites/t.toml: case `k1`: field `kind`: unknown kind `definitions`; use one of: definition, callers, callees, implementations, methods, usages, trace, concept, not_found"
    );
}

#[test]
fn bad_location_line_names_the_sub_field() {
    let e = parse(
        "[suite]\nrepo = \"r\"\n[[case]]\nid = \"c\"\nquery = \"q\"\nkind = \"definition\"\nlocations = [\"a.go:1\", { at = \"b.go:x\" }]\n",
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("locations[1].at"));
    assert_eq!(
        e.message,
        "`b.go:x`: the line must be a number of 1 or more"
    );
}

#[test]
fn missing_query_and_case_without_id_are_named() {
    let e = parse("[suite]\nrepo = \"r\"\n[[case]]\nkind = \"definition\"\nfiles = [\"a\"]\n")
        .unwrap_err();
    assert_eq!(e.case.as_deref(), Some("#1"));
    assert_eq!(e.field.as_deref(), Some("id"));
    assert_eq!(e.message, "missing field `id`");
    let e = parse(
        "[suite]\nrepo = \"r\"\n[[case]]\nid = \"a\"\nkind = \"definition\"\nfiles = [\"a\"]\n",
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("query"));
}

#[test]
fn duplicate_ids_unknown_keys_and_empty_cases_are_errors() {
    let dup = "[suite]\nrepo = \"r\"\n[[case]]\nid = \"a\"\nquery = \"q\"\nkind = \"definition\"\nfiles = [\"x\"]\n[[case]]\nid = \"a\"\nquery = \"q\"\nkind = \"definition\"\nfiles = [\"x\"]\n";
    let e = parse(dup).unwrap_err();
    assert_eq!(
        (e.case.as_deref(), e.field.as_deref()),
        (Some("a"), Some("id"))
    );

    let e = parse("[suite]\nrepo = \"r\"\nranks = 3\n[[case]]\nid = \"a\"\nquery = \"q\"\nkind = \"definition\"\nfiles = [\"x\"]\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("suite"));
    assert!(e.message.contains("unknown field `ranks`"), "{}", e.message);

    let e =
        parse("[suite]\nrepo = \"r\"\n[[case]]\nid = \"a\"\nquery = \"q\"\nkind = \"callers\"\n")
            .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("files"));

    let e = parse("[suite]\nrepo = \"r\"\n[[case]]\nid = \"a\"\nquery = \"q\"\nkind = \"not_found\"\nfiles = [\"x\"]\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("kind"));

    let e = parse("[suite]\nrepo = \"r\"\n[thresholds]\nmin_accuracy = 80\n[[case]]\nid = \"a\"\nquery = \"q\"\nkind = \"not_found\"\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("thresholds.min_accuracy"));

    let e = parse(
        "[suite]\nrepo = \"r\"\n[[case]]\nid = \"a b\"\nquery = \"q\"\nkind = \"not_found\"\n",
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("id"));

    let e = parse("[suite]\nrepo = \"r\"\n[[case]]\nid = \"a\"\nquery = \"q\"\nkind = \"definition\"\nfiles = [{ path = \"x\", rank = 0 }]\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("files[0]"));
}

#[test]
fn invalid_toml_names_the_file() {
    let e = parse("[suite\nrepo = 1").unwrap_err();
    assert_eq!(e.case, None);
    assert!(
        e.to_string()
            .starts_with("malformed suite evals/suites/t.toml: not valid TOML:"),
        "{e}"
    );
}

#[test]
fn our_suites_parse_and_cover_every_kind() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../evals/suites");
    let files = suite::discover(&dir).unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    let mut n = 0;
    for f in &files {
        let s = suite::load(f).unwrap();
        for c in &s.cases {
            kinds.insert(c.kind);
            assert!(c.repo.is_dir(), "{}: {}", c.id, c.repo.display());
            n += 1;
        }
    }
    assert!(n >= 60, "{n} cases");
    assert_eq!(kinds.len(), Kind::ALL.len(), "{kinds:?}");
}

#[test]
fn every_expected_location_in_our_suites_exists_in_the_fixture() {
    // Ground truth check: each expected `path:line` names a real line of a real file.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../evals/suites");
    for f in suite::discover(&dir).unwrap() {
        let s = suite::load(&f).unwrap();
        for c in &s.cases {
            for l in &c.expect.locations {
                let text = std::fs::read_to_string(c.repo.join(&l.path))
                    .unwrap_or_else(|e| panic!("{}: {}: {e}", c.id, l.path));
                let line = text.lines().nth(l.line as usize - 1);
                assert!(
                    line.is_some_and(|t| !t.trim().is_empty()),
                    "{}: {}:{} is past the end or blank",
                    c.id,
                    l.path,
                    l.line
                );
            }
            for p in c.expect.files.iter().map(|f| &f.path) {
                assert!(c.repo.join(p).is_file(), "{}: {p}", c.id);
            }
        }
    }
}

// ------------------------------------------------------------------ scoring

#[test]
fn acc_at_k_and_reciprocal_rank() {
    let case = one_case(
        "id = \"a\"\nquery = \"q\"\nkind = \"callers\"\nfiles = [\"b.go\", { path = \"d.go\", rank = 4 }]\n",
    );
    let r = result(
        vec![
            file("x.go", &[], &[]),
            file("b.go", &[], &[]),
            file("y.go", &[], &[]),
            file("d.go", &[], &[]),
        ],
        StopReason::Answered,
    );
    let s = score_case(&case, &ok(r, 7));
    assert_eq!(s.acc_at_1, Some(false));
    assert_eq!(s.acc_at_3, Some(false));
    assert_eq!(s.acc_at_5, Some(true));
    assert_eq!(s.reciprocal_rank, Some(0.5));
    assert!(s.passed, "{:?}", s.failures);
    assert_eq!(
        (s.tokens, s.turns, s.tool_calls, s.wall_ms),
        (1000, 3, 3, 7)
    );
    assert_eq!(s.stop_reason.as_deref(), Some("answered"));

    // A file past its rank fails with both ranks in the reason.
    let case = one_case(
        "id = \"a\"\nquery = \"q\"\nkind = \"definition\"\nfiles = [{ path = \"b.go\", rank = 1 }]\n",
    );
    let r = result(
        vec![file("x.go", &[], &[]), file("./b.go", &[], &[])],
        StopReason::Answered,
    );
    let s = score_case(&case, &ok(r, 1));
    assert!(!s.passed);
    assert_eq!(
        s.failures,
        vec!["expected file `b.go` within rank 1, returned at rank 2"]
    );
    assert_eq!(s.reciprocal_rank, Some(0.5));

    // Nothing returned: RR 0.
    let r = result(vec![], StopReason::Answered);
    let s = score_case(&case, &ok(r, 1));
    assert_eq!(s.reciprocal_rank, Some(0.0));
    assert_eq!(s.acc_at_5, Some(false));
}

#[test]
fn location_tolerance_is_inclusive_and_ranges_count() {
    let case = one_case(
        "id = \"a\"\nquery = \"q\"\nkind = \"definition\"\nlocations = [{ at = \"a.go:100\", tolerance = 2 }]\n",
    );
    let at = |line: u32, end: Option<u32>| {
        let r = result(
            vec![file("a.go", &[(line, end)], &[])],
            StopReason::Answered,
        );
        score_case(&case, &ok(r, 1)).location_hit
    };
    assert_eq!(at(98, None), Some(true));
    assert_eq!(at(102, None), Some(true));
    assert_eq!(at(97, None), Some(false));
    assert_eq!(at(103, None), Some(false));
    assert_eq!(at(90, Some(97)), Some(false));
    assert_eq!(at(90, Some(98)), Some(true));
    assert_eq!(at(90, Some(120)), Some(true));

    // Same line in another file is a miss, reported with what came back there.
    let r = result(
        vec![
            file("b.go", &[(100, None)], &[]),
            file("a.go", &[(50, Some(60))], &[]),
        ],
        StopReason::Answered,
    );
    let s = score_case(&case, &ok(r, 1));
    assert_eq!(
        s.failures,
        vec!["expected location `a.go:100` (±2), returned lines 50-60 there"]
    );
}

#[test]
fn line_recall_counts_only_the_first_budgeted_lines() {
    // line_budget = 10 (set by one_case). Region 21-24 (4 lines) + location 40 (1 unit).
    let case = one_case(
        "id = \"a\"\nquery = \"q\"\nkind = \"definition\"\nlocations = [{ at = \"a.go:40\", tolerance = 0 }, \"a.go:22\"]\nregions = [\"a.go:21-24\"]\n",
    );
    // First range spends 8 lines on noise, then 21-24 gets only 2 lines of budget, and
    // line 40 is past the budget.
    let r = result(
        vec![
            file("n.go", &[(1, Some(8))], &[]),
            file("a.go", &[(21, Some(24)), (40, None)], &[]),
        ],
        StopReason::Answered,
    );
    let s = score_case(&case, &ok(r, 1));
    // Units: 4 region lines (22 is inside the region so not counted twice) + line 40.
    // Covered: 21, 22 -> 2 of 5.
    assert_eq!(s.line_recall, Some(0.4));
    assert_eq!(s.lines_returned, 13);
    // Both locations are still hit: hits do not depend on the budget.
    assert_eq!(s.location_hit, Some(true));

    let set = budgeted_lines(&[("a".into(), 5, 9), ("a".into(), 7, 12)], 6);
    let lines: Vec<u32> = set.iter().map(|(_, l)| *l).collect();
    assert_eq!(lines, vec![5, 6, 7, 8, 9, 10]);
}

#[test]
fn decoys_symbols_answer_and_stop_reasons() {
    let case = one_case(
        "id = \"a\"\nquery = \"q\"\nkind = \"implementations\"\nfiles = [\"s.go\", \"m.go\"]\nsymbols = [\"Store\", \"Planner.Plan\"]\ndecoys = [\"fake_test.go\"]\nanswer_contains = [\"ISSUE.GO\"]\n",
    );
    let r = result(
        vec![
            file("s.go", &[], &["brain.(*Planner).Plan"]),
            file("fake_test.go", &[], &[]),
            file("m.go", &[], &["memory.Store"]),
        ],
        StopReason::Answered,
    );
    let s = score_case(&case, &ok(r.clone(), 1));
    assert_eq!(
        s.failures,
        vec!["decoy `fake_test.go` at rank 2 outranks an expected file (worst expected rank 3)"]
    );

    let mut r2 = r.clone();
    r2.relevant_files.swap(1, 2);
    r2.relevant_files[0].key_symbols = vec!["Plan".into()];
    r2.metadata.stop_reason = StopReason::Budget;
    let s = score_case(&case, &ok(r2, 1));
    assert_eq!(
        s.failures,
        vec![
            "expected symbol `Planner.Plan`, not named in key_symbols or locations",
            "stopped with `budget` instead of answering",
        ]
    );
}

#[test]
fn not_found_cases() {
    let case = one_case("id = \"n\"\nquery = \"where is GraphQL\"\nkind = \"not_found\"\n");
    let pass = |r: ExploreResult| score_case(&case, &ok(r, 1)).passed;
    assert!(pass(result(vec![], StopReason::NotFound)));
    assert!(pass(result(vec![], StopReason::Answered)));
    assert!(!pass(result(vec![], StopReason::MaxTurns)));
    let s = score_case(
        &case,
        &ok(
            result(vec![file("x.go", &[], &[])], StopReason::Answered),
            1,
        ),
    );
    assert_eq!(
        s.failures,
        vec!["expected not_found, got answered with 1 file(s) (first: `x.go`)"]
    );
    assert_eq!(s.acc_at_1, None);
    assert_eq!(s.reciprocal_rank, None);
}

#[test]
fn run_errors_score_zero() {
    let case = one_case(
        "id = \"a\"\nquery = \"q\"\nkind = \"definition\"\nfiles = [\"a.go\"]\nlocations = [\"a.go:3\"]\n",
    );
    let s = score_case(
        &case,
        &Outcome {
            result: Err("no transcript".into()),
            wall_ms: 4,
        },
    );
    assert!(!s.passed);
    assert_eq!(s.error.as_deref(), Some("no transcript"));
    assert_eq!(s.acc_at_1, Some(false));
    assert_eq!(s.reciprocal_rank, Some(0.0));
    assert_eq!(s.line_recall, Some(0.0));
}

#[test]
fn summaries_median_and_percentiles() {
    assert_eq!(median(&[1, 2, 3, 10]), 2.5);
    assert_eq!(median(&[5]), 5.0);
    assert_eq!(median(&[]), 0.0);
    let v: Vec<u64> = (1..=20).collect();
    assert_eq!(percentile(&v, 50.0), 10);
    assert_eq!(percentile(&v, 95.0), 19);
    assert_eq!(percentile(&[7], 95.0), 7);

    let a = one_case(
        "id = \"a\"\nquery = \"q\"\nkind = \"definition\"\nfiles = [{ path = \"a.go\", rank = 1 }]\n",
    );
    let b = one_case("id = \"b\"\nquery = \"q\"\nkind = \"callers\"\nfiles = [\"b.go\"]\n");
    let s1 = score_case(
        &a,
        &ok(
            result(vec![file("a.go", &[], &[])], StopReason::Answered),
            10,
        ),
    );
    let mut r = result(
        vec![file("x.go", &[], &[]), file("b.go", &[], &[])],
        StopReason::Answered,
    );
    r.metadata.usage.total_tokens = 3000;
    let s2 = score_case(&b, &ok(r, 30));
    let sum = summarize([&s1, &s2]);
    assert_eq!((sum.cases, sum.passed), (2, 2));
    assert_eq!(sum.accuracy, 1.0);
    assert_eq!(sum.acc_at_1, Some(0.5));
    assert_eq!(sum.mrr, Some(0.75));
    assert_eq!(sum.mean_tokens, 2000.0);
    assert_eq!(sum.median_tokens, 2000.0);
    assert_eq!((sum.p50_ms, sum.p95_ms), (10, 30));
}

// ------------------------------------------------------------------ reports

fn hostile_report(min_score: Option<f64>) -> report::Report {
    let text = "[suite]\nname = \"x<&>\"\nrepo = \"r\"\n[thresholds]\nmin_accuracy = 1.0\n[[case]]\nid = \"hostile\"\nquery = \"who calls <Plan> & \\\"why\\\" \\u0001\"\nkind = \"callers\"\nfiles = [\"a&b.go\"]\n";
    let s = parse(text).unwrap();
    let r = result(
        vec![file("<x>.go", &[(3, None)], &[])],
        StopReason::Answered,
    );
    let scores = vec![score_case(&s.cases[0], &ok(r, 1234))];
    let info = RunInfo {
        engine: Some("local".into()),
        timestamp: "2026-11-21T10:00:00Z".into(),
        duration_ms: 1500,
        jobs: 2,
        min_score,
    };
    report::build(info, vec![(&s, Ok(scores))])
}

#[test]
fn junit_is_well_formed_and_escapes_everything() {
    let rep = hostile_report(Some(0.5));
    let xml = report::junit::render(&rep).unwrap();
    // Walk every event: any malformed markup is an error here. quick-xml reports entity
    // references as their own events, so text is reassembled around them.
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut texts = Vec::new();
    let mut names = Vec::new();
    let mut failures = 0;
    let mut cur = String::new();
    loop {
        let ev = reader.read_event().unwrap();
        match &ev {
            quick_xml::events::Event::Text(t) => {
                cur.push_str(&t.decode().unwrap());
                continue;
            }
            quick_xml::events::Event::GeneralRef(r) => {
                let name = r.decode().unwrap().into_owned();
                cur.push_str(match name.as_str() {
                    "lt" => "<",
                    "gt" => ">",
                    "amp" => "&",
                    "quot" => "\"",
                    "apos" => "'",
                    other => panic!("unexpected entity {other}"),
                });
                continue;
            }
            _ => {}
        }
        if !cur.trim().is_empty() {
            texts.push(std::mem::take(&mut cur));
        }
        cur.clear();
        match ev {
            quick_xml::events::Event::Eof => break,
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e) => {
                if e.name().as_ref() == b"failure" {
                    failures += 1;
                }
                for a in e.attributes() {
                    let a = a.unwrap();
                    if a.key.as_ref() == b"name" {
                        names.push(a.unescape_value().unwrap().into_owned());
                    }
                }
            }
            _ => {}
        }
    }
    assert!(names.contains(&"x<&>".to_string()), "{names:?}");
    assert!(names.contains(&"hostile".to_string()));
    assert!(
        texts
            .iter()
            .any(|t| t.contains("query: who calls <Plan> & \"why\" \u{FFFD}")),
        "{texts:?}"
    );
    // The case fails, the suite's min_accuracy gate fails, and --min-score fails.
    assert_eq!(failures, 3);
    assert!(xml.contains(
        "<testcase name=\"hostile\" classname=\"x&lt;&amp;&gt;.callers\" time=\"1.234\">"
    ));
    assert!(!xml.contains('\u{1}'));
    assert!(
        xml.contains("tests=\"3\" failures=\"3\" errors=\"0\""),
        "{xml}"
    );
}

#[test]
fn verdict_is_the_last_line_and_names_the_first_reason() {
    let rep = hostile_report(None);
    assert!(!rep.passed);
    let human = report::human::render(&rep);
    assert_eq!(
        human.lines().last().unwrap(),
        "eval failed: x<&>: accuracy 0.0% (0/1) is below the minimum 100.0%"
    );
    let rep = hostile_report(Some(0.5));
    assert_eq!(
        report::verdict(&rep),
        "eval failed: x<&>: accuracy 0.0% (0/1) is below the minimum 100.0% (and 1 more threshold(s) missed)"
    );
    let json: serde_json::Value =
        serde_json::from_str(&report::json::render(&rep).unwrap()).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["passed"], false);
    assert_eq!(json["suites"][0]["cases"][0]["id"], "hostile");
    assert_eq!(json["suites"][0]["cases"][0]["kind"], "callers");
    assert_eq!(json["by_kind"]["callers"]["cases"], 1);
    assert_eq!(
        json["missed"][1],
        "overall accuracy 0.0% (0/1) is below --min-score 50.0%"
    );
}

// ------------------------------------------------------------------ the command

fn explore() -> Command {
    let mut c = Command::cargo_bin("explore").unwrap();
    c.env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("EXPLORE_MODEL")
        .env("NO_COLOR", "1");
    c
}

fn write_suite(dir: &Path, name: &str, body: &str) -> PathBuf {
    let repo = fixtures().join("relay");
    let text = format!(
        "[suite]\nname = \"{name}\"\nrepo = \"{}\"\nengine = \"local\"\n{body}",
        repo.display()
    );
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn malformed_suite_exits_2_naming_file_case_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_suite(
        dir.path(),
        "bad",
        "[[case]]\nid = \"c1\"\nquery = \"q\"\nkind = \"definition\"\nlocations = [\"a.go:0\"]\n",
    );
    let out = explore().arg("eval").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end(),
        format!(
            "error: malformed suite {}: case `c1`: field `locations[0].at`: `a.go:0`: the line must be a number of 1 or more",
            p.display()
        )
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn missing_repo_exits_2_unless_the_suite_may_be_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("tp.toml");
    std::fs::write(
        &p,
        "[suite]\nrepo = \"nowhere\"\n[[case]]\nid = \"c\"\nquery = \"q\"\nkind = \"not_found\"\n",
    )
    .unwrap();
    let out = explore().arg("eval").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("case `c`: field `repo`"), "{err}");

    std::fs::write(
        &p,
        "[suite]\nrepo = \"nowhere\"\nskip_if_missing = true\nfetch_hint = \"run fetch.sh\"\n[[case]]\nid = \"c\"\nquery = \"q\"\nkind = \"not_found\"\n",
    )
    .unwrap();
    let out = explore()
        .args(["eval", "--format", "junit"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(xml.contains("skipped=\"1\""), "{xml}");
    assert!(xml.contains("is missing; run fetch.sh"), "{xml}");
}

#[test]
fn end_to_end_on_the_relay_fixture_with_thresholds() {
    let dir = tempfile::tempdir().unwrap();
    // One case the local engine must answer exactly (the fact sheet's first question),
    // and one whose expected file does not exist, so it can never pass.
    let p = write_suite(
        dir.path(),
        "e2e",
        "[thresholds]\nmin_accuracy = 0.5\n\n[[case]]\nid = \"e2e-issuestore\"\nquery = \"where is IssueStore defined\"\nkind = \"definition\"\nfiles = [{ path = \"internal/model/issue.go\", rank = 1 }]\nlocations = [\"internal/model/issue.go:155\"]\n\n[[case]]\nid = \"e2e-impossible\"\nquery = \"where is IssueStore defined\"\nkind = \"definition\"\nfiles = [\"no/such/file.go\"]\n",
    );
    let junit = dir.path().join("out/junit.xml");
    let out = explore()
        .args(["eval", "--jobs", "2", "--format", "junit", "--out"])
        .arg(&junit)
        .arg(&p)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(err.lines().last(), Some("eval passed: 1/2 cases (50.0%)"));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<testsuite name=\"e2e\" tests=\"3\" failures=\"1\" errors=\"0\""),
        "{xml}"
    );

    // The same suite with a stricter overall gate exits 1 with the reason last.
    let out = explore()
        .args(["eval", "--format", "json", "--min-score", "0.75"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.lines().last(),
        Some("eval failed: overall accuracy 50.0% (1/2) is below --min-score 75.0%")
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cases = &json["suites"][0]["cases"];
    assert_eq!(cases[0]["passed"], true);
    assert_eq!(cases[0]["acc_at_1"], true);
    assert_eq!(cases[0]["reciprocal_rank"], 1.0);
    assert_eq!(cases[0]["locations_hit"], 1);
    assert_eq!(cases[0]["stop_reason"], "answered");
    assert_eq!(cases[1]["passed"], false);
    assert_eq!(
        cases[1]["failures"][0],
        "expected file `no/such/file.go` (within rank 5), not returned"
    );

    // --min-score out of range is a usage error.
    let out = explore()
        .args(["eval", "--min-score", "80"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn replay_without_transcripts_fails_each_case_not_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_suite(
        dir.path(),
        "llm",
        "[[case]]\nid = \"llm-1\"\nquery = \"where is IssueStore defined\"\nkind = \"definition\"\nfiles = [\"internal/model/issue.go\"]\n",
    );
    let replay = dir.path().join("transcripts");
    std::fs::create_dir(&replay).unwrap();
    let out = explore()
        .args([
            "eval",
            "--engine",
            "llm",
            "--format",
            "json",
            "--replay-dir",
        ])
        .arg(&replay)
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let err = json["suites"][0]["cases"][0]["error"].as_str().unwrap();
    assert!(
        err.starts_with(&format!(
            "no transcript `{}`",
            replay.join("llm-1.jsonl").display()
        )),
        "{err}"
    );
}

fn completion(call_id: &str, tool: &str, args: serde_json::Value, prompt: u64) -> String {
    let response = serde_json::json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "recorded-model",
        "choices": [{
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [{
                    "id": call_id,
                    "type": "function",
                    "function": { "name": tool, "arguments": args.to_string() }
                }]
            }
        }],
        "usage": { "prompt_tokens": prompt, "completion_tokens": 40, "total_tokens": prompt + 40 }
    });
    serde_json::json!({ "request": {}, "response": response }).to_string()
}

#[test]
fn llm_case_replays_a_recorded_transcript_with_no_network() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_suite(
        dir.path(),
        "replay",
        "[[case]]\nid = \"replay-issuestore\"\nquery = \"where is IssueStore defined\"\nkind = \"definition\"\nengine = \"llm\"\nfiles = [{ path = \"internal/model/issue.go\", rank = 1 }]\nlocations = [\"internal/model/issue.go:155\"]\nregions = [\"internal/model/issue.go:155-162\"]\n",
    );
    // A transcript as `--record-dir` writes it: one request/response pair per model call.
    // The model finds the symbol with `code`, then submits what the tool showed.
    let replay = dir.path().join("t");
    std::fs::create_dir(&replay).unwrap();
    let submit = serde_json::json!({
        "answer": "IssueStore is an interface at internal/model/issue.go:155.",
        "relevant_files": [{
            "path": "internal/model/issue.go",
            "rationale": "Declares the IssueStore interface",
            "role": "type_definition",
            "discovery_source": "code",
            "key_symbols": ["IssueStore"],
            "locations": [{ "line": 155, "end_line": 162, "symbol": "IssueStore", "kind": "interface" }]
        }]
    });
    let transcript = [
        completion(
            "c1",
            "code",
            serde_json::json!({ "operation": "find", "symbol": "IssueStore" }),
            1000,
        ),
        completion("c2", "submit", submit, 1500),
    ]
    .join("\n");
    std::fs::write(replay.join("replay-issuestore.jsonl"), transcript).unwrap();
    let out = explore()
        .env("OPENAI_BASE_URL", "http://127.0.0.1:9") // never contacted: replay answers
        .args(["eval", "--format", "json", "--replay-dir"])
        .arg(&replay)
        .arg(&p)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let case = &json["suites"][0]["cases"][0];
    assert_eq!(case["error"], serde_json::Value::Null, "{case}");
    assert_eq!(case["passed"], true, "{case}");
    assert_eq!(case["stop_reason"], "answered");
    assert_eq!(case["tokens"], 2580);
    assert_eq!(case["turns"], 2);
    assert_eq!(case["line_recall"], 1.0);
    assert_eq!(case["returned"][0], "internal/model/issue.go:155-162");
}
