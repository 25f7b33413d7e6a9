//! The shape of a Go method (how many parameters, whether the last is variadic, how many
//! results), read from its signature line: enough to tell that `NamedStmt.Query(arg
//! interface{})` does not satisfy `Queryer.Query(query string, args ...interface{})`.
//!
//! Go's interfaces are structural and the linker matches them by method names alone (the
//! extractor records no parameter lists), which the link and the refresh in place must
//! agree on. The shapes are compared when an answer is made instead
//! ([`crate::code::query::implementations`]): a pair whose methods of one name have
//! known shapes that differ is no implementation. A shape that cannot be read from one
//! line (a parameter list broken over several lines) is unknown, and an unknown shape
//! never removes a pair.

/// A method's parameter and result counts. Names that share a type (`a, b int`) count
/// one each, as in the method's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Parameters, the receiver aside.
    pub params: usize,
    /// Whether the last parameter is variadic (`args ...any`).
    pub variadic: bool,
    /// Results.
    pub results: usize,
}

/// The shape of a Go method from its signature line: a declaration (`func (r *T)
/// Name(a int) (int, error) {`) or an interface method (`Name(a int) error`). `None` when
/// the line does not hold the whole parameter list.
pub fn of_signature(line: &str) -> Option<Shape> {
    let mut rest = line.trim();
    if let Some(after) = rest.strip_prefix("func") {
        rest = after.trim_start();
        if rest.starts_with('(') {
            let (_, after) = group(rest)?;
            rest = after.trim_start();
        }
    }
    // The name, then type parameters a generic function may declare.
    let name_end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if name_end == 0 {
        return None;
    }
    rest = rest[name_end..].trim_start();
    if rest.starts_with('[') {
        let (_, after) = group(rest)?;
        rest = after.trim_start();
    }
    if !rest.starts_with('(') {
        return None;
    }
    let (params, after) = group(rest)?;
    let params = split_top(params);
    let variadic = params.last().is_some_and(|p| p.contains("..."));
    let mut tail = after.trim();
    if let Some(i) = tail.find("//") {
        tail = tail[..i].trim_end();
    }
    // The results end where the body opens (`{`, on the line or not).
    let results = if tail.is_empty() || tail.starts_with('{') {
        0
    } else if tail.starts_with('(') {
        let (inner, after) = group(tail)?;
        let after = after.trim_start();
        if !(after.is_empty() || after.starts_with('{')) {
            return None;
        }
        split_top(inner).len()
    } else {
        1
    };
    Some(Shape {
        params: params.len(),
        variadic,
        results,
    })
}

/// The inside of the bracketed group `s` starts with, and what follows it; `None` when
/// the group does not close on the line.
fn group(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((&s[1..i], &s[i + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// The comma-separated items of a list at its top level (commas inside `func(a, b int)`
/// or `struct{ x, y int }` do not split), empty items dropped.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out.retain(|p| !p.trim().is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(params: usize, variadic: bool, results: usize) -> Option<Shape> {
        Some(Shape {
            params,
            variadic,
            results,
        })
    }

    #[test]
    fn declarations_and_interface_methods_read_alike() {
        assert_eq!(
            of_signature(
                "func (db *DB) Queryx(query string, args ...interface{}) (*Rows, error) {"
            ),
            shape(2, true, 2)
        );
        assert_eq!(
            of_signature("Queryx(query string, args ...interface{}) (*Rows, error)"),
            shape(2, true, 2)
        );
        assert_eq!(
            of_signature("func (n *NamedStmt) Query(arg interface{}) (*sql.Rows, error) {"),
            shape(1, false, 2)
        );
        assert_eq!(of_signature("Close() error"), shape(0, false, 1));
        assert_eq!(of_signature("Close()"), shape(0, false, 0));
        assert_eq!(of_signature("Close() // releases it"), shape(0, false, 0));
        // A body on the declaration's line.
        assert_eq!(
            of_signature("func (n *Named) Query(arg any) (int, error) { return 0, nil }"),
            shape(1, false, 2)
        );
        assert_eq!(
            of_signature("func (d *DB) Close() { d.c = nil }"),
            shape(0, false, 0)
        );
        assert_eq!(
            of_signature("func (d *DB) Err() error { return d.err }"),
            shape(0, false, 1)
        );
        assert_eq!(
            of_signature("func Walk(root string, fn WalkFunc) error {"),
            shape(2, false, 1)
        );
    }

    #[test]
    fn names_sharing_a_type_count_each_and_nested_lists_do_not_split() {
        assert_eq!(of_signature("Less(i, j int) bool"), shape(2, false, 1));
        assert_eq!(
            of_signature(
                "func (t *T) Each(fn func(k, v string) error, opts struct{ a, b int }) (n int, err error) {"
            ),
            shape(2, false, 2)
        );
        assert_eq!(
            of_signature("func (s *Set[K, V]) Add(v V) func() bool {"),
            shape(1, false, 1)
        );
        assert_eq!(
            of_signature("func Map[T, U any](xs []T) []U {"),
            shape(1, false, 1)
        );
    }

    #[test]
    fn a_list_broken_over_lines_is_unknown() {
        assert_eq!(of_signature("func (c *Client) Do("), None);
        assert_eq!(of_signature("Do(ctx context.Context,"), None);
        assert_eq!(of_signature("type Queryer interface {"), None);
    }
}
