//! `explore config` and the precedence flags > environment > repository file > user file.

use super::common::{Sandbox, stderr, stdout, tiny_repo};

fn config_json(out: &std::process::Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn precedence_flag_env_repo_user() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    sb.write_user_file(
        "model = \"user-model\"\nangle = \"testing\"\nmax_turns = 9\nbudget = 50000\nkeywords = [\"u\"]\n",
    );
    std::fs::write(
        repo.path().join(".explore.toml"),
        "model = \"repo-model\"\nangle = \"security\"\nbudget = 30000\n",
    )
    .unwrap();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .args(["--angle", "dataflow", "config", "--json"])
        .env("EXPLORE_MODEL", "env-model")
        .output()
        .unwrap();
    let doc = config_json(&out);
    let s = &doc["settings"];
    let repo_file = repo.path().join(".explore.toml").display().to_string();
    let user_file = sb.user_file().display().to_string();
    assert_eq!(s["angle"]["value"], "dataflow");
    assert_eq!(s["angle"]["source"], "--angle");
    assert_eq!(s["model"]["value"], "env-model");
    assert_eq!(s["model"]["source"], "EXPLORE_MODEL");
    assert_eq!(s["budget"]["value"], 30000);
    assert_eq!(s["budget"]["source"], repo_file);
    assert_eq!(s["max_turns"]["value"], 9);
    assert_eq!(s["max_turns"]["source"], user_file);
    assert_eq!(s["keywords"]["value"], serde_json::json!(["u"]));
    assert_eq!(s["engine"]["value"], "auto (local)");
    assert_eq!(s["engine"]["source"], "auto: no model endpoint configured");
    // Unset values are null in JSON, not the human table's "-".
    assert_eq!(s["base_url"]["value"], serde_json::Value::Null);
    assert_eq!(s["session"]["value"], serde_json::Value::Null);
    assert_eq!(doc["files"]["repo"]["exists"], true);
    assert_eq!(doc["files"]["user"]["exists"], true);
    assert_eq!(doc["files"]["user"]["path"], user_file);
}

#[test]
fn human_listing_never_prints_the_api_key() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .arg("config")
        .env("OPENAI_API_KEY", "sk-very-secret-1234")
        .env("EXPLORE_BUDGET", "12000")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("sk-very-secret"), "{text}");
    let repo_path = repo.path().display().to_string();
    let user_file = sb.user_file().display().to_string();
    let text = text
        .replace(&repo_path, "[REPO]")
        .replace(&user_file, "[USER_FILE]");
    insta::with_settings!({filters => vec![(r"\[REPO\] +\(", "[REPO]  (")]}, {
        insta::assert_snapshot!(text);
    });
}

#[test]
fn repo_file_cannot_set_base_url_or_raise_budget() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    std::fs::write(
        repo.path().join(".explore.toml"),
        "base_url = \"https://attacker.example/v1\"\nbudget = 10000000\n",
    )
    .unwrap();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .args(["config", "--json"])
        .env("OPENAI_API_KEY", "sk-x")
        .output()
        .unwrap();
    let doc = config_json(&out);
    let s = &doc["settings"];
    assert_eq!(s["base_url"]["value"], "https://api.openai.com/v1");
    assert_eq!(s["budget"]["value"], 60000);
    let warnings = doc["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 2);
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .starts_with("ignoring `base_url` in "),
        "{warnings:?}"
    );
}

#[test]
fn unknown_key_names_the_file_and_key_and_exits_2() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    sb.write_user_file("engine = \"local\"\nbudjet = 5\n");
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .arg("where is Store defined")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "error: {}: TOML parse error at line 2",
            sb.user_file().display()
        )),
        "{err}"
    );
    assert!(err.contains("unknown field `budjet`"), "{err}");
    assert_eq!(stdout(&out), "");
}

#[test]
fn bad_value_in_repo_file_is_exit_2() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    std::fs::write(repo.path().join(".explore.toml"), "engine = \"gpt\"\n").unwrap();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .arg("config")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let file = repo.path().join(".explore.toml").display().to_string();
    assert!(err.starts_with(&format!("error: {file}: ")), "{err}");
    assert!(err.contains("unknown variant `gpt`"), "{err}");
}

#[test]
fn unreadable_config_is_exit_2() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    // A directory where the user file should be.
    std::fs::create_dir_all(sb.user_file()).unwrap();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .args(["--engine", "local", "where is Store defined"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: `{}` is not a regular file\n",
            sb.user_file().display()
        )
    );
}

#[test]
fn bad_environment_value_is_exit_2() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .arg("where is Store defined")
        .env("EXPLORE_ENGINE", "gpt")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: EXPLORE_ENGINE: `gpt` is not an engine; use auto, llm or local\n"
    );
}

#[test]
fn endpoint_from_user_file_makes_auto_pick_llm() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    sb.write_user_file("base_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n");
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .args(["config", "--json"])
        .output()
        .unwrap();
    let doc = config_json(&out);
    assert_eq!(
        doc["settings"]["engine"]["value"],
        "auto (llm; certain symbol answers stay local)"
    );
    assert_eq!(
        doc["settings"]["engine"]["source"],
        "auto: a model endpoint is configured"
    );
    assert_eq!(
        doc["settings"]["base_url"]["value"],
        "http://127.0.0.1:9/v1"
    );
}

#[test]
fn print_config_flag_is_explore_config() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let run = |args: &[&str]| {
        let out = sb
            .cmd()
            .arg("-C")
            .arg(repo.path())
            .args(args)
            .env("EXPLORE_MAX_TURNS", "5")
            .output()
            .unwrap();
        config_json(&out)
    };
    let a = run(&["--print-config", "--json"]);
    let b = run(&["config", "--json"]);
    assert_eq!(a, b);
    assert_eq!(a["settings"]["max_turns"]["value"], 5);
    assert_eq!(a["settings"]["max_turns"]["source"], "EXPLORE_MAX_TURNS");
}
