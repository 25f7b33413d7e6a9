//! Readers whose command lines do not fit the option tables of `policy.rs`: `jq` (a
//! filter language of its own, options with two values), `xxd` (single-dash long options
//! matched by their first letter, and a second operand that is an output file), and the
//! check lists of `sha256sum -c` / `md5sum -c` (files that name more files).

use super::policy::{Blocked, Ctx};
use crate::display::escape_for_display;

/// Largest checksum list read to check the paths it names.
const MAX_SUM_LIST: u64 = 1024 * 1024;

/// `jq [options] FILTER [FILES…]` or `jq [options] -f PROGRAM [FILES…]`. The filter is
/// checked by [`check_jq_filter`]; every file, the program file included, is a path.
pub fn vet_jq(args: &[String], ctx: &Ctx<'_>) -> Result<Vec<String>, Blocked> {
    const NO_VALUE: [&str; 26] = [
        "-r",
        "--raw-output",
        "-j",
        "--join-output",
        "-a",
        "--ascii-output",
        "-c",
        "--compact-output",
        "-n",
        "--null-input",
        "-s",
        "--slurp",
        "-e",
        "--exit-status",
        "-S",
        "--sort-keys",
        "-M",
        "--monochrome-output",
        "-R",
        "--raw-input",
        "--tab",
        "--seq",
        "--stream",
        "-C",
        "--color-output",
        "--raw-output0",
    ];
    let mut program_file = None;
    let mut positionals: Vec<&String> = Vec::new();
    let mut only_pos = false;
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if only_pos || a == "-" || !a.starts_with('-') {
            positionals.push(a);
            continue;
        }
        let s = a.as_str();
        match s {
            "--" => only_pos = true,
            _ if NO_VALUE.contains(&s) => {}
            "--indent" => {
                args.get(i).ok_or("`jq --indent` needs a number")?;
                i += 1;
            }
            "--arg" | "--argjson" => {
                if args.len() < i + 2 {
                    return Err(format!("`jq {s}` needs a name and a value").into());
                }
                i += 2;
            }
            "-f" | "--from-file" => {
                // jq 1.6 takes the first operand as the program file whatever follows
                // `-f`; 1.7 takes the word after it. Both agree only when `-f FILE`
                // comes before every operand, so that is the one form accepted.
                if !positionals.is_empty() || program_file.is_some() {
                    return Err("`jq -f FILE` must come before the input files, once".into());
                }
                let f = args
                    .get(i)
                    .filter(|f| !f.starts_with('-'))
                    .ok_or("`jq -f` needs a file")?;
                i += 1;
                program_file = Some(f.clone());
            }
            "--rawfile" | "--slurpfile" => {
                return Err(format!(
                    "`jq {s}` reads another file into a variable; pass the file as an input instead (`jq -s . a.json b.json`)"
                ).into());
            }
            "-L" | "--library-path" => {
                return Err(
                    "`jq -L` loads modules from other directories; write the filter inline".into(),
                );
            }
            "--args" | "--jsonargs" => {
                return Err(format!("`jq {s}` is not supported; use `--arg NAME VALUE`").into());
            }
            _ if s.starts_with("-L") => {
                return Err(
                    "`jq -L` loads modules from other directories; write the filter inline".into(),
                );
            }
            _ if !s.starts_with("--")
                && s.len() > 2
                && s[1..]
                    .chars()
                    .all(|c| NO_VALUE.contains(&format!("-{c}").as_str())) => {}
            other => {
                return Err(format!(
                    "`jq` option `{}` is not on the allowed list (allowed: -r -j -a -c -n -s -e -S -M -R --tab --indent N --arg NAME VALUE --argjson NAME JSON -f FILE --seq --stream)",
                    escape_for_display(other)
                ).into());
            }
        }
    }
    let files: &[&String] = match &program_file {
        Some(f) => {
            ctx.check_path(f, "jq")?;
            let text = read_small(ctx, f, "jq -f")?;
            check_jq_filter(&text)?;
            &positionals
        }
        None => {
            let filter = positionals
                .first()
                .ok_or("`jq` needs a filter, such as `jq '.name' package.json`")?;
            check_jq_filter(filter)?;
            &positionals[1..]
        }
    };
    for f in files {
        ctx.check_path(f, "jq")?;
    }
    Ok(args.to_vec())
}

/// Reads a repository file that was already path-checked, up to [`MAX_SUM_LIST`] bytes.
fn read_small(ctx: &Ctx<'_>, file: &str, what: &str) -> Result<String, Blocked> {
    let path = ctx.cwd_abs().join(file);
    let shown = escape_for_display(file);
    let meta = std::fs::metadata(&path)
        .map_err(|e| Blocked::path(format!("`{what}`: cannot read `{shown}`: {e}")))?;
    if meta.len() > MAX_SUM_LIST {
        return Err(format!(
            "`{what}`: `{shown}` is larger than {} KB",
            MAX_SUM_LIST / 1024
        )
        .into());
    }
    std::fs::read(&path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| Blocked::path(format!("`{what}`: cannot read `{shown}`: {e}")))
}

/// Refuses the parts of jq's language that reach past its inputs: `$ENV` and `env` (the
/// environment), `input_filename` (the path of the input), `import`/`include` and the
/// module builtins (files from a search path), `$__prog_args`-style internals, and the
/// origin builtins. The filter is scanned token by token with jq's lexical rules:
/// strings are skipped except for their `\(…)` interpolations, which are code; comments
/// run to the end of the line (jq 1.7 may continue one with a backslash, which only makes
/// this scan see more code than jq does).
pub fn check_jq_filter(filter: &str) -> Result<(), Blocked> {
    const DENIED: [(&str, &str); 9] = [
        ("env", "reads the environment"),
        ("ENV", "reads the environment"),
        ("input_filename", "reveals the input's path"),
        ("import", "loads a module from a file"),
        ("include", "loads a module from a file"),
        ("modulemeta", "loads module files"),
        ("get_search_list", "reads the module search path"),
        ("get_prog_origin", "reveals paths"),
        ("get_jq_origin", "reveals paths"),
    ];
    let c: Vec<char> = filter.chars().collect();
    let mut i = 0;
    // Nesting of `\(` interpolations: each entry counts the open parentheses in it.
    let mut interp: Vec<usize> = Vec::new();
    let mut in_string = false;
    while i < c.len() {
        if in_string {
            match c[i] {
                '"' => in_string = false,
                '\\' if c.get(i + 1) == Some(&'(') => {
                    interp.push(0);
                    in_string = false;
                    i += 1;
                }
                '\\' => i += 1,
                _ => {}
            }
            i += 1;
            continue;
        }
        match c[i] {
            '"' => in_string = true,
            '#' => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '(' => {
                if let Some(d) = interp.last_mut() {
                    *d += 1;
                }
            }
            ')' => {
                if let Some(d) = interp.last_mut() {
                    if *d == 0 {
                        interp.pop();
                        in_string = true;
                    } else {
                        *d -= 1;
                    }
                }
            }
            ch if ch.is_ascii_alphabetic() || ch == '_' => {
                let start = i;
                while i < c.len() && (c[i].is_ascii_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
                let word: String = c[start..i].iter().collect();
                // `.env` is a field named "env", not the builtin (jq lexes `.env` as one
                // FIELD token); `..env` is recursion followed by the builtin.
                let field =
                    start >= 1 && c[start - 1] == '.' && !(start >= 2 && c[start - 2] == '.');
                if !field && let Some((_, why)) = DENIED.iter().find(|(w, _)| *w == word) {
                    return Err(format!(
                        "the jq filter uses `{word}`, which {why}; only the input files may be read"
                    )
                    .into());
                }
                if word.starts_with("__") {
                    return Err(format!("the jq filter uses the internal `{word}`").into());
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// `xxd`: options are matched by their first letter (`-c8`, `-cols 8`, `-ps`), so every
/// option is judged by it; `-r` (revert, which writes binary back) is refused, and so is
/// a second operand (xxd writes its output there).
pub fn vet_xxd(args: &[String], ctx: &Ctx<'_>) -> Result<Vec<String>, Blocked> {
    let mut operands = Vec::new();
    let mut only_pos = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if only_pos || a == "-" || !a.starts_with('-') {
            operands.push(a);
            continue;
        }
        if a == "--" {
            only_pos = true;
            continue;
        }
        let letter = a.chars().nth(1).unwrap_or('-');
        match letter {
            'a' | 'b' | 'C' | 'E' | 'e' | 'i' | 'p' | 'u' | 'd' | 'h' | 'v' => {}
            'c' | 'g' | 'l' | 's' | 'o' | 'n' | 'R' => {
                // The value is attached (`-c8`) unless the option is the letter alone or
                // spelled long (`-cols 8`, `-len 16`).
                const LONG: [&str; 8] = [
                    "-cols",
                    "-groupsize",
                    "-len",
                    "-seek",
                    "-offset",
                    "-name",
                    "-bits",
                    "-R",
                ];
                if a.len() == 2 || LONG.contains(&a) {
                    args.get(i)
                        .ok_or_else(|| format!("`xxd {a}` needs a value"))?;
                    i += 1;
                }
            }
            'r' => {
                return Err("`xxd -r` turns a dump back into binary, which may write a file; `xxd FILE` and `xxd -p FILE` read".into());
            }
            _ => {
                return Err(format!(
                    "`xxd` option `{}` is not on the allowed list (allowed: -a -b -c N -C -d -e -E -g N -i -l N -n NAME -o N -p -s N -u)",
                    escape_for_display(a)
                ).into());
            }
        }
    }
    if operands.len() > 1 {
        return Err(
            "`xxd IN OUT` writes the dump into OUT; give it one file (the dump is shown to you)"
                .into(),
        );
    }
    for f in operands {
        ctx.check_path(f, "xxd")?;
    }
    Ok(args.to_vec())
}

/// `sha256sum -c LIST…` / `md5sum -c LIST…`: each list names files that the program
/// opens, so every name it could read from a line (the GNU `HASH  NAME` and `HASH *NAME`
/// forms, and the BSD `ALGO (NAME) = HASH` form) is checked like a path argument.
pub fn check_sum_lists(prog: &str, lists: &[String], ctx: &Ctx<'_>) -> Result<(), Blocked> {
    if lists.is_empty() || lists.iter().any(|l| l == "-") {
        return Err(format!(
            "`{prog} -c` reads the names to check from stdin here; give the checksum file as an argument (`{prog} -c SUMS`) so the names in it can be checked"
        ).into());
    }
    for list in lists {
        ctx.check_path(list, prog)?;
        let text = read_small(ctx, list, &format!("{prog} -c"))?;
        for line in text.lines() {
            let line = line.trim_start();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with('\\') {
                return Err(format!(
                    "`{prog} -c`: `{}` has an escaped file name, which is not supported",
                    escape_for_display(list)
                )
                .into());
            }
            for name in sum_line_names(line) {
                ctx.check_path(name, prog).map_err(|e| {
                    e.context(&format!(
                        "`{prog} -c {}` would read a file it names",
                        escape_for_display(list)
                    ))
                })?;
            }
        }
    }
    Ok(())
}

/// Every file name a checksum line could mean.
fn sum_line_names(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    if let (Some(open), Some(close)) = (line.find(" ("), line.rfind(") = "))
        && open + 2 <= close
    {
        out.push(&line[open + 2..close]);
    }
    if let Some(sp) = line.find([' ', '\t']) {
        let rest = &line[sp + 1..];
        out.push(rest);
        if let Some(r) = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('*')) {
            out.push(r);
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jq_filters_that_reach_out_are_refused() {
        for f in [
            "$ENV.PATH",
            "env.HOME",
            "env",
            "input_filename",
            "\"\\(env.HOME)\"",
            "\"a\\(\"b\\(env)\")\"",
            "import \"x\" as y; .",
            "include \"x\"; .",
            "..env",
            "[.[] | env]",
            "get_search_list",
            "$__loc__ | env",
            "# comment\nenv",
        ] {
            assert!(check_jq_filter(f).is_err(), "{f:?} passed");
        }
        for f in [
            ".",
            ".env",
            ".name | ascii_downcase",
            "\"env is fine in a string\"",
            ".[] | select(.env == \"prod\")",
            "# env in a comment\n.a",
            "\"\\(.a) and \\(.b)\"",
            "map(.environment)",
            "keys",
        ] {
            assert!(check_jq_filter(f).is_ok(), "{f:?} refused");
        }
    }

    #[test]
    fn checksum_line_names() {
        assert_eq!(sum_line_names("abc  go.mod"), vec![" go.mod", "go.mod"]);
        assert_eq!(sum_line_names("abc *go.mod"), vec!["*go.mod", "go.mod"]);
        assert_eq!(
            sum_line_names("SHA256 (a b) = abc"),
            vec!["a b", "(a b) = abc"]
        );
    }
}
