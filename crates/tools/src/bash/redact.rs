//! Credentials that may appear in a program's output, replaced by `***` before the bytes
//! reach the next stage of a pipeline or the model.
//!
//! The secrets rule masks files by name, but a credential can also sit inside a file that
//! may be read: a remote URL with a token (`https://user:token@host/repo.git`), a
//! `http.<url>.extraheader` that actions/checkout writes into `.git/config`, a
//! `credential.*` setting, a `*.password`. Tool output is sent to a model endpoint, so
//! the userinfo of every URL is redacted in every program's output, and git's config and
//! remote output get their credential-carrying keys redacted as well. Redaction runs on
//! each stage's raw stdout, so `git remote -v | cut -d/ -f3` cannot strip the `://` that
//! the URL rule looks for before the redaction sees it.

use std::borrow::Cow;

/// What a program's output is filtered with, on top of the URL rule every output gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFilter {
    /// Only the URL rule.
    #[default]
    Urls,
    /// `git config --list` / `--get-regexp` lines: values of credential keys become `***`.
    GitConfigLines,
    /// `git config --get KEY` of a credential key: every value becomes `***`.
    GitConfigValues,
}

/// Applies `filter` (and the URL rule) to a program's output.
pub fn apply(bytes: Vec<u8>, filter: OutputFilter) -> Vec<u8> {
    let bytes = match urls(&bytes) {
        Cow::Borrowed(_) => bytes,
        Cow::Owned(o) => o,
    };
    match filter {
        OutputFilter::Urls => bytes,
        OutputFilter::GitConfigLines => config_lines(&bytes),
        OutputFilter::GitConfigValues => bytes
            .split_inclusive(|&b| b == b'\n')
            .flat_map(|line| {
                let nl = line.ends_with(b"\n");
                let mut out = b"***".to_vec();
                if nl {
                    out.push(b'\n');
                }
                out
            })
            .collect(),
    }
}

/// Whether a git config key (any case) holds a credential.
pub fn is_credential_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k.starts_with("credential.")
        || (k.starts_with("http.") && k.ends_with(".extraheader"))
        || [".password", ".smtppass", ".token"]
            .iter()
            .any(|s| k.ends_with(s))
}

/// `scheme://user:password@host` → `scheme://***@host`, anywhere in `bytes`.
pub fn urls(bytes: &[u8]) -> Cow<'_, [u8]> {
    if find(bytes, b"://").is_none() {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(p) = find(&bytes[i..], b"://") {
        let start = i + p + 3;
        out.extend_from_slice(&bytes[i..start]);
        // The authority ends at the path, query, fragment, whitespace or a quote; the
        // userinfo ends at its last `@` (passwords may contain an unescaped `@`).
        let mut end = start;
        let mut at = None;
        while end < bytes.len() {
            match bytes[end] {
                b'/' | b'?' | b'#' | b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'<' | b'>'
                | b'`' => break,
                b'@' => at = Some(end),
                _ => {}
            }
            end += 1;
        }
        match at {
            Some(a) if a > start => {
                out.extend_from_slice(b"***");
                out.extend_from_slice(&bytes[a..end]);
            }
            _ => out.extend_from_slice(&bytes[start..end]),
        }
        i = end;
    }
    out.extend_from_slice(&bytes[i..]);
    Cow::Owned(out)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Lines of `git config --list` (`key=value`) or `--get-regexp` (`key value`), possibly
/// after `--show-origin`/`--show-scope` prefixes: a credential key keeps its name and
/// loses its value. The key is found by its credential-carrying part rather than by
/// splitting at the first `=`, since a subsection (`http.https://h/?a=b.extraheader`) may
/// itself contain `=`; a false match only hides more.
fn config_lines(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let nl = line.ends_with(b"\n");
        let body = if nl { &line[..line.len() - 1] } else { line };
        match credential_value_start(body) {
            Some(cut) => {
                out.extend_from_slice(&body[..cut]);
                out.extend_from_slice(b"***");
                if nl {
                    out.push(b'\n');
                }
            }
            None => out.extend_from_slice(line),
        }
    }
    out
}

/// Where the value of a credential key starts in one config line, if the line has one.
fn credential_value_start(line: &[u8]) -> Option<usize> {
    let lower = line.to_ascii_lowercase();
    let is_sep = |i: usize| matches!(lower.get(i), Some(b'=' | b' '));
    // `credential.<anything>`: the first separator after it ends the key.
    if let Some(p) = find(&lower, b"credential.") {
        let after = p + b"credential.".len();
        if let Some(s) = lower[after..].iter().position(|&b| b == b'=' || b == b' ') {
            return Some(after + s + 1);
        }
    }
    for marker in [
        &b".extraheader"[..],
        &b".password"[..],
        &b".smtppass"[..],
        &b".token"[..],
    ] {
        let mut from = 0;
        while let Some(p) = find(&lower[from..], marker) {
            let end = from + p + marker.len();
            if is_sep(end) {
                return Some(end + 1);
            }
            from = end;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(b: &[u8]) -> String {
        String::from_utf8_lossy(b).into_owned()
    }

    #[test]
    fn url_userinfo_is_redacted() {
        assert_eq!(
            s(&urls(
                b"origin\thttps://user:tok3n@example.com/r.git (fetch)\n"
            )),
            "origin\thttps://***@example.com/r.git (fetch)\n"
        );
        assert_eq!(
            s(&urls(b"x https://ghp_abc@github.com y")),
            "x https://***@github.com y"
        );
        assert_eq!(
            s(&urls(b"postgres://u:p@ss@db:5432/x")),
            "postgres://***@db:5432/x"
        );
        // No userinfo, no change; an `@` in the path is not userinfo.
        assert_eq!(
            s(&urls(b"https://example.com/a@b and git@host:x")),
            "https://example.com/a@b and git@host:x"
        );
        assert!(matches!(urls(b"plain text"), Cow::Borrowed(_)));
    }

    #[test]
    fn credential_keys_lose_their_values() {
        let list = b"core.bare=false\nhttp.https://example.com/.extraheader=AUTHORIZATION: basic c2VjcmV0\ncredential.helper=store --file x\nsendemail.smtppass=hunter2\nremote.origin.url=https://u:p@h/r\nuser.password=pw\nfile:.git/config\tlocal\tuser.passwordless=yes\n";
        assert_eq!(
            s(&apply(list.to_vec(), OutputFilter::GitConfigLines)),
            "core.bare=false\nhttp.https://example.com/.extraheader=***\ncredential.helper=***\nsendemail.smtppass=***\nremote.origin.url=https://***@h/r\nuser.password=***\nfile:.git/config\tlocal\tuser.passwordless=yes\n"
        );
        assert_eq!(
            s(&apply(
                b"http.extraheader AUTH x\n".to_vec(),
                OutputFilter::GitConfigLines
            )),
            "http.extraheader ***\n"
        );
        assert_eq!(
            s(&apply(b"a\nb\n".to_vec(), OutputFilter::GitConfigValues)),
            "***\n***\n"
        );
        assert!(is_credential_key("HTTP.https://x/.ExtraHeader"));
        assert!(is_credential_key("credential.helper"));
        assert!(!is_credential_key("core.bare"));
    }
}
