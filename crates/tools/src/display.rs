//! The one place untrusted text becomes text a model or a terminal is shown.
//!
//! File contents, file names and command output are written by whoever wrote the
//! repository. Some characters in them do not show what they are: bidi overrides and
//! isolates reorder a line when it is displayed (Trojan Source: code that reads as a
//! comment runs), zero-width and filler characters make two different identifiers look
//! equal, tag characters and runs of variation selectors carry hidden text a model reads
//! but a person reviewing the transcript does not see, and C0/C1 controls (ESC above all)
//! repaint a terminal or forge output lines. Every tool, and the CLI's rendering, sends
//! such text through [`escape`], so they are all shown the same way: as a visible
//! `\u{…}` escape, with a one-line [`Hidden::note`] saying that the text held some.
//!
//! Ordinary text is left exactly as it is: tabs, letters of every script, CJK, emoji, and
//! the joiners and selectors emoji are built from (`👨‍👩‍👧`, `❤️`, the flags of England or
//! Scotland) when they sit where an emoji sequence puts them.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::OsStr;

/// How much of the text's layout [`escape`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One line (a name, a path, an argument): newlines, carriage returns and tabs are
    /// escaped too (`\n`, `\r`, `\t`), so the value cannot break the line it sits in.
    Line,
    /// Many lines (file contents, command output): newlines and tabs are kept, and so is a
    /// carriage return right before a newline (a CRLF file); a lone one is escaped, since
    /// a terminal moves back to the start of the line and the rest overwrites it.
    Text,
}

/// The hidden characters [`escape`] escaped, counted per character.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hidden {
    counts: BTreeMap<char, usize>,
}

impl Hidden {
    /// Nothing was escaped.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// How many characters were escaped.
    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }

    /// Adds what `other` escaped.
    pub fn merge(&mut self, other: &Hidden) {
        for (c, n) in &other.counts {
            *self.counts.entry(*c).or_default() += n;
        }
    }

    /// The distinct characters escaped, in code point order.
    pub fn chars(&self) -> impl Iterator<Item = char> + '_ {
        self.counts.keys().copied()
    }

    fn add(&mut self, c: char) {
        *self.counts.entry(c).or_default() += 1;
    }

    /// The one-line note for the model, naming where (`"on lines 3 and 7"`, `"in this output"`)
    /// and what: each character as the escape it shows as, with its class and count. The
    /// escapes are spelled as in the text so the model can connect the two, and so the
    /// model knows the text is not what a person's editor displays. `None` when nothing
    /// was escaped.
    pub fn note(&self, place: &str) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        const SHOWN: usize = 6;
        let mut kinds: Vec<String> = self
            .counts
            .iter()
            .take(SHOWN)
            .map(|(c, n)| {
                let times = if *n > 1 {
                    format!(" ×{n}")
                } else {
                    String::new()
                };
                format!("{} {}{times}", code_escape(*c), class(*c))
            })
            .collect();
        if self.counts.len() > SHOWN {
            kinds.push(format!("{} other kinds", self.counts.len() - SHOWN));
        }
        let total = self.total();
        Some(format!(
            "[note: {total} hidden or control character{} shown as escapes ({place}): {}; an editor or terminal would display this text differently]",
            if total == 1 { "" } else { "s" },
            kinds.join(", ")
        ))
    }
}

/// `s` as it may be shown, with every hidden character escaped as `\u{…}` (and, in
/// [`Layout::Line`], `\n`, `\r`, `\t` as those two-character escapes); `hidden` counts
/// what was escaped. Borrowed when there was nothing to escape (the common case).
///
/// A literal `\u{202e}` typed in a file looks like an escaped character; the note (only
/// given when something was escaped) is what tells them apart.
pub fn escape<'a>(s: &'a str, layout: Layout, hidden: &mut Hidden) -> Cow<'a, str> {
    let chars: Vec<char> = s.chars().collect();
    let keep = |i: usize| -> bool {
        let c = chars[i];
        match c {
            '\n' | '\t' => layout == Layout::Text,
            '\r' => layout == Layout::Text && chars.get(i + 1) == Some(&'\n'),
            c if !is_dangerous_char(c) => true,
            // Emoji sequences: `👨‍👩‍👧`, `🏳️‍🌈` (a joiner between two emoji), `🏴` followed
            // by its subdivision tags.
            '\u{200d}' => {
                i > 0
                    && is_emoji_part(chars[i - 1])
                    && chars.get(i + 1).is_some_and(|&n| is_emoji(n))
            }
            c if is_tag(c) => in_flag_tags(&chars, i),
            // A variation selector right after a visible character: the emoji form of
            // `❤`, a CJK ideographic variant. One after another carries hidden data.
            c if is_selector(c) => {
                i > 0 && !is_dangerous_char(chars[i - 1]) && !chars[i - 1].is_whitespace()
            }
            _ => false,
        }
    };
    if (0..chars.len()).all(|i| keep_fast(chars[i], layout) || keep(i)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for (i, &c) in chars.iter().enumerate() {
        if keep(i) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' if layout == Layout::Line => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => {
                hidden.add(c);
                out.push_str(&code_escape(c));
            }
        }
    }
    Cow::Owned(out)
}

/// Escapes a value for one model-facing line ([`Layout::Line`]), for names and arguments
/// quoted in messages, where a note would be noise: the escape itself is the signal.
pub fn escape_for_display(s: &str) -> String {
    escape(s, Layout::Line, &mut Hidden::default()).into_owned()
}

/// A file name as the model should see it: lossily decoded and escaped.
pub fn display_name(name: &OsStr) -> String {
    escape_for_display(&name.to_string_lossy())
}

/// Whether `c` is hidden or misleading when displayed, whatever surrounds it: C0 and C1
/// controls (and DEL), bidi embeddings, overrides, isolates and marks, zero-width and
/// invisible format characters, fillers that render as blank (the Hangul fillers are
/// letters to a parser, so `ㅤ` makes a blank identifier), line and paragraph separators,
/// tag characters and variation selectors. Used as is where no context applies (the
/// `bash` input gate, file names); [`escape`] keeps a few of them inside emoji.
pub fn is_dangerous_char(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00ad}' | '\u{034f}' | '\u{061c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}'
            | '\u{17b5}' | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}' | '\u{feff}' | '\u{ffa0}' | '\u{fff9}'..='\u{fffb}'
            | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
        || is_prepended_mark(c)
}

/// Prepended concatenation marks (Arabic number signs, the end of ayah, the Syriac
/// abbreviation mark, Kaithi number signs): format characters that are drawn over the
/// characters after them, so a mark and a digit can show as one sign, or hide the digit.
fn is_prepended_mark(c: char) -> bool {
    matches!(
        c,
        '\u{0600}'
            ..='\u{0605}'
                | '\u{06dd}'
                | '\u{070f}'
                | '\u{0890}'
                | '\u{0891}'
                | '\u{08e2}'
                | '\u{110bd}'
                | '\u{110cd}'
    )
}

/// [`escape`]'s context-free shortcut: most characters are kept without looking around.
fn keep_fast(c: char, layout: Layout) -> bool {
    match c {
        '\n' | '\t' => layout == Layout::Text,
        '\r' => false,
        c => !is_dangerous_char(c),
    }
}

/// `\u{202e}`: lower-case hex, at least four digits.
fn code_escape(c: char) -> String {
    format!("\\u{{{:04x}}}", c as u32)
}

/// The class named in the note, so the model knows why it matters.
fn class(c: char) -> &'static str {
    match c {
        '\u{061c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}' => "(bidi control)",
        '\u{2028}' | '\u{2029}' => "(line separator)",
        c if is_tag(c) => "(tag character)",
        c if is_selector(c) => "(variation selector)",
        '\u{1b}' => "(escape, starts terminal control sequences)",
        c if c.is_control() => "(control character)",
        _ => "(invisible)",
    }
}

fn is_selector(c: char) -> bool {
    matches!(c, '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}')
}

fn is_tag(c: char) -> bool {
    ('\u{e0000}'..='\u{e007f}').contains(&c)
}

/// Pictographs an emoji sequence is made of (an approximation of Unicode's
/// Extended_Pictographic, generous: a joiner between two symbols is harmless).
fn is_emoji(c: char) -> bool {
    matches!(c,
        '\u{00a9}' | '\u{00ae}' | '\u{203c}' | '\u{2049}' | '\u{2122}' | '\u{2139}'
        | '\u{2194}'..='\u{21ff}' | '\u{2300}'..='\u{23ff}' | '\u{24c2}' | '\u{25a0}'..='\u{27bf}'
        | '\u{2900}'..='\u{297f}' | '\u{2b00}'..='\u{2bff}' | '\u{3030}' | '\u{303d}'
        | '\u{3297}' | '\u{3299}' | '\u{1f000}'..='\u{1faff}')
}

/// What may come right before a joiner in an emoji sequence: a pictograph, the emoji
/// variation selector, or a skin-tone modifier (inside `1F000..1FAFF`).
fn is_emoji_part(c: char) -> bool {
    is_emoji(c) || c == '\u{fe0f}'
}

/// Whether the tag character at `i` belongs to a subdivision flag (`🏴` then 1 to 7
/// tags `0-9a-z`, then CANCEL TAG): the only use of tags in text. Any other run (tags
/// spell out hidden ASCII a model reads) is escaped whole.
fn in_flag_tags(chars: &[char], i: usize) -> bool {
    let mut start = i;
    while start > 0 && is_tag(chars[start - 1]) {
        start -= 1;
    }
    if start == 0 || chars[start - 1] != '\u{1f3f4}' {
        return false;
    }
    let mut end = start;
    while end < chars.len() && is_tag(chars[end]) {
        end += 1;
    }
    let run = &chars[start..end];
    let Some((last, body)) = run.split_last() else {
        return false;
    };
    *last == '\u{e007f}'
        && (1..=7).contains(&body.len())
        && body
            .iter()
            .all(|&t| matches!(t, '\u{e0030}'..='\u{e0039}' | '\u{e0061}'..='\u{e007a}'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> (String, Hidden) {
        let mut h = Hidden::default();
        let out = escape(s, Layout::Text, &mut h).into_owned();
        (out, h)
    }

    #[test]
    fn ordinary_text_is_borrowed_unchanged() {
        for s in [
            "fn main() {\n\tprintln!(\"héllo\");\r\n}\n",
            "日本語のコメント // 中文 한국어",
            "emoji 😀 👍🏽 ❤️ 🏳️‍🌈 👨‍👩‍👧 🧑‍💻 ❤️‍🔥",
            "flag 🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f} England",
            "العربية עברית",
            "葛\u{e0100} ideographic variant",
        ] {
            let mut h = Hidden::default();
            assert!(
                matches!(escape(s, Layout::Text, &mut h), Cow::Borrowed(_)),
                "{s:?}"
            );
            assert!(h.is_empty(), "{s:?}");
        }
    }

    #[test]
    fn trojan_source_bidi_controls_are_escaped_and_counted() {
        let (out, h) = text("/*\u{202e} } \u{2066}if (admin)\u{2069} \u{2066} begin*/");
        assert_eq!(
            out,
            "/*\\u{202e} } \\u{2066}if (admin)\\u{2069} \\u{2066} begin*/"
        );
        assert_eq!(h.total(), 4);
        for c in [
            '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{061c}',
        ] {
            let (out, h) = text(&format!("a{c}b"));
            assert_eq!(out, format!("a\\u{{{:04x}}}b", c as u32));
            assert!(h.note("x").unwrap().contains("(bidi control)"), "{c:?}");
        }
    }

    #[test]
    fn terminal_controls_are_escaped_but_layout_is_kept() {
        let (out, h) = text("ok\x1b[2J\x1b]0;pwned\x07\r\n\tnext\rover\u{85}\x7f\n");
        assert_eq!(
            out,
            "ok\\u{001b}[2J\\u{001b}]0;pwned\\u{0007}\r\n\tnext\\u{000d}over\\u{0085}\\u{007f}\n"
        );
        assert_eq!(h.total(), 6);
        assert!(h.note("x").unwrap().contains("\\u{001b} (escape"));
    }

    #[test]
    fn invisible_characters_that_make_names_look_equal_are_escaped() {
        for c in [
            '\u{200b}',
            '\u{200c}',
            '\u{200d}',
            '\u{2060}',
            '\u{feff}',
            '\u{00ad}',
            '\u{3164}',
            '\u{115f}',
            '\u{180e}',
            '\u{2028}',
            '\u{2029}',
            '\u{0600}',
            '\u{0605}',
            '\u{06dd}',
            '\u{070f}',
            '\u{08e2}',
            '\u{110bd}',
        ] {
            let (out, h) = text(&format!("is{c}Admin"));
            assert_eq!(out, format!("is\\u{{{:04x}}}Admin", c as u32), "{c:?}");
            assert_eq!(h.total(), 1);
        }
    }

    #[test]
    fn hidden_payloads_in_tags_and_variation_selectors_are_escaped() {
        // Tag characters spelling "hi" after a letter; a variation-selector run after an
        // emoji; a joiner that joins no emoji; a flag with a tag run that is not a
        // subdivision code.
        let (out, _) = text("a\u{e0068}\u{e0069}");
        assert_eq!(out, "a\\u{e0068}\\u{e0069}");
        let (out, h) = text("😀\u{fe0f}\u{fe01}\u{e0101}");
        assert_eq!(out, "😀\u{fe0f}\\u{fe01}\\u{e0101}");
        assert_eq!(h.total(), 2);
        let (out, _) = text("x\u{200d}y 😀\u{200d}z");
        assert_eq!(out, "x\\u{200d}y 😀\\u{200d}z");
        let (out, _) = text("🏴\u{e0048}\u{e0049}\u{e007f}");
        assert_eq!(out, "🏴\\u{e0048}\\u{e0049}\\u{e007f}");
        // A selector at the very start has nothing to select.
        let (out, _) = text("\u{fe0f}x");
        assert_eq!(out, "\\u{fe0f}x");
    }

    #[test]
    fn one_line_layout_escapes_breaks_and_tabs() {
        assert_eq!(escape_for_display("a\nb\r\n\tc"), "a\\nb\\r\\n\\tc");
        assert_eq!(escape_for_display("x\u{202e}y"), "x\\u{202e}y");
    }

    #[test]
    fn note_names_place_kinds_and_counts() {
        let (_, h) = text("\u{202e}\u{202e}\u{200b}");
        assert_eq!(
            h.note("on lines 3 and 7").unwrap(),
            "[note: 3 hidden or control characters shown as escapes (on lines 3 and 7): \\u{200b} (invisible), \\u{202e} (bidi control) ×2; an editor or terminal would display this text differently]"
        );
        assert_eq!(Hidden::default().note("x"), None);
    }
}
