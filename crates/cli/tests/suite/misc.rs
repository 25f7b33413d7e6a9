//! Exit status 2 without a result, the question from stdin, help and completions.

use super::common::{Sandbox, relay, stderr, stdout, tiny_repo};

#[test]
fn missing_repository_is_exit_2() {
    let sb = Sandbox::new();
    let out = sb
        .cmd()
        .args(["-C", "/nonexistent/repo", "where is main"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: repository `/nonexistent/repo` does not exist or is not a directory\n"
    );
    assert_eq!(stdout(&out), "");
}

#[test]
fn bad_flag_is_exit_2() {
    let sb = Sandbox::new();
    let out = sb
        .cmd()
        .args(["--format", "yaml", "where is main"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: invalid value 'yaml' for '--format <FORMAT>'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn llm_engine_without_endpoint_is_exit_2() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .args([
            "--engine",
            "llm",
            "--model",
            "gpt-test",
            "where is Store defined",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: `--engine llm` needs a model endpoint: set `--base-url` (or `OPENAI_BASE_URL`) \
         for a local server, or `OPENAI_API_KEY` for OpenAI\n"
    );
    assert_eq!(stdout(&out), "");
}

#[test]
fn empty_question_on_stdin_is_exit_2() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    for args in [vec!["-"], vec![]] {
        let out = sb
            .cmd()
            .arg("-C")
            .arg(repo.path())
            .args(&args)
            .write_stdin("  \n\t\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&out),
            "error: the question read from stdin is empty; pipe a question, e.g. \
             `echo \"where is main defined\" | explore -`\n"
        );
    }
}

#[test]
fn blank_question_words_are_exit_2() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .args(["  ", ""])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no question given; try `explore \"where is main defined\"` or `explore --help`\n"
    );
}

#[test]
fn help_shows_the_three_uses() {
    let sb = Sandbox::new();
    let out = sb.cmd().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for needle in [
        "  In a terminal (human output, colour, a progress line on stderr):\n",
        "  In CI (no terminal: JSON on stdout, no progress, the exit status says what happened):\n",
        "  In a pipeline:\n",
        "explore --json \"how are webhooks handled\" | jq -r '.relevant_files[].path'",
        "--force-refresh",
        "--session <DIR>",
        "Exit status: 0 answered, 1 nothing relevant found, 2 error, 3 stopped early (partial result).",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}

#[test]
fn completions_cover_the_main_options_and_subcommands() {
    let sb = Sandbox::new();
    for (shell, marker) in [
        ("bash", "_explore()"),
        ("zsh", "#compdef explore"),
        ("fish", "complete -c explore"),
    ] {
        let out = sb.cmd().args(["completions", shell]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let text = stdout(&out);
        assert!(text.contains(marker), "{shell}: {marker}");
        for opt in ["force-refresh", "max-turns", "completions", "config"] {
            assert!(text.contains(opt), "{shell} lacks {opt}");
        }
    }
    let out = sb.cmd().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn repo_flag_works_before_subcommands() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .args(["tool", "read", r#"{"file":"main.go"}"#])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("func main() {}"), "{}", stdout(&out));
}

/// `explore … | head` closes the pipe early: every command ends quietly, no panic.
#[test]
fn a_closed_stdout_pipe_is_not_a_crash() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let runs: [&[&str]; 4] = [
        &["tool", "code", r#"{"operation":"find","symbol":"*"}"#],
        &["tool", "--list"],
        &["config"],
        &["--json", "where is Store defined"],
    ];
    for args in runs {
        let mut child = sb
            .std_cmd()
            .arg("-C")
            .arg(repo.path())
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before explore has printed anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            matches!(out.status.code(), Some(0) | Some(1)),
            "{args:?}: {:?} {err}",
            out.status
        );
    }
}

/// `explore tool NAME ARGS --json`: `{ok, text, detail}` for every outcome, with the exit
/// status of the plain form (0 a result, 1 a tool error, an ambiguous name included).
#[test]
fn tool_json_carries_the_text_and_the_typed_answer() {
    let sb = Sandbox::new();
    let call = |args: &str, json: bool| {
        let mut cmd = sb.cmd();
        cmd.arg("-C").arg(relay()).args(["tool", "code", args]);
        if json {
            cmd.arg("--json");
        }
        cmd.output().unwrap()
    };
    let cases = [
        (
            r#"{"operation":"find","symbol":"IssueStore","kind":"interface"}"#,
            0,
            true,
            "found",
        ),
        (
            r#"{"operation":"callers","symbol":"Plan"}"#,
            1,
            false,
            "ambiguous",
        ),
        (
            r#"{"operation":"callers","symbol":"Issue"}"#,
            1,
            false,
            "wrong_kind",
        ),
        (
            r#"{"operation":"find","symbol":"Frobnicate"}"#,
            1,
            false,
            "not_found",
        ),
        (
            r#"{"operation":"trace","symbol":"Plan","to":"HandleWebhook"}"#,
            1,
            false,
            "no_path",
        ),
    ];
    for (args, code, ok, status) in cases {
        let plain = call(args, false);
        assert_eq!(plain.status.code(), Some(code), "{args}");
        let out = call(args, true);
        assert_eq!(out.status.code(), Some(code), "{args}");
        let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(doc["ok"], ok, "{args}");
        assert_eq!(doc["detail"]["status"], status, "{args}");
        // The text is exactly what the model (and the plain form) sees.
        assert_eq!(
            format!("{}\n", doc["text"].as_str().unwrap()),
            stdout(&plain)
        );
    }
    let out = call(
        r#"{"operation":"find","symbol":"IssueStore","kind":"interface"}"#,
        true,
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let target = &doc["detail"]["target"];
    assert_eq!(
        (&target["path"], &target["line"], &target["kind"]),
        (
            &serde_json::json!("internal/model/issue.go"),
            &serde_json::json!(155),
            &serde_json::json!("interface")
        )
    );
    // Arguments the tool cannot take: no typed answer, still one JSON object.
    let out = call(
        r#"{"operation":"find","symbol":"Plan","kind":"klass"}"#,
        true,
    );
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["detail"], serde_json::Value::Null);
    assert!(doc["text"].as_str().unwrap().starts_with("Invalid kind"));
    let out = call("{not json", true);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["ok"], false);
}
