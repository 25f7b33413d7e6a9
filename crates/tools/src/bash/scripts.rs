//! The two allowed programs that take a program of their own: `sed` and `awk`.
//!
//! `sed` can write (`w`, `s///w`), run (`e`, `s///e`) and read other files (`r`, `R`);
//! awk can run (`system`, `"cmd" | getline`, `print | "cmd"`) and write (`print > f`).
//! Rather than trusting a blocklist of substrings, the sed script is parsed command by
//! command against GNU sed's grammar, and only printing and editing-the-stream commands
//! pass. awk's grammar is too big for that, so its program is tokenised (strings and
//! regex literals skipped) and the constructs that reach outside are refused.

use super::policy::Blocked;

/// Checks a sed script: only addresses and the commands that print or transform the stream.
pub fn check_sed(script: &str) -> Result<(), Blocked> {
    let s: Vec<char> = script.chars().collect();
    let mut i = 0;
    let n = s.len();
    let skip_ws = |i: &mut usize| {
        while *i < n && (s[*i] == ' ' || s[*i] == '\t') {
            *i += 1;
        }
    };
    while i < n {
        skip_ws(&mut i);
        if i >= n {
            break;
        }
        match s[i] {
            ';' | '\n' | '}' => {
                i += 1;
                continue;
            }
            '#' => {
                while i < n && s[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        // Up to two addresses.
        for k in 0..2 {
            skip_ws(&mut i);
            i = sed_address(&s, i)?;
            skip_ws(&mut i);
            if k == 0 && i < n && s[i] == ',' {
                i += 1;
                continue;
            }
            break;
        }
        skip_ws(&mut i);
        while i < n && s[i] == '!' {
            i += 1;
            skip_ws(&mut i);
        }
        let Some(&c) = s.get(i) else {
            return Err("the sed script ends after an address; add a command such as `p`".into());
        };
        i += 1;
        match c {
            '{' => {}
            'p' | 'P' | '=' | 'd' | 'D' | 'n' | 'N' | 'g' | 'G' | 'h' | 'H' | 'x' | 'z' | 'F' => {}
            'q' | 'Q' | 'l' | 'L' => {
                while i < n && s[i].is_ascii_digit() {
                    i += 1;
                }
            }
            'b' | 't' | 'T' | ':' => {
                while i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
                    i += 1;
                }
            }
            's' => {
                let d = *s.get(i).ok_or("incomplete `s` command in the sed script")?;
                if d == '\n' || d == '\\' {
                    return Err("bad delimiter in the sed `s` command".into());
                }
                i = sed_delimited(&s, i + 1, d)?;
                i = sed_delimited(&s, i, d)?;
                while i < n && !matches!(s[i], ';' | '\n' | '}' | ' ' | '\t') {
                    match s[i] {
                        'g' | 'p' | 'i' | 'I' | 'm' | 'M' => {}
                        c if c.is_ascii_digit() => {}
                        'w' | 'W' => {
                            return Err("the sed `s///w` flag writes a file; drop it (the output is shown to you)".into());
                        }
                        'e' => return Err("the sed `s///e` flag runs a command; drop it".into()),
                        other => return Err(format!("unknown sed `s` flag `{other}`").into()),
                    }
                    i += 1;
                }
            }
            'y' => {
                let d = *s.get(i).ok_or("incomplete `y` command in the sed script")?;
                i = sed_delimited(&s, i + 1, d)?;
                i = sed_delimited(&s, i, d)?;
            }
            'w' | 'W' => return Err("the sed `w` command writes a file; use `sed -n '…p'` to print instead".into()),
            'r' | 'R' => return Err("the sed `r` command reads another file; pass that file to sed or use the read tool".into()),
            'e' => return Err("the sed `e` command runs a shell command; it is not allowed".into()),
            'a' | 'i' | 'c' => {
                return Err(format!("the sed `{c}` command (text insertion) is not supported; use `sed -n 'START,ENDp' FILE` to view lines").into());
            }
            other => {
                return Err(format!(
                    "the sed command `{other}` is not supported; use addresses with p, d, s, y, q, = or n (e.g. `sed -n '10,40p' FILE`)"
                ).into());
            }
        }
    }
    Ok(())
}

/// Skips one sed address starting at `i` (possibly none) and returns the next index.
fn sed_address(s: &[char], mut i: usize) -> Result<usize, Blocked> {
    let n = s.len();
    if i >= n {
        return Ok(i);
    }
    match s[i] {
        c if c.is_ascii_digit() || c == '+' || c == '~' => {
            i += 1;
            while i < n && (s[i].is_ascii_digit() || s[i] == '~') {
                i += 1;
            }
        }
        '$' => i += 1,
        '/' => {
            i = sed_delimited(s, i + 1, '/')?;
            while i < n && matches!(s[i], 'I' | 'M') {
                i += 1;
            }
        }
        '\\' => {
            let d = *s.get(i + 1).ok_or("incomplete sed address")?;
            i = sed_delimited(s, i + 2, d)?;
            while i < n && matches!(s[i], 'I' | 'M') {
                i += 1;
            }
        }
        _ => {}
    }
    Ok(i)
}

/// Skips text up to and including the unescaped delimiter `d`.
fn sed_delimited(s: &[char], mut i: usize, d: char) -> Result<usize, Blocked> {
    while i < s.len() {
        if s[i] == '\\' {
            i += 2;
            continue;
        }
        if s[i] == d {
            return Ok(i + 1);
        }
        if s[i] == '\n' {
            break;
        }
        i += 1;
    }
    Err(format!("unterminated `{d}…{d}` in the sed script").into())
}

/// Checks an awk program: no commands, pipes, getline, file output or gawk directives.
///
/// The program is tokenised as awk does, and wherever awk implementations could read it
/// differently, it is refused rather than guessed: a `/` is a regex or a division
/// depending on the token before it, and a checker that guesses "regex" where awk sees a
/// division skips code as if it were a regex (`x = 1. / 2; system("id"); y = 1 / 1`).
/// So numbers are read whole, a `)` closing the head of `if`/`while`/`for` expects an
/// operand, `++`/`--`/`$` before a `/` are refused (mawk and gawk differ there), and a
/// regex whose end depends on how `[…]` is read is refused. On top of the tokenising,
/// `system` and `getline` are refused anywhere, even inside a string or a regex.
pub fn check_awk(prog: &str) -> Result<(), Blocked> {
    check_awk_tokens(prog)?;
    for (word, what) in [
        ("system", "`system()` runs a command"),
        ("getline", "`getline` reads other files or commands"),
    ] {
        if contains_word(prog, word) {
            return Err(format!(
                "awk {what}; it is not allowed, and the word is refused anywhere in the program, even in a string or regex (search for it with grep)"
            )
            .into());
        }
    }
    Ok(())
}

fn check_awk_tokens(prog: &str) -> Result<(), Blocked> {
    let s: Vec<char> = prog.chars().collect();
    let n = s.len();
    let mut i = 0;
    // Whether a `/` here starts a regex literal (an operand is expected).
    let mut operand_expected = true;
    // A `/` here means different things to different awks.
    let mut ambiguous_slash: Option<&'static str> = None;
    let mut in_print = false;
    let mut depth: i32 = 0;
    // For each open `(`: whether it opened the head of `if`, `while` or `for`.
    let mut parens: Vec<bool> = Vec::new();
    let mut control_word = false;
    while i < n {
        let c = s[i];
        if c == '/'
            && let Some(what) = ambiguous_slash
        {
            return Err(format!(
                "a `/` right after `{what}` is read as division by one awk and as a regex by another; add parentheses or spaces to make it unambiguous, e.g. `(x++) / 2`"
            )
            .into());
        }
        if !matches!(c, ' ' | '\t') {
            ambiguous_slash = None;
        }
        let was_control = std::mem::take(&mut control_word);
        match c {
            '"' => {
                i += 1;
                while i < n && s[i] != '"' {
                    if s[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
                operand_expected = false;
                continue;
            }
            '/' if operand_expected => {
                i = awk_regex_end(&s, i + 1)?;
                operand_expected = false;
                continue;
            }
            '#' => {
                while i < n && s[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '\\' if s.get(i + 1) == Some(&'\n') => {
                // A continued line: the token before it still decides.
                i += 2;
                continue;
            }
            '|' => {
                if s.get(i + 1) == Some(&'|') {
                    i += 2;
                    operand_expected = true;
                    continue;
                }
                return Err(
                    "awk pipes (`| getline`, `print | \"cmd\"`) run commands; they are not allowed"
                        .into(),
                );
            }
            '>' if in_print && depth == 0 => {
                return Err("awk `print > FILE` writes a file; print to the output instead".into());
            }
            '@' => return Err("gawk `@` directives are not allowed".into()),
            '`' => return Err("backticks are not valid awk".into()),
            '+' | '-' if s.get(i + 1) == Some(&c) => {
                ambiguous_slash = Some(if c == '+' { "++" } else { "--" });
                i += 2;
                continue;
            }
            '$' => {
                ambiguous_slash = Some("$");
                operand_expected = true;
            }
            '(' => {
                parens.push(was_control);
                depth += 1;
                operand_expected = true;
            }
            '[' => {
                depth += 1;
                operand_expected = true;
            }
            ')' => {
                depth = (depth - 1).max(0);
                // After the head of `if (…)` a statement starts, which may be a regex.
                operand_expected = parens.pop().unwrap_or(false);
            }
            ']' => {
                depth = (depth - 1).max(0);
                operand_expected = false;
            }
            ';' | '\n' | '{' | '}' => {
                in_print = false;
                depth = 0;
                operand_expected = true;
            }
            c if c.is_ascii_digit()
                || (c == '.' && s.get(i + 1).is_some_and(char::is_ascii_digit)) =>
            {
                i = awk_number_end(&s, i);
                operand_expected = false;
                continue;
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let start = i;
                while i < n && (s[i].is_ascii_alphanumeric() || s[i] == '_') {
                    i += 1;
                }
                let word: String = s[start..i].iter().collect();
                match word.as_str() {
                    "system" => {
                        return Err("awk `system()` runs a command; it is not allowed".into());
                    }
                    "getline" => return Err(
                        "awk `getline` reads other files or commands; pass the files as arguments"
                            .into(),
                    ),
                    "print" | "printf" => {
                        in_print = true;
                        depth = 0;
                    }
                    "ARGV" | "ARGC" => {
                        return Err("awk `ARGV`/`ARGC` can change which files are read; pass the files as arguments".into());
                    }
                    _ => {}
                }
                control_word = matches!(word.as_str(), "if" | "while" | "for");
                operand_expected = matches!(
                    word.as_str(),
                    "print"
                        | "printf"
                        | "return"
                        | "in"
                        | "if"
                        | "while"
                        | "for"
                        | "do"
                        | "else"
                        | "case"
                        | "exit"
                );
                continue;
            }
            ' ' | '\t' => {
                control_word = was_control;
            }
            _ => operand_expected = true,
        }
        i += 1;
    }
    Ok(())
}

/// Whether `word` occurs in `text` as a whole identifier.
fn contains_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The end of an awk number starting at `i`: digits, a fraction, an exponent.
fn awk_number_end(s: &[char], mut i: usize) -> usize {
    let n = s.len();
    while i < n && s[i].is_ascii_digit() {
        i += 1;
    }
    if i < n && s[i] == '.' {
        i += 1;
        while i < n && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < n && matches!(s[i], 'e' | 'E') {
        let mut j = i + 1;
        if j < n && matches!(s[j], '+' | '-') {
            j += 1;
        }
        if j < n && s[j].is_ascii_digit() {
            while j < n && s[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    i
}

/// The index after the regex literal whose body starts at `start`. awks differ in
/// whether a `/` inside `[…]` ends the regex (and in how `[]…]` and `[[:alpha:]/]` are
/// read), so the end found with brackets honoured must be the end found without them;
/// otherwise the program is refused.
fn awk_regex_end(s: &[char], start: usize) -> Result<usize, Blocked> {
    let n = s.len();
    let unterminated = || Blocked::from("unterminated regex in the awk program");
    // Without brackets: the first unescaped `/`.
    let mut i = start;
    let plain = loop {
        match s.get(i) {
            None | Some('\n') => return Err(unterminated()),
            Some('\\') => i += 2,
            Some('/') => break i,
            Some(_) => i += 1,
        }
    };
    // With brackets, POSIX style: `[`, an optional `^`, an optional literal `]`, then up
    // to `]`, with `[:…:]`, `[=…=]` and `[.….]` inside.
    let mut i = start;
    let bracketed = loop {
        match s.get(i) {
            None | Some('\n') => return Err(unterminated()),
            Some('\\') => i += 2,
            Some('/') => break i,
            Some('[') => {
                i += 1;
                if s.get(i) == Some(&'^') {
                    i += 1;
                }
                if s.get(i) == Some(&']') {
                    i += 1;
                }
                loop {
                    match s.get(i) {
                        None | Some('\n') => return Err(unterminated()),
                        Some(']') => {
                            i += 1;
                            break;
                        }
                        Some('[') if matches!(s.get(i + 1), Some(':' | '=' | '.')) => {
                            let kind = s[i + 1];
                            i += 2;
                            while i + 1 < n && !(s[i] == kind && s[i + 1] == ']') {
                                i += 1;
                            }
                            i += 2;
                        }
                        Some('\\') => i += 2,
                        Some(_) => i += 1,
                    }
                }
            }
            Some(_) => i += 1,
        }
    };
    if plain != bracketed {
        return Err("a `/` inside `[…]` in an awk regex ends the regex in one awk and not in another; write it as `\\/`".into());
    }
    Ok(plain + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sed_accepts_printing_scripts() {
        for ok in [
            "10,40p",
            "1p;5p",
            "/func/p",
            "s/a/b/g",
            "s|x|y|2p",
            "$p",
            "/^$/d",
            "5q",
            "1~2p",
            "/a/,/b/{p}",
            "y/abc/xyz/",
            "=",
            "\\,x,p",
            "/start/,+3p",
        ] {
            assert!(check_sed(ok).is_ok(), "{ok}: {:?}", check_sed(ok));
        }
    }

    #[test]
    fn sed_refuses_writes_and_commands() {
        for (bad, why) in [
            ("w out", "writes"),
            ("1w /tmp/x", "writes"),
            ("s/a/b/w f", "writes"),
            ("s/a/b/e", "runs"),
            ("e ls", "runs"),
            ("r /etc/passwd", "reads"),
            ("1i hello", "insertion"),
            ("1,5p;W x", "writes"),
        ] {
            let e = check_sed(bad).unwrap_err();
            assert!(e.reason().contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn awk_checks() {
        for ok in [
            "{print $1}",
            "$3 > 5 {print}",
            "/a|b/ {n++} END {print n}",
            "{ if ($1 > 2 || $2 < 1) print $0 }",
            "{printf(\"%s|%d\\n\", $1, $2 > 1)}",
            "BEGIN { while (1) x++ }",
            "{ n += $2 / 2 } END { print n / NR }",
            "$1 ~ /^[a-z]+$/ { print $1 }",
            "/[[:alpha:]]+/ { c++ } END { print c }",
            "{ if ($1 > 0) print $1 / 2.5 }",
            "NR % 2 == 0 { print x++, 1e3 / 4 }",
        ] {
            assert!(check_awk(ok).is_ok(), "{ok}: {:?}", check_awk(ok));
        }
        for bad in [
            "{system(\"id\")}",
            "{print > \"f\"}",
            "{print $1 >> \"f\"}",
            "{\"ls\" | getline x}",
            "{print | \"sh\"}",
            "BEGIN{getline < \"/etc/passwd\"}",
            "@load \"x\"",
            // Division read as a regex would hide the code between two slashes.
            "BEGIN { x = 1. / 2; system(\"id\"); y = 1 / 1 }",
            "BEGIN { x = 1. / 2; print \"a\" | \"sh\"; y = 1 / 1 }",
            "BEGIN { x = 1. / 2; print \"a\" > \"f\"; y = 1 / 1 }",
            "BEGIN { x = 1 \\\n / 2; print 1 | \"sh\"; y = 1 / 1 }",
            "BEGIN { x++ / 2; print 1 | \"sh\"; y = 1 / 1 }",
            "BEGIN { if (\"x\" ~ /[]/\"]/) {} ; print 1 | \"sh\" ; y = \"\" }",
            "BEGIN { if (1) /\"/; print \"id\" | \"sh\"; x = \"a\" }",
            "{ print $0 ~ /[]/]/ > \"f\" }",
            "{ print a] > \"f\" }",
            "{ x = \"system\" }",
        ] {
            assert!(check_awk(bad).is_err(), "{bad}");
        }
    }
}
