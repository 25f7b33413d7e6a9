//! The progress display as a person sees it in a terminal: `explore` runs inside a
//! headless tmux pane (a real pseudo-terminal), and the test reads the screen. Skipped,
//! with a notice, where tmux is not installed (`.ci/run` installs it).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use super::common::Sandbox;

/// A tmux server of the test's own (its socket in the sandbox), killed on drop.
struct Pane {
    socket: std::path::PathBuf,
}

impl Pane {
    fn tmux(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap()
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    /// Polls the screen until `done` holds (or 60 s pass, on a loaded machine).
    fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "timed out waiting for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// A Go repository big enough that a debug build indexes it for a few seconds.
fn many_files(dir: &Path) {
    for p in 0..40 {
        let pkg = dir.join(format!("pkg{p}"));
        std::fs::create_dir_all(&pkg).unwrap();
        for f in 0..60 {
            let mut src = format!("package pkg{p}\n\n");
            for i in 0..40 {
                src.push_str(&format!(
                    "// F{f}x{i} does step {i}.\nfunc F{f}x{i}(n int) int {{\n\treturn n + F{f}x{}(n)\n}}\n\n",
                    (i + 1) % 40
                ));
            }
            std::fs::write(pkg.join(format!("f{f}.go")), src).unwrap();
        }
    }
}

#[test]
fn ctrl_c_clears_the_progress_line_and_exits_130() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("skipped: tmux is not installed (apt-get install tmux)");
        return;
    }
    let sandbox = Sandbox::new();
    let repo = tempfile::tempdir().unwrap();
    many_files(repo.path());
    let cmd = sandbox.std_cmd();
    let exe = cmd.get_program().to_string_lossy().into_owned();
    let mut env = vec![
        format!("HOME={}", sandbox.home.path().display()),
        format!(
            "XDG_CONFIG_HOME={}",
            sandbox.home.path().join("config").display()
        ),
        format!(
            "XDG_CACHE_HOME={}",
            sandbox.home.path().join("cache").display()
        ),
        "EXPLORE_BACKGROUND_INDEX=0".to_string(),
    ];
    env.push("TERM=xterm".to_string());
    let line = format!(
        "env {} '{exe}' -C '{}' --any-dir index; echo \"exit=$?\"; sleep 60",
        env.join(" "),
        repo.path().display()
    );
    let pane = Pane {
        socket: sandbox.home.path().join("tmux.sock"),
    };
    let started = pane.tmux(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        "100",
        "-y",
        "12",
        &line,
    ]);
    assert!(started.status.success(), "{started:?}");
    // The line says what it waits for and that this happens once.
    let during = pane.wait_for("the indexing progress line", |s| {
        s.contains("indexing, first run only: parsing")
    });
    assert!(!during.contains("exit="), "{during}");
    pane.tmux(&["send-keys", "-t", "t", "C-c"]);
    let after = pane.wait_for("the exit status", |s| s.contains("exit="));
    assert!(after.contains("exit=130"), "{after}");
    assert!(after.contains("interrupted"), "{after}");
    assert!(
        !after.contains("indexing"),
        "the progress line is gone after Ctrl-C:\n{after}"
    );
}
