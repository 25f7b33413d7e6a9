//! Parameter lists in a `symbol`: `Interpreter.eval(String)` picks, among the overloads
//! named `Interpreter.eval`, those whose parameters are a `String`.
//!
//! Java overloads share a name and a qualified name, so the name alone cannot pick one;
//! Rust `impl` blocks of one type for several traits (`Vec<u8>.from` for `From<Bytes>` and
//! `From<BytesMut>`) and same-named Python or TypeScript functions can be told apart the
//! same way. The graph keeps no parameter types, but every callable's one-line signature
//! has them as written (a header spread over several lines is collapsed into one), so
//! they are read from it here, at query time.
//!
//! Matching is by simple type names, in order, ignoring case: each type is reduced to the
//! last segment of its path without type arguments, references, pointers or modifiers
//! (`final java.util.List<String>` → `List`, `&mut [u8]` → `u8[]`, `*Planner` →
//! `Planner`); arrays, slices and varargs keep a `[]` (`String...` and `String[]` are
//! both `String[]`). A query item may name the parameter too (`String s`, `s: String`,
//! `s string`). An untyped parameter (Python, JavaScript) matches any item; `self`,
//! `cls`, Rust's `&self` and TypeScript's `this` are not parameters; trailing parameters
//! with a default or `?` may be left out, and a variadic one takes any number of items.

use super::model::{Language, Symbol};

/// Splits a trailing parameter list off a symbol: `Interpreter.eval(String, int)` →
/// (`Interpreter.eval`, `["String", "int"]`). An empty list (`Plan()`) is no list, as
/// is Go's `(*Planner).Plan` (the parentheses do not end the symbol).
pub fn split(symbol: &str) -> (&str, Option<Vec<String>>) {
    let s = symbol.trim();
    let Some(body) = s.strip_suffix(')') else {
        return (s, None);
    };
    // The `(` that opens the last group.
    let mut depth = 0i32;
    let mut open = None;
    for (i, c) in body.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth == 0 => {
                open = Some(i);
                break;
            }
            '(' => depth -= 1,
            _ => {}
        }
    }
    let Some(open) = open else {
        return (s, None);
    };
    let head = s[..open].trim_end();
    if head.is_empty() || head.ends_with(['.', '(', ')']) {
        return (s, None);
    }
    let inner = body[open + 1..].trim();
    if inner.is_empty() {
        return (head, None);
    }
    let items = top_level(inner, ',')
        .into_iter()
        .map(|i| i.trim().to_string())
        .collect();
    (head, Some(items))
}

/// Whether `s`'s signature has parameters matching `items`, in order. `None` when the
/// signature has no readable parameter list (not a callable, or cut short).
pub fn matches(s: &Symbol, items: &[String]) -> Option<bool> {
    if !s.kind.is_callable() {
        return None;
    }
    let lang = Language::of_path(&s.path)?;
    let params = signature_params(&s.signature, &s.name, lang)?;
    Some(fits(&params, items))
}

/// One declared parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Param {
    /// Its simple type, or `None` when it has no type (matches anything).
    ty: Option<String>,
    /// It may be left out (a default, TypeScript's `?`).
    optional: bool,
    /// It takes any number of arguments (`String...`, `*args`, `...rest`).
    variadic: bool,
}

fn fits(params: &[Param], items: &[String]) -> bool {
    let required = params
        .iter()
        .take_while(|p| !p.optional && !p.variadic)
        .count();
    let variadic = params.last().is_some_and(|p| p.variadic);
    if items.len() < required || (!variadic && items.len() > params.len()) {
        return false;
    }
    items.iter().enumerate().all(|(i, item)| {
        let p = &params[i.min(params.len() - 1)];
        let Some(ty) = &p.ty else { return true };
        let element = ty.strip_suffix("[]").filter(|_| p.variadic);
        item_types(item).iter().any(|t| {
            t.eq_ignore_ascii_case(ty) || element.is_some_and(|e| t.eq_ignore_ascii_case(e))
        })
    })
}

/// The simple types a query item may mean: `String` → `String`; `String s` (Java) and
/// `s string` (Go) → both words; `s: String` → `String`.
fn item_types(item: &str) -> Vec<String> {
    if let Some((_, t)) = split_once_top(item, ':') {
        return vec![simple_type(t)];
    }
    let words = top_level(item, ' ');
    let words: Vec<&str> = words.into_iter().filter(|w| !w.is_empty()).collect();
    match words.as_slice() {
        [] => Vec::new(),
        [one] => vec![simple_type(one)],
        [.., last] => {
            let front = item[..item.len() - last.len()].trim();
            vec![simple_type(front), simple_type(last)]
        }
    }
}

/// The parameters of a one-line signature: the group after `name` (its type parameters
/// skipped), or the first group after it (`const f = (a: number) => …`).
fn signature_params(sig: &str, name: &str, lang: Language) -> Option<Vec<Param>> {
    let sig = without_block_comments(sig);
    let at = name_at(&sig, name)?;
    let rest = &sig[at + name.len()..];
    let open = rest.find('(')?;
    let inner = balanced(&rest[open..])?;
    let single_quotes = matches!(
        lang,
        Language::Python | Language::TypeScript | Language::Tsx | Language::JavaScript
    );
    let raw: Vec<&str> = split_top(inner, ',', single_quotes)
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let mut params: Vec<Param> = Vec::new();
    match lang {
        Language::Java => {
            for p in raw {
                params.push(java_param(p));
            }
        }
        Language::Go => params = go_params(&raw),
        _ => {
            for p in raw {
                if let Some(p) = colon_param(p, lang) {
                    params.push(p);
                }
            }
        }
    }
    Some(params)
}

/// Where `name` stands as a word in `sig`.
fn name_at(sig: &str, name: &str) -> Option<usize> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut from = 0;
    while let Some(i) = sig[from..].find(name).map(|i| i + from) {
        let before = sig[..i].chars().next_back();
        let after = sig[i + name.len()..].chars().next();
        if !before.is_some_and(ident) && !after.is_some_and(ident) {
            return Some(i);
        }
        from = i + name.len().max(1);
    }
    None
}

/// The text inside the bracket group `s` starts with; `None` when it is not closed.
fn balanced(s: &str) -> Option<&str> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[1..i]);
                }
            }
            // `->` and `=>` are not brackets.
            '>' if !s[..i].ends_with(['-', '=']) => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `s` without its `/* … */` comments.
fn without_block_comments(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains("/*") {
        return s.into();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = rest[i + 2..]
            .find("*/")
            .map_or("", |j| &rest[i + 2 + j + 2..]);
    }
    out.push_str(rest);
    out.into()
}

/// `s` split on `sep` outside brackets and double quotes.
fn top_level(s: &str, sep: char) -> Vec<&str> {
    split_top(s, sep, false)
}

/// `s` split on `sep` outside brackets and quotes; single quotes count only where they
/// quote strings (Python, TypeScript: `sep=', '`), not in Rust (`&'a str`).
fn split_top(s: &str, sep: char, single_quotes: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' => quote = Some(c),
            '\'' if single_quotes => quote = Some(c),
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '>' if !s[..i].ends_with(['-', '=']) => depth -= 1,
            c if c == sep && depth <= 0 => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn split_once_top(s: &str, sep: char) -> Option<(&str, &str)> {
    let parts = top_level(s, sep);
    if parts.len() < 2 {
        return None;
    }
    let head = parts[0];
    Some((head, &s[head.len() + sep.len_utf8()..]))
}

/// Java: `final @NonNull String name`, `String... args`, `int[] xs`.
fn java_param(p: &str) -> Param {
    let words: Vec<&str> = top_level(p, ' ')
        .into_iter()
        .filter(|w| !w.is_empty() && !w.starts_with('@') && *w != "final")
        .collect();
    let ty = match words.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [.., last] => {
            let at = p.rfind(last).unwrap_or(p.len());
            let front: Vec<&str> = top_level(&p[..at], ' ')
                .into_iter()
                .filter(|w| !w.is_empty() && !w.starts_with('@') && *w != "final")
                .collect();
            front.join(" ")
        }
    };
    let variadic = ty.contains("...");
    Param {
        ty: Some(simple_type(&ty)),
        optional: false,
        variadic,
    }
}

/// Go: `ctx context.Context`, `a, b int` (a name takes the next type), `...string`, or
/// types alone (`func(int, string)`).
fn go_params(raw: &[&str]) -> Vec<Param> {
    let named = raw.iter().any(|p| top_level(p, ' ').len() > 1);
    let mut out: Vec<Param> = Vec::new();
    let mut pending = 0;
    for p in raw {
        let ty = if named {
            match p.trim().split_once(char::is_whitespace) {
                Some((_, t)) => t.trim(),
                None => {
                    pending += 1;
                    continue;
                }
            }
        } else {
            p.trim()
        };
        let param = Param {
            ty: Some(simple_type(ty)),
            optional: false,
            variadic: ty.starts_with("..."),
        };
        for _ in 0..pending {
            out.push(param.clone());
        }
        pending = 0;
        out.push(param);
    }
    out
}

/// Rust, TypeScript, JavaScript, Python: `name: Type = default`, `name?: Type`, `name`,
/// `*args`, `...rest`; `None` for the receiver (`self`, `&mut self`, `cls`, `this`) and
/// Python's `*` and `/` markers.
fn colon_param(p: &str, lang: Language) -> Option<Param> {
    let (head, default) = match split_once_top(p, '=') {
        Some((h, _)) => (h.trim(), true),
        None => (p.trim(), false),
    };
    let (name, ty) = match split_once_top(head, ':') {
        Some((n, t)) => (n.trim(), Some(t.trim())),
        None => (head, None),
    };
    let bare = name
        .trim_start_matches(['&', '*'])
        .trim_start_matches("mut ")
        .trim_start_matches("...")
        .trim_end_matches('?')
        .trim();
    let receiver = match lang {
        Language::Rust => bare == "self" || name.ends_with("self") && ty.is_none(),
        Language::Python => matches!(bare, "self" | "cls") && ty.is_none(),
        _ => bare == "this",
    };
    if receiver || bare.is_empty() || matches!(name, "*" | "/") {
        return None;
    }
    let variadic = (name.starts_with('*') && lang == Language::Python) || name.starts_with("...");
    let mut ty = ty.map(simple_type);
    if variadic && lang != Language::Python {
        // `...rest: string[]` takes strings.
        ty = ty.map(|t| t.strip_suffix("[]").unwrap_or(&t).to_string() + "[]");
    } else if variadic {
        ty = ty.map(|t| t + "[]");
    }
    Some(Param {
        ty,
        optional: default || name.ends_with('?'),
        variadic,
    })
}

/// The simple name of a type as written: the last path segment, without type arguments,
/// references, pointers, lifetimes or modifiers; arrays, slices and varargs as `T[]`.
pub(crate) fn simple_type(t: &str) -> String {
    let mut t = t.trim().trim_matches(['"', '\'']).trim();
    let mut array = false;
    loop {
        let before = t;
        for prefix in [
            "&",
            "*",
            "mut ",
            "dyn ",
            "impl ",
            "final ",
            "const ",
            "readonly ",
            "unique ",
        ] {
            t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
        }
        if let Some(rest) = t.strip_prefix('\'') {
            // A Rust lifetime: `&'a str`.
            t = rest
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r)
                .trim_start();
        }
        if let Some(rest) = t.strip_prefix("...").or_else(|| t.strip_prefix("[]")) {
            array = true;
            t = rest.trim_start();
        }
        if t == before {
            break;
        }
    }
    // Rust slices and arrays: `[u8]`, `[u8; 4]`.
    if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let inner = top_level(inner, ';')[0];
        return simple_type(inner) + "[]";
    }
    // A union or an optional: its first member (`Foo | null`, `Foo?`).
    let t = top_level(t, '|')[0].trim().trim_end_matches('?');
    let mut t = t;
    while let Some(rest) = t.strip_suffix("[]").or_else(|| t.strip_suffix("...")) {
        array = true;
        t = rest.trim_end();
    }
    let t = t.split(['<', '[', '(']).next().unwrap_or(t).trim();
    let t = t.rsplit(['.', ':']).next().unwrap_or(t);
    if array {
        format!("{t}[]")
    } else {
        t.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(sig: &str, name: &str, lang: Language) -> Vec<Option<String>> {
        signature_params(sig, name, lang)
            .unwrap_or_default()
            .into_iter()
            .map(|p| p.ty)
            .collect()
    }

    fn some(v: &[&str]) -> Vec<Option<String>> {
        v.iter().map(|s| Some(s.to_string())).collect()
    }

    #[test]
    fn splits_a_trailing_parameter_list() {
        assert_eq!(
            split("Interpreter.eval(String, NameSpace)"),
            (
                "Interpreter.eval",
                Some(vec!["String".into(), "NameSpace".into()])
            )
        );
        assert_eq!(
            split("get(Map<String, List<Integer>> m)"),
            ("get", Some(vec!["Map<String, List<Integer>> m".into()]))
        );
        assert_eq!(split("Plan()"), ("Plan", None));
        assert_eq!(split("(*Planner).Plan"), ("(*Planner).Plan", None));
        assert_eq!(
            split("brain.(*Planner).Plan"),
            ("brain.(*Planner).Plan", None)
        );
        assert_eq!(split("(*Planner)"), ("(*Planner)", None));
        assert_eq!(split("Plan"), ("Plan", None));
    }

    #[test]
    fn reads_parameters_from_signatures() {
        let java = "public Object eval( Reader in, NameSpace nameSpace, String sourceFileInfo /*, CallStack callstack */ ) throws EvalError";
        assert_eq!(
            params(java, "eval", Language::Java),
            some(&["Reader", "NameSpace", "String"])
        );
        assert_eq!(
            params(
                "public static <T> List<T> of(final java.util.Map<String, T> m, @Nullable int[] xs, String... rest)",
                "of",
                Language::Java
            ),
            some(&["Map", "int[]", "String[]"])
        );
        assert_eq!(
            params(
                "pub fn put<'a, T: Buf>(&mut self, src: &'a [u8], n: impl Into<usize>, f: &mut dyn Fn(u8) -> u8) -> Result<(), E>",
                "put",
                Language::Rust
            ),
            some(&["u8[]", "Into", "Fn"])
        );
        assert_eq!(
            params(
                "def render(self, console: \"Console\", options: Optional[ConsoleOptions] = None, *args, **kw) -> Text:",
                "render",
                Language::Python
            ),
            vec![Some("Console".into()), Some("Optional".into()), None, None]
        );
        assert_eq!(
            params(
                "func (p *Planner) Plan(ctx context.Context, a, b int, opts ...Option) (*Plan, error)",
                "Plan",
                Language::Go
            ),
            some(&["Context", "int", "int", "Option[]"])
        );
        assert_eq!(
            params(
                "export const area = (c: Circle, scale?: number): number =>",
                "area",
                Language::TypeScript
            ),
            some(&["Circle", "number"])
        );
    }

    #[test]
    fn matches_by_simple_type_names_in_order() {
        let p = |ty: &str, optional, variadic| Param {
            ty: Some(ty.to_string()),
            optional,
            variadic,
        };
        let items = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let eval = [p("Reader", false, false), p("NameSpace", false, false)];
        assert!(fits(&eval, &items(&["Reader", "NameSpace"])));
        assert!(fits(
            &eval,
            &items(&["java.io.Reader in", "bsh.NameSpace ns"])
        ));
        assert!(fits(&eval, &items(&["in: Reader", "ns NameSpace"])));
        assert!(!fits(&eval, &items(&["String", "NameSpace"])));
        assert!(!fits(&eval, &items(&["Reader"])));
        let opt = [p("String", false, false), p("int", true, false)];
        assert!(fits(&opt, &items(&["String"])));
        assert!(fits(&opt, &items(&["string", "Int"])));
        let var = [p("String", false, false), p("Object[]", false, true)];
        assert!(fits(&var, &items(&["String"])));
        assert!(fits(&var, &items(&["String", "Object", "Object"])));
        assert!(fits(&var, &items(&["String", "Object..."])));
        let untyped = [Param {
            ty: None,
            optional: false,
            variadic: false,
        }];
        assert!(fits(&untyped, &items(&["anything"])));
    }
}
