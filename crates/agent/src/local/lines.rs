//! What both line readers need: where an identifier ends, how far a line is indented, and
//! where a block closes (by braces or by indentation).
//!
//! The Go/Python scanner ([`super::scan`]) and the any-language text search
//! ([`super::lexical`]) read definitions off a line's shape. Each had its own copy of these
//! helpers (and the text search borrowed the scanner's block finder while the scanner
//! borrowed the text search's languages, a two-file circle); both now use this module, and
//! the scanner uses the text search, not the other way round.

/// Whether `c` can be part of an identifier. `$` is one in JavaScript (`$el`, `jQuery$`)
/// and can occur nowhere else in Go or Python code but strings, so one rule serves every
/// language.
pub fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The identifier `s` starts with (empty when it starts with anything else).
pub fn ident_prefix(s: &str) -> &str {
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    &s[..end]
}

/// How many bytes of leading whitespace `l` has.
pub fn indent_of(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// The last line of the block opened on line `i`, by indentation: the last non-blank line
/// before the first one indented no deeper than line `i` (a line starting with `)` closes
/// a bracket and stays in the block). With `end_keyword`, a dedented `end` line closes the
/// block and belongs to it (Ruby).
pub fn indent_block_end(lines: &[&str], i: usize, end_keyword: bool) -> usize {
    let ind = indent_of(lines[i]);
    let mut last = i;
    for (j, l) in lines.iter().enumerate().skip(i + 1) {
        let t = l.trim_start();
        if t.is_empty() {
            continue;
        }
        if indent_of(l) <= ind && !t.starts_with(')') {
            if end_keyword && t.starts_with("end") {
                return j;
            }
            break;
        }
        last = j;
    }
    last
}

/// The line of the `}` closing the block opened at or after line `i`, by brace depth
/// (`//` comments cut off; braces in strings are rare enough at this level to ignore). No
/// `{` within `lookahead` lines after `i`: the definition is one line. With
/// `semicolon_ends`, a `;` before any `{` ends it there (a declaration without a body).
pub fn brace_block_end(lines: &[&str], i: usize, lookahead: usize, semicolon_ends: bool) -> usize {
    let mut depth = 0i32;
    let mut opened = false;
    for (j, l) in lines.iter().enumerate().skip(i) {
        let code = l.split("//").next().unwrap_or("");
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                ';' if semicolon_ends && !opened && depth == 0 => return j,
                _ => {}
            }
        }
        if opened && depth <= 0 {
            return j;
        }
        if !opened && j > i + lookahead {
            return i;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(ident_prefix("Plan(ctx int)"), "Plan");
        assert_eq!(ident_prefix("MAX_AMOUNT = 5"), "MAX_AMOUNT");
        assert_eq!(ident_prefix("$el.on('x')"), "$el");
        assert_eq!(ident_prefix("größe: int"), "größe");
        assert_eq!(ident_prefix("(p *Planner)"), "");
        assert_eq!(ident_prefix(""), "");
    }

    #[test]
    fn indent_blocks() {
        let lines = [
            "class A:",         // 0
            "    def f(self,",  // 1
            "          x):",    // 2
            "        return (", // 3
            "            x",    // 4
            "        )",        // 5
            "",                 // 6
            "    y = 1",        // 7
            "z = 2",            // 8
            "def g",            // 9
            "  1",              // 10
            "end",              // 11
        ];
        assert_eq!(indent_of(lines[2]), 10);
        assert_eq!(indent_block_end(&lines, 0, false), 7);
        assert_eq!(indent_block_end(&lines, 1, false), 5);
        assert_eq!(indent_block_end(&lines, 8, false), 8);
        assert_eq!(indent_block_end(&lines, 9, false), 10);
        assert_eq!(indent_block_end(&lines, 9, true), 11);
    }

    #[test]
    fn brace_blocks() {
        let lines = [
            "func Do() {",      // 0
            "\tif x {",         // 1
            "\t\treturn // }",  // 2
            "\t}",              // 3
            "}",                // 4
            "type T interface", // 5
            "fn f();",          // 6
            "",                 // 7
        ];
        assert_eq!(brace_block_end(&lines, 0, 3, false), 4);
        assert_eq!(brace_block_end(&lines, 1, 3, false), 3);
        // No brace within the lookahead: a one-line definition.
        assert_eq!(brace_block_end(&lines, 5, 0, false), 5);
        // A declaration ended by `;` before any brace.
        assert_eq!(brace_block_end(&lines, 6, 6, true), 6);
        assert_eq!(brace_block_end(&lines, 6, 6, false), 6);
    }
}
