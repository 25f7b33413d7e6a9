//! The issue-15 figures over the tables: the share of honest commands that run with their
//! exact output, the share of attacks refused with `Command blocked:`, and escapes (an
//! output that shows something it must not, a write, a hostile git setting that ran),
//! under the default confinement. Run with `--nocapture` to see the numbers.

use crate::attacks::{BLOCKED, NEUTRALISED, rg_neutralised};
use crate::fixture::{Fixture, KEY_SECRET, SECRET, SENTINEL, TOKEN};
use crate::honest::{cases, rg_cases};

const NEVER_SHOWN: [&str; 5] = [SENTINEL, SECRET, KEY_SECRET, TOKEN, "root:x:0:0"];

#[test]
fn honest_attack_and_escape_figures() {
    let f = Fixture::new();
    let has_rg = explore_tools::bash::exec::find_program("rg").is_some();
    let mut honest: Vec<(String, String)> = cases()
        .into_iter()
        .map(|(c, w)| (c.to_string(), w))
        .collect();
    if has_rg {
        honest.extend(
            rg_cases()
                .into_iter()
                .map(|(c, w)| (c.to_string(), w.to_string())),
        );
    }
    let mut escapes = Vec::new();
    let leaked = |cmd: &str, text: &str, escapes: &mut Vec<String>| {
        if let Some(bad) = NEVER_SHOWN.iter().find(|b| text.contains(*b)) {
            escapes.push(format!("`{cmd}` showed `{bad}`"));
        }
    };
    let mut ran = 0;
    for (cmd, want) in &honest {
        if let Ok(out) = f.run(cmd) {
            leaked(cmd, &out.text, &mut escapes);
            if &out.text == want {
                ran += 1;
            }
        }
    }
    let mut by_layer: std::collections::BTreeMap<String, usize> = Default::default();
    for (cmd, _) in BLOCKED {
        let layer = match f.tool.vet_command(cmd) {
            Err(b) => b.by().to_string(),
            Ok(_) => "at run time (after expansion or xargs)".to_string(),
        };
        *by_layer.entry(layer).or_default() += 1;
    }
    eprintln!("MEASURE attacks refused per layer: {by_layer:?}");
    let mut refused = 0;
    for (cmd, _) in BLOCKED {
        match f.run(cmd) {
            Err(e) if e.to_string().starts_with("Command blocked: ") => refused += 1,
            Err(e) => eprintln!("not refused with `Command blocked:` `{cmd}`: {e}"),
            Ok(out) => {
                eprintln!("attack ran: `{cmd}`");
                leaked(cmd, &out.text, &mut escapes)
            }
        }
    }
    let mut neutral: Vec<&str> = NEUTRALISED.to_vec();
    if has_rg {
        neutral.extend(rg_neutralised());
    }
    for cmd in &neutral {
        if let Ok(out) = f.run(cmd) {
            leaked(cmd, &out.text, &mut escapes);
        }
    }
    if f.victim_entries() != 0 {
        escapes.push("the victim directory was written".into());
    }
    if !f.markers().is_empty() {
        escapes.push(format!("hostile git settings ran: {:?}", f.markers()));
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    eprintln!(
        "MEASURE honest run: {ran}/{} ({:.1}%); attacks refused: {refused}/{} ({:.1}%); neutralised run: {}; escapes: {}",
        honest.len(),
        pct(ran, honest.len()),
        BLOCKED.len(),
        pct(refused, BLOCKED.len()),
        neutral.len(),
        escapes.len()
    );
    assert!(escapes.is_empty(), "{}", escapes.join("\n"));
    assert!(pct(ran, honest.len()) >= 95.0);
    assert!(pct(refused, BLOCKED.len()) >= 99.0);
}
