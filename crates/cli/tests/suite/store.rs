//! `--store arangodb` for questions and `explore tool code`: settings precedence, a
//! hostile repository file, and the errors a user sees when the server is not there. (The
//! answers themselves are compared with the local index's in explore-tools'
//! `store_conformance` suite; no ArangoDB server runs here.)

use super::common::{Sandbox, stderr, stdout, tiny_repo};

/// A local URL nothing listens on: a port we bound and released.
fn dead_url() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    format!("http://127.0.0.1:{port}")
}

#[test]
fn tool_code_with_an_unreachable_arangodb_is_exit_2_with_what_to_do() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let url = dead_url();
    let out = sb
        .cmd()
        .env("EXPLORE_ARANGO_PASSWORD", "s3cret-pass")
        .args(["-q", "-C"])
        .arg(repo.path())
        .args([
            "tool",
            "code",
            "--store",
            "arangodb",
            "--arango-url",
            &url,
            r#"{"operation":"find","symbol":"Store"}"#,
        ])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("cannot reach ArangoDB at {url}")),
        "{err}"
    );
    assert!(!err.contains("s3cret-pass"), "{err}");
    assert_eq!(stdout(&out), "");
}

#[test]
fn a_question_with_store_from_the_environment_uses_arangodb() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let url = dead_url();
    let out = sb
        .cmd()
        .env("EXPLORE_STORE", "arangodb")
        .env("EXPLORE_ARANGO_URL", &url)
        .args(["-q", "--json", "-C"])
        .arg(repo.path())
        .arg("where is Store defined")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("cannot reach ArangoDB at {url}")),
        "{err}"
    );
}

#[test]
fn a_repository_file_may_pick_the_store_but_not_the_server() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let user_url = dead_url();
    sb.write_user_file(&format!("[arangodb]\nurl = \"{user_url}\"\n"));
    std::fs::write(
        repo.path().join(".explore.toml"),
        "store = \"arangodb\"\n[arangodb]\nurl = \"http://evil.example:8529\"\nuser = \"mallory\"\ndatabase = \"shared\"\n",
    )
    .unwrap();
    let out = sb
        .cmd()
        .args(["-C"])
        .arg(repo.path())
        .args(["tool", "code", r#"{"operation":"find","symbol":"Store"}"#])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    // The store came from the repository file, the server from the user file.
    assert!(
        err.contains(&format!("cannot reach ArangoDB at {user_url}")),
        "{err}"
    );
    assert!(err.contains("ignoring `arangodb.url` in "), "{err}");
    assert!(err.contains("ignoring `arangodb.user` in "), "{err}");
    assert!(
        !err.contains("cannot reach ArangoDB at http://evil"),
        "{err}"
    );
}

#[test]
fn the_embedded_store_flag_overrides_a_repository_file() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    std::fs::write(repo.path().join(".explore.toml"), "store = \"arangodb\"\n").unwrap();
    let out = sb
        .cmd()
        .env("EXPLORE_CACHE_DIR", sb.home.path().join("cache"))
        .args(["-q", "-C"])
        .arg(repo.path())
        .args([
            "tool",
            "code",
            "--store",
            "embedded",
            r#"{"operation":"find","symbol":"Store"}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Store (interface) at store/store.go:4"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_password_in_a_configuration_file_is_refused() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    sb.write_user_file("[arangodb]\npassword = \"hunter2\"\n");
    let out = sb
        .cmd()
        .args(["-q", "-C"])
        .arg(repo.path())
        .args(["tool", "code", r#"{"operation":"find","symbol":"Store"}"#])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "`arangodb.password` is not read from configuration files; set EXPLORE_ARANGO_PASSWORD"
        ),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");
}

#[test]
fn explore_config_shows_the_store_and_where_each_part_came_from() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    sb.write_user_file("[arangodb]\nurl = \"http://graph.internal:8529\"\ndatabase = \"team\"\n");
    std::fs::write(
        repo.path().join(".explore.toml"),
        "store = \"arangodb\"\n[arangodb]\nrepo = \"monorepo\"\nurl = \"http://evil.example\"\n",
    )
    .unwrap();
    let out = sb
        .cmd()
        .args(["-C"])
        .arg(repo.path())
        .args(["config", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &doc["settings"];
    let repo_file = repo.path().join(".explore.toml").display().to_string();
    let user_file = sb.user_file().display().to_string();
    assert_eq!(s["store"]["value"], "arangodb");
    assert_eq!(s["store"]["source"], repo_file);
    assert_eq!(s["arango_url"]["value"], "http://graph.internal:8529");
    assert_eq!(s["arango_url"]["source"], user_file);
    assert_eq!(s["arango_db"]["value"], "team");
    assert_eq!(s["arango_graph"]["value"], "monorepo");
    assert_eq!(s["arango_graph"]["source"], repo_file);
    let warnings = doc["warnings"].to_string();
    assert!(warnings.contains("ignoring `arangodb.url`"), "{warnings}");
    // Embedded (the default) shows no connection rows.
    std::fs::remove_file(repo.path().join(".explore.toml")).unwrap();
    let out = sb
        .cmd()
        .args(["-C"])
        .arg(repo.path())
        .args(["config", "--json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["settings"]["store"]["value"], "embedded");
    assert_eq!(doc["settings"]["store"]["source"], "default");
    assert!(doc["settings"].get("arango_url").is_none());
}
