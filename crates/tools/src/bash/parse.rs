//! Layers 1 and 2: the input gate and the parse.
//!
//! The command is parsed with tree-sitter-bash, a real shell grammar, so `;`, `&&`, quoting
//! and `$(…)` are understood the way bash understands them instead of being guessed at
//! with string splitting. The tree is then walked into a small AST of what we support;
//! every node kind that is not on the allow-list below is refused (fail closed), so a
//! construct the walker has never heard of can never slip through as "probably a word".

use tree_sitter::Node;

/// Largest command accepted, in bytes.
pub const MAX_COMMAND_BYTES: usize = 4096;
/// Deepest `$(…)` nesting accepted.
const MAX_SUBST_DEPTH: usize = 3;

/// A parsed command line: statements joined by `;`, newlines, `&&` and `||`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Script {
    /// Statements run one after another (`;` or newline).
    Seq(Vec<Script>),
    /// Run the right side only when the left succeeded.
    And(Box<Script>, Box<Script>),
    /// Run the right side only when the left failed.
    Or(Box<Script>, Box<Script>),
    /// One pipeline of simple commands.
    Pipeline(Vec<Cmd>),
}

/// One simple command: locale assignments, words, redirections.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cmd {
    /// `NAME=value` prefixes (only locale variables pass policy).
    pub assigns: Vec<(String, String)>,
    /// The program name and its arguments.
    pub words: Vec<Word>,
    /// Redirections, in order.
    pub redirects: Vec<Redirect>,
}

/// The redirections we support. Anything that writes a file is refused at parse time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redirect {
    /// `>/dev/null`
    StdoutNull,
    /// `2>/dev/null`
    StderrNull,
    /// `&>/dev/null`
    BothNull,
    /// `2>&1`
    StderrToStdout,
    /// `<file`, a repository file.
    StdinFile(Word),
}

/// One shell word after quote removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word {
    /// Literal text.
    Lit(String),
    /// Text with unquoted glob characters: `pattern` keeps quoted specials escaped with `\`,
    /// `text` is the literal fallback when nothing matches (what bash does).
    Glob {
        /// The glob pattern.
        pattern: String,
        /// The literal word.
        text: String,
    },
    /// `$(…)`, quoted (`"$(…)"`, one word) or not (split on whitespace).
    Subst {
        /// The inner command.
        script: Box<Script>,
        /// Whether it was inside double quotes.
        quoted: bool,
    },
}

impl Word {
    /// The literal text, if the word is a plain literal.
    pub fn lit(&self) -> Option<&str> {
        match self {
            Word::Lit(s) => Some(s),
            _ => None,
        }
    }
}

use super::refusal::Blocked;
use crate::display::{self, Hidden, Layout};

/// Why a construct was refused, as the model reads it; [`gate`] and [`parse`] turn it
/// into a [`Blocked`] of their layer.
pub type Why = String;

/// Layer 1: size cap and character gate.
pub fn gate(command: &str) -> Result<(), Blocked> {
    gate_text(command).map_err(Blocked::input_gate)
}

fn gate_text(command: &str) -> Result<(), Why> {
    if command.trim().is_empty() {
        return Err(
            "the command is empty. Send a command such as `grep -rn Plan --include=*.go .`".into(),
        );
    }
    if command.len() > MAX_COMMAND_BYTES {
        return Err(format!(
            "the command is {} bytes; the limit is {MAX_COMMAND_BYTES}. Split it into several shorter commands",
            command.len()
        ));
    }
    // The characters the tools escape in what they show (one rule: `display::escape`),
    // and any carriage return, which no command needs.
    let mut hidden = Hidden::default();
    display::escape(command, Layout::Text, &mut hidden);
    if let Some(c) = hidden
        .chars()
        .next()
        .or_else(|| command.contains('\r').then_some('\r'))
    {
        return Err(format!(
            "the command contains the control, bidi or zero-width character U+{:04X}. Retype it with plain characters",
            c as u32
        ));
    }
    if let Some(c) = brace_scan_hazard(command) {
        return Err(format!(
            "the character U+{:04X} right after `{{` or `..` cannot be parsed safely. Put a space before it or leave it out",
            c as u32
        ));
    }
    Ok(())
}

/// tree-sitter-bash's scanner tests the characters after `{` (and after `..` in a brace
/// range) with C's `isdigit`, whose table covers only bytes: a code point beyond U+00FF
/// there makes it read outside the table, which can crash the process (found by the
/// property test). Such a character, after optional ASCII digits, is refused before
/// the parser sees it.
fn brace_scan_hazard(command: &str) -> Option<char> {
    let chars: Vec<char> = command.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let opens = c == '{' || (c == '.' && i > 0 && chars[i - 1] == '.');
        if !opens {
            continue;
        }
        let next = chars[i + 1..].iter().find(|d| !d.is_ascii_digit());
        if let Some(&d) = next
            && u32::from(d) > 0xFF
        {
            return Some(d);
        }
    }
    None
}

/// Layer 2: parses `command` into a [`Script`], refusing everything not on the allow-list.
pub fn parse(command: &str) -> Result<Script, Blocked> {
    gate(command)?;
    parse_text(command).map_err(Blocked::parse)
}

fn parse_text(command: &str) -> Result<Script, Why> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|e| format!("the shell grammar could not be loaded ({e})"))?;
    let tree = parser
        .parse(command, None)
        .ok_or_else(|| "the command could not be parsed. Simplify it".to_string())?;
    let root = tree.root_node();
    if root.has_error() {
        return Err("the command is not valid shell syntax (check the quotes and brackets). Send one simple command or a pipeline".into());
    }
    let w = Walker { src: command };
    w.statements(root, 0)
}

struct Walker<'a> {
    src: &'a str,
}

fn construct_name(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "subshell" | "compound_statement" => {
            "subshells and `{ …; }` groups are not supported; send the commands one after another with `;` or `&&`"
        }
        "function_definition" => "defining functions is not allowed",
        "for_statement" | "c_style_for_statement" | "while_statement" => {
            "loops are not supported; use `xargs` (`find … | xargs grep -n …`) or one command per file"
        }
        "if_statement" | "case_statement" | "test_command" => {
            "conditionals are not supported; use `&&` and `||` between commands"
        }
        "negated_command" => "`!` is not supported; use `||`",
        "variable_assignment"
        | "variable_assignments"
        | "declaration_command"
        | "unset_command" => {
            "setting or declaring variables is not allowed (only a locale prefix such as `LC_ALL=C grep …`)"
        }
        "expansion" | "simple_expansion" => {
            "variables (`$VAR`, `${…}`) are not expanded here: the environment is empty. Write the value literally"
        }
        "arithmetic_expansion" => "arithmetic expansion `$((…))` is not supported",
        "process_substitution" => "process substitution `<(…)` is not supported; use a pipeline",
        "heredoc_redirect" | "heredoc_body" => "here-documents are not supported",
        "herestring_redirect" => {
            "here-strings `<<<` are not supported; pipe from a file or pass the text as an argument"
        }
        "ansi_c_string" => "`$'…'` strings are not supported; use '…' or \"…\"",
        "translated_string" => "`$\"…\"` strings are not supported; use \"…\"",
        "brace_expression" => {
            "brace ranges `{1..3}` are not expanded here; write the words out (lists such as `{a,b}` are expanded)"
        }
        "array" => "arrays are not supported",
        _ => return None,
    })
}

fn refuse_kind(kind: &str) -> Why {
    match construct_name(kind) {
        Some(why) => why.to_string(),
        None => format!(
            "the shell construct `{kind}` is not supported. Send simple commands joined by `|`, `;`, `&&` or `||`"
        ),
    }
}

impl Walker<'_> {
    fn text(&self, n: Node<'_>) -> &str {
        &self.src[n.byte_range()]
    }

    /// A `program` or the body of `$(…)`: statements separated by `;` or newlines.
    fn statements(&self, n: Node<'_>, depth: usize) -> Result<Script, Why> {
        let mut items = Vec::new();
        let mut cursor = n.walk();
        for child in n.children(&mut cursor) {
            if child.is_named() {
                match child.kind() {
                    "comment" => {}
                    "file_redirect" if n.kind() == "command_substitution" => {
                        return Err("redirections inside `$(…)` are not supported".into());
                    }
                    _ => items.push(self.statement(child, depth)?),
                }
            } else {
                match child.kind() {
                    ";" | "\n" | "$(" | ")" => {}
                    "&" => {
                        return Err("running a command in the background with `&` is not allowed; run it in the foreground".into());
                    }
                    "`" => {
                        return Err("backtick substitution is not supported; use `$(…)`".into());
                    }
                    other => return Err(refuse_kind(other)),
                }
            }
        }
        if items.is_empty() {
            return Err("the command is empty. Send a command such as `ls`".into());
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Script::Seq(items)
        })
    }

    fn statement(&self, n: Node<'_>, depth: usize) -> Result<Script, Why> {
        match n.kind() {
            "list" => {
                let mut acc: Option<Script> = None;
                let mut op: Option<&str> = None;
                let mut cursor = n.walk();
                for child in n.children(&mut cursor) {
                    if child.is_named() {
                        let s = self.statement(child, depth)?;
                        acc = Some(match (acc, op) {
                            (None, _) => s,
                            (Some(a), Some("&&")) => Script::And(Box::new(a), Box::new(s)),
                            (Some(a), Some("||")) => Script::Or(Box::new(a), Box::new(s)),
                            (Some(_), _) => return Err(refuse_kind("list")),
                        });
                        op = None;
                    } else {
                        match child.kind() {
                            "&&" | "||" => op = Some(child.kind()),
                            "&" => {
                                return Err(
                                    "running a command in the background with `&` is not allowed"
                                        .into(),
                                );
                            }
                            other => return Err(refuse_kind(other)),
                        }
                    }
                }
                acc.ok_or_else(|| refuse_kind("list"))
            }
            "pipeline" => {
                let mut cmds = Vec::new();
                let mut cursor = n.walk();
                for child in n.children(&mut cursor) {
                    if child.is_named() {
                        cmds.push(self.simple(child, depth)?);
                    } else {
                        match child.kind() {
                            "|" => {}
                            "|&" => {
                                return Err("`|&` is not supported; write `2>&1 |`".into());
                            }
                            other => return Err(refuse_kind(other)),
                        }
                    }
                }
                Ok(Script::Pipeline(cmds))
            }
            "command" | "redirected_statement" => {
                Ok(Script::Pipeline(vec![self.simple(n, depth)?]))
            }
            other => Err(refuse_kind(other)),
        }
    }

    /// A command, possibly wrapped in a `redirected_statement`.
    fn simple(&self, n: Node<'_>, depth: usize) -> Result<Cmd, Why> {
        match n.kind() {
            "command" => self.command(n, depth),
            "redirected_statement" => {
                let mut cmd = None;
                let mut redirects = Vec::new();
                let mut cursor = n.walk();
                for child in n.children(&mut cursor) {
                    match child.kind() {
                        "command" if cmd.is_none() => cmd = Some(self.command(child, depth)?),
                        "file_redirect" => redirects.push(self.redirect(child, depth)?),
                        other => return Err(refuse_kind(other)),
                    }
                }
                let mut cmd = cmd.ok_or_else(|| "a redirection needs a command".to_string())?;
                cmd.redirects.extend(redirects);
                Ok(cmd)
            }
            other => Err(refuse_kind(other)),
        }
    }

    fn command(&self, n: Node<'_>, depth: usize) -> Result<Cmd, Why> {
        let mut cmd = Cmd::default();
        let mut cursor = n.walk();
        for child in n.children(&mut cursor) {
            if !child.is_named() {
                return Err(refuse_kind(child.kind()));
            }
            match child.kind() {
                "variable_assignment" => {
                    if !cmd.words.is_empty() {
                        return Err(refuse_kind("variable_assignment"));
                    }
                    let name = child
                        .child_by_field_name("name")
                        .map(|v| self.text(v).to_string())
                        .unwrap_or_default();
                    let value = match child.child_by_field_name("value") {
                        Some(v) => match self.word(v, depth)? {
                            Word::Lit(s) => s,
                            _ => {
                                return Err("a variable prefix must have a literal value, such as `LC_ALL=C`".into());
                            }
                        },
                        None => String::new(),
                    };
                    cmd.assigns.push((name, value));
                }
                "command_name" => {
                    let mut c = child.walk();
                    let inner: Vec<Node<'_>> = child.named_children(&mut c).collect();
                    if inner.len() != 1 {
                        return Err(refuse_kind("command_name"));
                    }
                    match self.word(inner[0], depth)? {
                        Word::Lit(s) => cmd.words.push(Word::Lit(s)),
                        _ => {
                            return Err(
                                "the program name must be written literally (no globs or `$(…)`)"
                                    .into(),
                            );
                        }
                    }
                }
                "file_redirect" => cmd.redirects.push(self.redirect(child, depth)?),
                "comment" => {}
                _ => {
                    if cmd.words.is_empty() {
                        return Err(refuse_kind(child.kind()));
                    }
                    cmd.words.extend(self.words(child, depth)?);
                }
            }
        }
        if cmd.words.is_empty() {
            return Err(refuse_kind("variable_assignment"));
        }
        Ok(cmd)
    }

    fn redirect(&self, n: Node<'_>, depth: usize) -> Result<Redirect, Why> {
        let mut fd: Option<String> = None;
        let mut op = String::new();
        let mut dest: Option<Node<'_>> = None;
        let mut cursor = n.walk();
        for child in n.children(&mut cursor) {
            if child.kind() == "file_descriptor" {
                fd = Some(self.text(child).to_string());
            } else if !child.is_named() {
                op = child.kind().to_string();
            } else if dest.is_none() {
                dest = Some(child);
            } else {
                return Err(refuse_kind(child.kind()));
            }
        }
        let dest = dest.ok_or_else(|| "a redirection needs a target".to_string())?;
        let target = self.word(dest, depth)?;
        let target_lit = target.lit().unwrap_or("");
        let fd = fd.as_deref();
        let null = target_lit == "/dev/null";
        let writes = "redirecting output to a file is not allowed: the bash tool is read-only. Drop the redirection (only `>/dev/null`, `2>/dev/null` and `2>&1` are accepted)";
        match (op.as_str(), fd) {
            (">" | ">>" | ">|", None | Some("1")) if null => Ok(Redirect::StdoutNull),
            (">" | ">>" | ">|", Some("2")) if null => Ok(Redirect::StderrNull),
            ("&>" | "&>>", None) if null => Ok(Redirect::BothNull),
            (">&", None) if null => Ok(Redirect::BothNull),
            (">&", Some("2")) if target_lit == "1" => Ok(Redirect::StderrToStdout),
            (">&", None | Some("1")) if target_lit == "2" => Err(
                "`>&2` is not supported; output and errors are both shown to you already".into(),
            ),
            ("<", None | Some("0")) => Ok(Redirect::StdinFile(target)),
            (">" | ">>" | ">|" | "&>" | "&>>" | ">&", _) => Err(writes.into()),
            _ => Err(format!(
                "the redirection `{}` is not supported; only `>/dev/null`, `2>/dev/null`, `2>&1` and `< file` are",
                self.text(n)
            )),
        }
    }

    /// One argument node into its [`Word`]s: more than one when it has a brace list
    /// (`internal/{brain,store}`), which we expand ourselves.
    fn words(&self, n: Node<'_>, depth: usize) -> Result<Vec<Word>, Why> {
        if matches!(n.kind(), "word" | "concatenation") {
            self.check_plain(n)?;
            if let Some(expanded) = expand_braces(self.text(n))? {
                return expanded.iter().map(|w| lex_word(w)).collect();
            }
        }
        Ok(vec![self.word(n, depth)?])
    }

    /// One argument node into a [`Word`].
    fn word(&self, n: Node<'_>, depth: usize) -> Result<Word, Why> {
        match n.kind() {
            "process_substitution" => return Err(process_substitution(self.text(n))),
            "command_substitution" => return self.subst(n, depth, false),
            "string" => {
                let mut c = n.walk();
                let named: Vec<Node<'_>> = n.named_children(&mut c).collect();
                if named.len() == 1
                    && named[0].kind() == "command_substitution"
                    && self.text(n).len() == self.text(named[0]).len() + 2
                {
                    return self.subst(named[0], depth, true);
                }
            }
            _ => {}
        }
        self.check_plain(n)?;
        lex_word(self.text(n))
    }

    fn subst(&self, n: Node<'_>, depth: usize, quoted: bool) -> Result<Word, Why> {
        if depth >= MAX_SUBST_DEPTH {
            return Err("`$(…)` is nested too deeply".into());
        }
        if self.text(n).starts_with('`') {
            return Err("backtick substitution is not supported; use `$(…)`".into());
        }
        let script = self.statements(n, depth + 1)?;
        Ok(Word::Subst {
            script: Box::new(script),
            quoted,
        })
    }

    /// Every node under an argument must be a plain piece of text.
    fn check_plain(&self, n: Node<'_>) -> Result<(), Why> {
        match n.kind() {
            "word" | "raw_string" | "string_content" | "number" => {}
            "string" | "concatenation" => {
                let mut c = n.walk();
                for child in n.named_children(&mut c) {
                    if child.kind() == "command_substitution" {
                        return Err("`$(…)` must be a whole argument (`grep -n x $(…)` or \"$(…)\"), not part of one".into());
                    }
                    self.check_plain(child)?;
                }
            }
            other => return Err(refuse_kind(other)),
        }
        Ok(())
    }
}

/// Most words one brace expansion may give.
pub const MAX_BRACE_WORDS: usize = 64;

/// The refusal for `<(…)`, naming the equivalent when there is one: `<(git show REV:PATH)`
/// (comparing a file with an older version of it) is `git diff REV -- PATH`.
fn process_substitution(text: &str) -> Why {
    let inner = text
        .trim_start_matches(['<', '>'])
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let words: Vec<&str> = inner.split_whitespace().collect();
    if let ["git", "show", spec] = words.as_slice()
        && let Some((rev, path)) = spec.split_once(':')
        && !rev.is_empty()
        && !path.is_empty()
    {
        return format!(
            "process substitution `<(…)` needs a shell, which is never run here; to compare `{path}` with its version at `{rev}`, use `git diff {rev} -- {path}`"
        );
    }
    "process substitution `<(…)` needs a shell, which is never run here; compare a file with an older version with `git diff REV -- FILE`, or run the inner command on its own".into()
}

/// Brace expansion of one word's source text, done here as bash would (before quote
/// removal and globbing): `internal/{brain,store}` gives `internal/brain internal/store`.
/// Only lists of plain words (letters, digits, `. _ - / * ?`, possibly empty) are expanded;
/// nested lists, quotes or expansions inside the braces are refused, and so is a result of
/// more than [`MAX_BRACE_WORDS`] words. `None` when the word has no unquoted brace list
/// (`{}`, `stash@{0}` and quoted braces stay literal). Every word is then a word like any
/// other: globbed, vetted and path-checked on its own.
pub fn expand_braces(raw: &str) -> Result<Option<Vec<String>>, Why> {
    let Some((open, close)) = find_brace_list(raw)? else {
        return Ok(None);
    };
    let (prefix, body, suffix) = (&raw[..open], &raw[open + 1..close], &raw[close + 1..]);
    let tails = match expand_braces(suffix)? {
        Some(t) => t,
        None => vec![suffix.to_string()],
    };
    let mut out = Vec::new();
    for alt in body.split(',') {
        if !alt
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '*' | '?'))
        {
            return Err(format!(
                "brace expansion is done for lists of plain words only (`dir/{{a,b}}`); `{{{}}}` has other characters. Write the words out",
                crate::display::escape_for_display(body)
            ));
        }
        for t in &tails {
            out.push(format!("{prefix}{alt}{t}"));
            if out.len() > MAX_BRACE_WORDS {
                return Err(format!(
                    "the brace expansion gives more than {MAX_BRACE_WORDS} words; narrow it"
                ));
            }
        }
    }
    Ok(Some(out))
}

/// The first unquoted `{…}` with a comma at its top level: byte offsets of the braces.
fn find_brace_list(raw: &str) -> Result<Option<(usize, usize)>, Why> {
    let b = raw.as_bytes();
    let mut i = 0;
    let mut open: Option<usize> = None;
    let mut comma = false;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\'' if open.is_none() => {
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
            }
            b'"' if open.is_none() => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' if open.is_some() && comma => {
                return Err("nested brace expansion is not supported; write the words out".into());
            }
            b'{' => {
                open = Some(i);
                comma = false;
            }
            b',' if open.is_some() => comma = true,
            b'}' => {
                if let Some(o) = open
                    && comma
                {
                    return Ok(Some((o, i)));
                }
                open = None;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(None)
}

fn is_glob_char(c: char) -> bool {
    matches!(c, '*' | '?' | '[')
}

/// Quote removal for one word's source text. Refuses `$`, backticks and brace expansion
/// outside single quotes, which would make bash do more than we can see.
pub fn lex_word(raw: &str) -> Result<Word, Why> {
    let mut text = String::new();
    let mut pattern = String::new();
    let mut globbing = false;
    let mut chars = raw.chars().peekable();
    let mut brace_open = false;
    let mut brace_special = false;
    let push_quoted = |text: &mut String, pattern: &mut String, c: char| {
        text.push(c);
        if is_glob_char(c) || matches!(c, '\\' | ']' | '{' | '}') {
            pattern.push('\\');
        }
        pattern.push(c);
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let mut closed = false;
                for q in chars.by_ref() {
                    if q == '\'' {
                        closed = true;
                        break;
                    }
                    push_quoted(&mut text, &mut pattern, q);
                }
                if !closed {
                    return Err("unbalanced single quote".into());
                }
            }
            '"' => {
                let mut closed = false;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' => match chars.peek() {
                            Some(&e @ ('"' | '\\' | '$' | '`')) => {
                                chars.next();
                                push_quoted(&mut text, &mut pattern, e);
                            }
                            Some('\n') => {
                                chars.next();
                            }
                            _ => push_quoted(&mut text, &mut pattern, '\\'),
                        },
                        '$' | '`' => return Err(refuse_kind("simple_expansion")),
                        q => push_quoted(&mut text, &mut pattern, q),
                    }
                }
                if !closed {
                    return Err("unbalanced double quote".into());
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(e) => push_quoted(&mut text, &mut pattern, e),
                None => return Err("a trailing backslash is not supported".into()),
            },
            '$' => return Err(refuse_kind("simple_expansion")),
            '`' => return Err("backtick substitution is not supported; use `$(…)`".into()),
            '{' => {
                brace_open = true;
                push_quoted(&mut text, &mut pattern, c);
            }
            ',' if brace_open => {
                brace_special = true;
                text.push(c);
                pattern.push(c);
            }
            '.' if brace_open && chars.peek() == Some(&'.') => {
                brace_special = true;
                text.push(c);
                pattern.push(c);
            }
            '}' => {
                if brace_open && brace_special {
                    return Err(refuse_kind("brace_expression"));
                }
                brace_open = false;
                push_quoted(&mut text, &mut pattern, c);
            }
            c if is_glob_char(c) => {
                globbing = true;
                text.push(c);
                pattern.push(c);
            }
            ']' => {
                text.push(c);
                pattern.push(c);
            }
            c => {
                text.push(c);
                pattern.push(c);
            }
        }
    }
    Ok(if globbing {
        Word::Glob { pattern, text }
    } else {
        Word::Lit(text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gate refuses what `display::escape` would escape, in the same context: emoji
    /// built with joiners and selectors pass, hidden payloads (tag characters, selector
    /// runs, fillers, separators) and carriage returns do not.
    #[test]
    fn the_gate_refuses_what_the_tools_would_escape() {
        for ok in [
            "grep -rn '❤️' .",
            "grep -rn '👨\u{200d}👩\u{200d}👧' .",
            "grep -rn '日本語' .",
            "grep -rn 'a\tb' .",
        ] {
            assert!(gate(ok).is_ok(), "{ok}");
        }
        for (bad, code) in [
            ("grep x\u{e0041}\u{e0042} .", "U+E0041"),
            ("grep is\u{3164}Admin .", "U+3164"),
            ("grep x\u{2028} .", "U+2028"),
            ("grep 😀\u{fe0f}\u{fe01} .", "U+FE01"),
            ("grep a\u{200d}b .", "U+200D"),
            ("grep x .\r\n", "U+000D"),
            ("ls\u{00ad}", "U+00AD"),
        ] {
            let err = gate(bad).unwrap_err();
            assert!(err.reason().contains(code), "{bad:?}: {}", err.reason());
        }
    }

    #[test]
    fn wide_characters_after_a_brace_are_refused_before_the_scanner() {
        for cmd in [
            "echo {\u{10FFFF}",
            "echo {12\u{20000}",
            "echo {1..\u{E0100}",
        ] {
            let err = parse(cmd).unwrap_err();
            assert!(
                err.reason().contains("right after `{` or `..`"),
                "{cmd:?}: {err}"
            );
            assert_eq!(err.by(), crate::bash::refusal::RefusedBy::InputGate);
        }
        assert_eq!(brace_scan_hazard("echo {\u{FC} {1..3} \u{65E5}"), None);
        assert!(parse("grep -rn 'caf\u{E9}' .").is_ok());
    }

    fn lit(s: &str) -> Word {
        Word::Lit(s.into())
    }

    #[test]
    fn parses_pipeline_with_redirects() {
        let s = parse("LC_ALL=C grep -n 'a b' x.go 2>&1 | head -3").unwrap();
        let Script::Pipeline(cmds) = s else {
            panic!("{s:?}")
        };
        assert_eq!(cmds.len(), 2);
        assert_eq!(
            cmds[0].assigns,
            vec![("LC_ALL".to_string(), "C".to_string())]
        );
        assert_eq!(
            cmds[0].words,
            vec![lit("grep"), lit("-n"), lit("a b"), lit("x.go")]
        );
        assert_eq!(cmds[0].redirects, vec![Redirect::StderrToStdout]);
        assert_eq!(cmds[1].words, vec![lit("head"), lit("-3")]);
    }

    #[test]
    fn lexes_quotes_and_globs() {
        assert_eq!(lex_word(r#"'a'b"c\"d""#).unwrap(), lit("abc\"d"));
        assert_eq!(
            lex_word("*.go").unwrap(),
            Word::Glob {
                pattern: "*.go".into(),
                text: "*.go".into()
            }
        );
        assert_eq!(
            lex_word("'*'x*").unwrap(),
            Word::Glob {
                pattern: "\\*x*".into(),
                text: "*x*".into()
            }
        );
        assert_eq!(lex_word("a\\*").unwrap(), lit("a*"));
        assert!(lex_word("$HOME").is_err());
        assert!(lex_word("\"$HOME\"").is_err());
        assert!(lex_word("{a,b}").is_err());
        assert_eq!(
            expand_braces("internal/{brain,store}").unwrap(),
            Some(vec![
                "internal/brain".to_string(),
                "internal/store".to_string()
            ])
        );
        assert_eq!(
            expand_braces("--include=*.{go,rs}").unwrap(),
            Some(vec![
                "--include=*.go".to_string(),
                "--include=*.rs".to_string()
            ])
        );
        assert_eq!(
            expand_braces("{a,b}{1,2}").unwrap().unwrap(),
            vec!["a1", "a2", "b1", "b2"]
        );
        assert_eq!(
            expand_braces("f{,.bak}").unwrap().unwrap(),
            vec!["f", "f.bak"]
        );
        for lit in ["stash@{0}", "{}", "'{a,b}'", "\"x{a,b}\"", "a\\{b,c}"] {
            assert_eq!(expand_braces(lit).unwrap(), None, "{lit}");
        }
        for bad in ["{a,{b,c}}", "{a,$x}", "{a,'b'}", "{a b,c}"] {
            assert!(expand_braces(bad).is_err(), "{bad}");
        }
        let many = "{a,b,c,d}{a,b,c,d}{a,b,c,d,e}";
        assert!(expand_braces(many).unwrap_err().contains("more than 64"));
        assert_eq!(lex_word("'{a,b}'").unwrap(), lit("{a,b}"));
        assert_eq!(lex_word("HEAD@{1}").unwrap(), lit("HEAD@{1}"));
    }

    #[test]
    fn lists_fold_left() {
        let s = parse("a || b && c").unwrap();
        let Script::And(left, _) = s else {
            panic!("{s:?}")
        };
        assert!(matches!(*left, Script::Or(_, _)));
    }
}
