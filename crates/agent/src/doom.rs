//! Doom-loop detection: noticing that a run repeats itself instead of learning.
//!
//! Three signs, each cheap to see and each recorded as an event in `_metadata`:
//! - **Repeats.** A call identical to an earlier one (same tool, arguments normalised:
//!   keys sorted, strings trimmed) is not run again while its output is still in the
//!   context; the model is told it has that result. A call that runs but whose findings
//!   add no new file, symbol or line range (`grep -rn X .` after `rg -n X`) is a repeat
//!   too, once per turn: the calls of one turn are planned together (the local engine
//!   asks for the callers of each of seventeen overrides of a name at once, most of them
//!   called by nobody), so a turn that adds nothing is one repeat, not one per call.
//!   [`REPEAT_LIMIT`] repeats end the run.
//! - **Oscillation.** Calls alternating between two signatures, A-B-A-B.
//! - **Stale turns.** [`STALE_TURN_LIMIT`] turns in a row that add no new file or
//!   location to what the run knows.
//!
//! The run then ends with `stop_reason: doom_loop` and a partial result from the evidence.

use std::collections::HashMap;

use serde::Serialize;

/// Repeats (refused identical calls plus calls that added nothing) that end a run.
pub const REPEAT_LIMIT: u32 = 3;
/// Consecutive turns without new evidence that end a run.
pub const STALE_TURN_LIMIT: u32 = 3;

/// One thing the detector noticed, as reported in `_metadata.doom_loop_events`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DoomEvent {
    /// Turn it happened in.
    pub turn: u32,
    /// `repeat`, `no_gain`, `oscillation`, `stale_turns`.
    pub kind: String,
    /// The tool call concerned (`tool {args}`), or empty for turn-level events.
    pub call: String,
    /// True when this event ended the run.
    pub fatal: bool,
}

/// What to do with a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Run it.
    Run,
    /// Identical to a call made in `turn` whose output the model still has: do not run.
    AlreadyHave {
        /// The turn of the earlier call.
        turn: u32,
    },
}

#[derive(Debug, Clone)]
struct Seen {
    turn: u32,
    visible: bool,
}

/// Watches one run's calls.
#[derive(Debug, Default)]
pub struct DoomDetector {
    seen: HashMap<String, Seen>,
    history: Vec<String>,
    repeats: u32,
    /// The last turn a call added nothing in (counted once per turn).
    no_gain_turn: Option<u32>,
    stale_turns: u32,
    events: Vec<DoomEvent>,
    stopped: bool,
}

/// A call's identity for repeat detection: the tool and its arguments with keys sorted
/// and strings trimmed, so `{"file":"a.go"}` and `{ "file": "a.go " }` are the same call.
pub fn signature(tool: &str, args: &serde_json::Value) -> String {
    format!("{tool} {}", canonical(args))
}

fn canonical(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .into_iter()
                .filter(|k| !m[k.as_str()].is_null())
                .map(|k| {
                    format!(
                        "{}:{}",
                        serde_json::Value::from(k.as_str()),
                        canonical(&m[k.as_str()])
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        serde_json::Value::Array(a) => {
            format!(
                "[{}]",
                a.iter().map(canonical).collect::<Vec<_>>().join(",")
            )
        }
        serde_json::Value::String(s) => serde_json::Value::from(s.trim()).to_string(),
        other => other.to_string(),
    }
}

impl DoomDetector {
    /// Decides whether to run the call with signature `sig` in `turn`. A refused repeat is
    /// counted; `Err` carries the event that ends the run.
    pub fn check(&mut self, turn: u32, sig: &str) -> Result<Verdict, DoomEvent> {
        self.history.push(sig.to_string());
        if let Some(ev) = self.oscillation(turn) {
            return Err(ev);
        }
        match self.seen.get(sig) {
            Some(s) if s.visible => {
                let earlier = s.turn;
                self.repeat(turn, "repeat", sig)?;
                Ok(Verdict::AlreadyHave { turn: earlier })
            }
            _ => Ok(Verdict::Run),
        }
    }

    /// Records that the call `sig` ran in `turn`; `gained` says whether its findings added
    /// anything, `rerun` that it re-ran a call whose output had been elided (which is not
    /// a repeat: the model no longer had the text). `Err` ends the run.
    pub fn ran(
        &mut self,
        turn: u32,
        sig: &str,
        gained: bool,
        rerun: bool,
    ) -> Result<(), DoomEvent> {
        self.seen.insert(
            sig.to_string(),
            Seen {
                turn,
                visible: true,
            },
        );
        if !gained && !rerun && self.no_gain_turn != Some(turn) {
            self.no_gain_turn = Some(turn);
            self.repeat(turn, "no_gain", sig)?;
        }
        Ok(())
    }

    /// The output of `sig` was elided from the context: running it again is allowed.
    pub fn elided(&mut self, sig: &str) {
        if let Some(s) = self.seen.get_mut(sig) {
            s.visible = false;
        }
    }

    /// True when `sig` ran before and its output was elided since.
    pub fn was_elided(&self, sig: &str) -> bool {
        self.seen.get(sig).is_some_and(|s| !s.visible)
    }

    /// Ends a turn; `gained` says whether any of its calls added evidence. `Err` ends the
    /// run.
    pub fn end_turn(&mut self, turn: u32, gained: bool) -> Result<(), DoomEvent> {
        if gained {
            self.stale_turns = 0;
            return Ok(());
        }
        self.stale_turns += 1;
        if self.stale_turns >= STALE_TURN_LIMIT {
            return Err(self.event(turn, "stale_turns", "", true));
        }
        Ok(())
    }

    /// Everything noticed, in order.
    pub fn events(&self) -> &[DoomEvent] {
        &self.events
    }

    /// Repeats so far.
    pub fn repeats(&self) -> u32 {
        self.repeats
    }

    /// True once a fatal event was recorded.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    fn repeat(&mut self, turn: u32, kind: &str, sig: &str) -> Result<(), DoomEvent> {
        self.repeats += 1;
        let fatal = self.repeats >= REPEAT_LIMIT;
        let ev = self.event(turn, kind, sig, fatal);
        if fatal { Err(ev) } else { Ok(()) }
    }

    fn oscillation(&mut self, turn: u32) -> Option<DoomEvent> {
        let n = self.history.len();
        if n < 4 {
            return None;
        }
        let h = &self.history[n - 4..];
        if h[0] == h[2] && h[1] == h[3] && h[0] != h[1] {
            let call = format!("{} / {}", h[0], h[1]);
            return Some(self.event(turn, "oscillation", &call, true));
        }
        None
    }

    fn event(&mut self, turn: u32, kind: &str, call: &str, fatal: bool) -> DoomEvent {
        let ev = DoomEvent {
            turn,
            kind: kind.to_string(),
            call: call.to_string(),
            fatal,
        };
        self.stopped |= fatal;
        self.events.push(ev.clone());
        ev
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn signatures_normalise_key_order_and_spaces() {
        assert_eq!(
            signature("read", &json!({"num_lines": 5, "file": " a.go"})),
            signature("read", &json!({"file": "a.go", "num_lines": 5}))
        );
        assert_ne!(
            signature("read", &json!({"file": "a.go"})),
            signature("read", &json!({"file": "b.go"}))
        );
    }

    #[test]
    fn third_repeat_is_fatal() {
        let mut d = DoomDetector::default();
        assert_eq!(d.check(1, "read a").unwrap(), Verdict::Run);
        d.ran(1, "read a", true, false).unwrap();
        assert_eq!(
            d.check(2, "read a").unwrap(),
            Verdict::AlreadyHave { turn: 1 }
        );
        d.check(3, "read b").unwrap();
        d.ran(3, "read b", false, false).unwrap();
        let ev = d.check(4, "read a").unwrap_err();
        assert_eq!(ev.kind, "repeat");
        assert!(ev.fatal);
        assert_eq!(d.repeats(), 3);
        assert!(d.stopped());
        let kinds: Vec<&str> = d.events().iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(kinds, ["repeat", "no_gain", "repeat"]);
    }

    #[test]
    fn calls_of_one_turn_that_add_nothing_are_one_repeat() {
        let mut d = DoomDetector::default();
        for sig in ["code callers A.x", "code callers B.x", "code callers C.x"] {
            assert_eq!(d.check(2, sig).unwrap(), Verdict::Run);
            d.ran(2, sig, false, false).unwrap();
        }
        assert_eq!(d.repeats(), 1);
        assert!(!d.stopped());
        // Another turn that adds nothing counts again.
        d.check(3, "code callers D.x").unwrap();
        d.ran(3, "code callers D.x", false, false).unwrap();
        assert_eq!(d.repeats(), 2);
    }

    #[test]
    fn elided_outputs_may_be_fetched_again() {
        let mut d = DoomDetector::default();
        d.check(1, "read a").unwrap();
        d.ran(1, "read a", true, false).unwrap();
        d.elided("read a");
        assert!(d.was_elided("read a"));
        assert_eq!(d.check(5, "read a").unwrap(), Verdict::Run);
        d.ran(5, "read a", false, true).unwrap();
        assert_eq!(d.repeats(), 0);
    }

    #[test]
    fn stale_turns_end_the_run() {
        let mut d = DoomDetector::default();
        d.end_turn(1, false).unwrap();
        d.end_turn(2, true).unwrap();
        d.end_turn(3, false).unwrap();
        d.end_turn(4, false).unwrap();
        let ev = d.end_turn(5, false).unwrap_err();
        assert_eq!(ev.kind, "stale_turns");
        assert!(ev.fatal);
    }
}
