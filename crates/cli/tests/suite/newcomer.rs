//! What a newcomer meets first (issue 19): lists shown in part say so.

use serde_json::{Value, json};

use super::common::{Sandbox, filters, relay, stderr, stdout};

fn ask(sb: &Sandbox, repo: &std::path::Path, args: &[&str]) -> std::process::Output {
    sb.cmd()
        .arg("-C")
        .arg(repo)
        .args(["--engine", "local"])
        .args(args)
        .output()
        .unwrap()
}

/// Asks the relay fixture `question` in human format, checks the exit status, and
/// returns stdout.
fn human(sb: &Sandbox, question: &str, code: i32) -> String {
    let out = ask(sb, &relay(), &["--format", "human", question]);
    assert_eq!(out.status.code(), Some(code), "{}", stderr(&out));
    stdout(&out)
}

/// Snapshots human output under `name` (the test's name), run-to-run noise filtered.
fn snapshot(name: &str, text: &str) {
    insta::with_settings!({filters => filters()}, {
        insta::assert_snapshot!(name, text);
    });
}

fn json_doc(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(out), stderr(out)))
}

/// A Go package whose `Target` has 210 callers: more than the graph walk keeps (200).
fn many_callers() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut src = String::from(
        "package many\n\n// Target is called from everywhere.\nfunc Target() int { return 1 }\n",
    );
    for i in 0..210 {
        src.push_str(&format!(
            "\nfunc Caller{i:03}() int {{ return Target() }}\n"
        ));
    }
    std::fs::write(dir.path().join("many.go"), src).unwrap();
    dir
}

#[test]
fn an_answer_naming_some_methods_says_how_many_there_are() {
    let sb = Sandbox::new();
    let out = ask(&sb, &relay(), &["--json", "what methods does Router have"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json_doc(&out);
    let answer = doc["answer"].as_str().unwrap();
    assert!(
        answer.ends_with("8 of 12 methods named here; the files below list all 12."),
        "{answer}"
    );
    assert_eq!(
        doc["_metadata"]["lists"],
        json!([{
            "operation": "methods",
            "symbol": "Router",
            "relation": "methods",
            "total": 12,
            "listed": 12,
            "rest": "explore tool code '{\"operation\":\"methods\",\"symbol\":\"Router\"}' --json"
        }])
    );

    snapshot(
        "an_answer_naming_some_methods_says_how_many_there_are",
        &human(&sb, "what methods does Router have", 0),
    );
}

#[test]
fn a_list_cut_at_the_walk_limit_says_so_in_json_and_human_output() {
    let sb = Sandbox::new();
    let repo = many_callers();
    let out = ask(&sb, repo.path(), &["--json", "who calls Target"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json_doc(&out);
    let lists = &doc["_metadata"]["lists"];
    assert_eq!(lists[0]["relation"], "callers");
    assert_eq!(lists[0]["total"], 210);
    assert_eq!(lists[0]["listed"], 200);
    assert!(
        doc["answer"]
            .as_str()
            .unwrap()
            .contains("8 of 210 callers shown;"),
        "{}",
        doc["answer"]
    );

    let out = ask(&sb, repo.path(), &["--format", "human", "who calls Target"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "\n200 of 210 callers of Target listed; the list: explore tool code '{\"operation\":\"callers\",\"symbol\":\"Target\"}' --json\n"
        ),
        "{text}"
    );
}

#[test]
fn a_misspelt_name_is_exit_1_with_did_you_mean() {
    let sb = Sandbox::new();
    snapshot(
        "a_misspelt_name_is_exit_1_with_did_you_mean",
        &human(&sb, "where is IsueStore defined", 1),
    );
}

/// The local engine's human output: roles in plain words, each fact on the location it
/// is about, no turns or tokens.
#[test]
fn local_human_output_is_one_labelled_line_per_fact() {
    let sb = Sandbox::new();
    let text = human(&sb, "who calls Plan", 0);
    assert!(!text.contains("tokens") && !text.contains("turn"), "{text}");
    snapshot("local_human_output_is_one_labelled_line_per_fact", &text);
}

/// Started in the home directory with no repository above it, `explore` refuses rather
/// than read every file, names `-C`, and lets `--any-dir` or `EXPLORE_ANY_DIR` through.
#[test]
fn the_home_directory_is_refused_with_a_hint_at_dash_c() {
    let sb = Sandbox::new();
    let out = sb.cmd().args(["where is main defined"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(out.stdout.is_empty());
    let home = sb.home.path().canonicalize().unwrap();
    let text = stderr(&out).replace(home.to_str().unwrap(), "[HOME]");
    insta::assert_snapshot!(text);

    let out = sb.cmd().args(["index"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`-C DIR`"), "{}", stderr(&out));

    for allowed in [
        sb.cmd()
            .args(["--any-dir", "where is main defined"])
            .output()
            .unwrap(),
        sb.cmd()
            .env("EXPLORE_ANY_DIR", "1")
            .args(["where is main defined"])
            .output()
            .unwrap(),
    ] {
        // An empty home has nothing to find: not found, not refused.
        assert_eq!(allowed.status.code(), Some(1), "{}", stderr(&allowed));
    }
}

/// A question whose first word is a command's name fails as that command; the error
/// says how to ask it.
#[test]
fn a_question_starting_with_a_command_gets_a_hint() {
    let sb = Sandbox::new();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args(["config", "loading"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    insta::assert_snapshot!(stderr(&out));

    // The hint's remedy works.
    let out = ask(&sb, &relay(), &["--json", "--", "config", "loading"]);
    assert_ne!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(json_doc(&out)["query"], "config loading");
}

/// `--help` fits a screen or two: ArangoDB's connection options are in `explore help`.
#[test]
fn help_is_short_and_the_long_help_has_everything() {
    let sb = Sandbox::new();
    let short = stdout(&sb.cmd().arg("--help").output().unwrap());
    assert!(short.lines().count() < 80, "{short}");
    assert!(short.contains("\nAdvanced options:\n"), "{short}");
    assert!(
        short.contains("\nShared code graph (ArangoDB):\n"),
        "{short}"
    );
    assert!(!short.contains("--arango-url"), "{short}");
    assert!(!short.contains("spec 0"), "{short}");
    let long = stdout(&sb.cmd().arg("help").output().unwrap());
    assert!(long.contains("--arango-url"), "{long}");
}

/// A concept answer says which of the question's words a file matched as the question
/// wrote them, not as the stemmer cut them ("handl").
#[test]
fn matched_words_read_as_written() {
    let sb = Sandbox::new();
    let text = human(&sb, "how are webhooks handled", 0);
    assert!(text.contains("(matches webhooks, handled)"), "{text}");
    assert!(
        !text.contains("handl)") && !text.contains("handl,"),
        "{text}"
    );
}

#[test]
fn an_unusable_cache_folder_is_one_plain_warning_and_the_answer_still_comes() {
    let sb = Sandbox::new();
    // A file where the cache folder should be: even root cannot make a folder under it.
    let blocker = sb.home.path().join("not-a-folder");
    std::fs::write(&blocker, "").unwrap();
    let out = sb
        .cmd()
        .env("EXPLORE_CACHE_DIR", blocker.join("cache"))
        .arg("-C")
        .arg(relay())
        .args([
            "--engine",
            "local",
            "--format",
            "json",
            "where is IssueStore defined",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        json_doc(&out)["relevant_files"][0]["path"],
        "internal/model/issue.go"
    );
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("warning: cannot use the cache folder ")
            && lines[0].ends_with(
                "the code index stays in memory for this run (set EXPLORE_CACHE_DIR to a writable folder)"
            ),
        "{err}"
    );
}
