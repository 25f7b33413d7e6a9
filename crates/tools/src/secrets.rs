//! The secrets rule of the contract: files whose contents never reach a model endpoint.
//!
//! Tool output is sent to a model provider, so credentials must never be in it. The names
//! below are refused by `read`, masked by `bash` and skipped by the code index; `tree` may
//! still list them, since a name alone gives nothing away. A regular file with more than
//! one hard link is refused too: a hard link can be a door to a file outside the repository
//! that no path check can see.

use std::fs::Metadata;
use std::path::Path;

/// How a secret name is recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameMatch {
    /// The whole name (`.netrc`).
    Exact(&'static str),
    /// Names that start with this (`id_rsa`, `.env.`).
    Prefix(&'static str),
    /// Names that end with this (`.pem`).
    Suffix(&'static str),
}

/// One entry of the contract's secrets list (CONTRACT.md section 2). The file rule
/// ([`secret_name_reason`]) and the search masks of `bash` ([`SecretRule::glob`], used for
/// grep's `--exclude`, rg's `--glob=!`, ag's `--ignore` and git's exclude pathspecs) are
/// both derived from [`SECRETS`], so the two cannot drift apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecretRule {
    /// The names it covers.
    pub pattern: NameMatch,
    /// Exact names the pattern covers that are not secret (`.env.example`).
    pub except_names: &'static [&'static str],
    /// A suffix that makes a covered name not secret (`.pub` for public keys).
    pub except_suffix: Option<&'static str>,
    /// Why such files are secret, for the model.
    pub why: &'static str,
}

const ENV_WHY: &str = "environment files hold credentials";
const KEY_WHY: &str = "key and certificate files hold private keys";
const SSH_WHY: &str = "SSH private keys are secret";
const STORE_WHY: &str = "credential stores are secret";

const fn rule(pattern: NameMatch, why: &'static str) -> SecretRule {
    SecretRule {
        pattern,
        except_names: &[],
        except_suffix: None,
        why,
    }
}

const fn ssh(prefix: &'static str) -> SecretRule {
    SecretRule {
        pattern: NameMatch::Prefix(prefix),
        except_names: &[],
        except_suffix: Some(".pub"),
        why: SSH_WHY,
    }
}

/// The secrets list, one entry per item of the contract.
pub const SECRETS: [SecretRule; 11] = [
    rule(NameMatch::Exact(".env"), ENV_WHY),
    SecretRule {
        pattern: NameMatch::Prefix(".env."),
        except_names: &[".env.example", ".env.sample", ".env.template"],
        except_suffix: None,
        why: ENV_WHY,
    },
    rule(NameMatch::Suffix(".pem"), KEY_WHY),
    rule(NameMatch::Suffix(".key"), KEY_WHY),
    rule(NameMatch::Suffix(".p12"), KEY_WHY),
    ssh("id_rsa"),
    ssh("id_ecdsa"),
    ssh("id_ed25519"),
    rule(NameMatch::Exact(".netrc"), STORE_WHY),
    rule(NameMatch::Exact(".pgpass"), STORE_WHY),
    rule(NameMatch::Exact(".git-credentials"), STORE_WHY),
];

impl SecretRule {
    /// Whether the file named `name` is secret by this rule.
    pub fn matches(&self, name: &str) -> bool {
        let covered = match self.pattern {
            NameMatch::Exact(n) => name == n,
            NameMatch::Prefix(p) => name.starts_with(p),
            NameMatch::Suffix(s) => name.ends_with(s),
        };
        covered
            && !self.except_names.contains(&name)
            && !self.except_suffix.is_some_and(|s| name.ends_with(s))
    }

    /// The glob (on a file's base name) that masks every name this rule covers. A glob
    /// cannot express the exceptions, so it masks them too: searches skip `.env.example`
    /// and `id_rsa.pub`, which `read` and `cat` still show.
    pub fn glob(&self) -> String {
        match self.pattern {
            NameMatch::Exact(n) => n.to_string(),
            NameMatch::Prefix(p) => format!("{p}*"),
            NameMatch::Suffix(s) => format!("*{s}"),
        }
    }
}

/// The base-name globs of every rule, in table order.
pub fn secret_globs() -> impl Iterator<Item = String> {
    SECRETS.iter().map(SecretRule::glob)
}

/// Why the file named `name` is secret, or `None` when its name is not on the list.
pub fn secret_name_reason(name: &str) -> Option<&'static str> {
    SECRETS.iter().find(|r| r.matches(name)).map(|r| r.why)
}

/// Whether the last component of `path` names a secret file.
pub fn is_secret_path(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| secret_name_reason(n).is_some())
}

/// Whether a file's metadata makes it off-limits: a regular file with more than one link.
pub fn is_multiply_linked(meta: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.is_file() && meta.nlink() > 1
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// Whether the repo-relative, resolved path `rel` is inside a git directory: a component
/// named `.git` (the repository's own, or a nested repository's).
pub fn in_git_dir(rel: &str) -> bool {
    rel.split('/').any(|c| c == ".git")
}

/// Whether the repo-relative, resolved path `rel` is one of git's configuration files:
/// `config` or `config.worktree` inside a git directory (`.git/config`, a submodule's
/// `.git/modules/NAME/config`, a worktree's settings, a nested repository's). They can
/// hold credentials (a token in a remote URL, the `http.extraheader` that CI checkouts
/// write into the repository's config and each submodule's), so only `git config`, which
/// redacts them, shows them.
pub fn is_git_config(rel: &str) -> bool {
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    matches!(name, "config" | "config.worktree") && in_git_dir(dir)
}

/// Every git configuration file ([`is_git_config`]) of the git directory `dotgit`: its
/// `config` and `config.worktree`, and those of its submodules (`modules/…`, nested ones
/// included) and worktrees (`worktrees/…`). Object, ref, log and hook stores are not
/// walked; at most [`MAX_GIT_DIR_WALK`] entries are looked at.
pub fn git_config_files(dotgit: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dotgit.to_path_buf()];
    let mut seen = 0usize;
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in rd.filter_map(Result::ok) {
            seen += 1;
            if seen > MAX_GIT_DIR_WALK {
                return out;
            }
            let Ok(t) = entry.file_type() else { continue };
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if t.is_dir() {
                if !matches!(
                    name.as_ref(),
                    "objects" | "refs" | "logs" | "hooks" | "info" | "lfs" | "rr-cache"
                ) {
                    stack.push(entry.path());
                }
            } else if t.is_file() && matches!(name.as_ref(), "config" | "config.worktree") {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

/// Most entries of a git directory [`git_config_files`] looks at.
pub const MAX_GIT_DIR_WALK: usize = 20_000;

/// Why a git configuration file's contents are not shown, for the model: `shown` is the
/// path as the model gave it (escaped), `rel` the resolved repo-relative path.
pub fn git_config_refusal(shown: &str, rel: &str) -> String {
    let how = if rel == ".git/config" {
        "`git config --list`".to_string()
    } else {
        format!("`git config --file {rel} --list`")
    };
    format!(
        "`{shown}` is a git configuration file, which can hold credentials (tokens in remote URLs, extra headers); read it with {how}, which redacts them"
    )
}

/// The model-facing reason a file's contents may not be shown, checking both the name the
/// model used and the name the path resolved to (a link named `notes.txt` may point at
/// `.env`), and the link count. `None` when the file may be shown.
pub fn refusal(requested: &Path, resolved: &Path, meta: &Metadata) -> Option<String> {
    for p in [requested, resolved] {
        if let Some(name) = p.file_name().and_then(|n| n.to_str())
            && let Some(why) = secret_name_reason(name)
        {
            return Some(format!(
                "Refused: `{name}` is on the secrets list ({why}) and is never shown to the model. Its name may be cited; for configuration, look for a `.env.example` or the code that reads the setting."
            ));
        }
    }
    if is_multiply_linked(meta) {
        return Some(
            "Refused: this file has more than one hard link, so it may be a door to a file outside the repository; its contents are not shown."
                .to_string(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_on_the_list() {
        for n in [
            ".env",
            ".env.local",
            ".env.production",
            "server.pem",
            "tls.key",
            "cert.p12",
            "id_rsa",
            "id_ed25519",
            "id_ecdsa_work",
            ".netrc",
            ".pgpass",
            ".git-credentials",
        ] {
            assert!(secret_name_reason(n).is_some(), "{n} should be secret");
        }
    }

    #[test]
    fn names_not_on_the_list() {
        for n in [
            ".env.example",
            ".env.sample",
            ".env.template",
            "id_rsa.pub",
            "env.go",
            "keys.go",
            "monkey.py",
            "README.md",
        ] {
            assert!(secret_name_reason(n).is_none(), "{n} should be allowed");
        }
    }

    /// Every item of CONTRACT.md's list, with names it covers and names it does not: the
    /// file rule and the search globs derived from the same table agree on all of them
    /// (the globs may only mask more, never less).
    #[test]
    fn the_file_rule_and_the_search_globs_agree_on_the_contract_list() {
        let contract: [(&str, &[&str], &[&str]); 11] = [
            (".env", &[".env"], &["env", "a.env.go"]),
            (
                ".env.*",
                &[".env.local", ".env.production"],
                &[".env.example", ".env.sample", ".env.template"],
            ),
            ("*.pem", &["server.pem", ".pem"], &["pem.go"]),
            ("*.key", &["tls.key"], &["keys.go", "key"]),
            ("*.p12", &["cert.p12"], &["p12.txt"]),
            ("id_rsa*", &["id_rsa", "id_rsa_work"], &["id_rsa.pub"]),
            (
                "id_ecdsa*",
                &["id_ecdsa", "id_ecdsa_work"],
                &["id_ecdsa.pub"],
            ),
            ("id_ed25519*", &["id_ed25519"], &["id_ed25519.pub"]),
            (".netrc", &[".netrc"], &["netrc"]),
            (".pgpass", &[".pgpass"], &["pgpass.go"]),
            (
                ".git-credentials",
                &[".git-credentials"],
                &["git-credentials.md"],
            ),
        ];
        let globs: Vec<globset::GlobMatcher> = secret_globs()
            .map(|g| globset::Glob::new(&g).unwrap().compile_matcher())
            .collect();
        let masked_by_glob = |n: &str| globs.iter().any(|g| g.is_match(n));
        assert_eq!(
            secret_globs().collect::<Vec<_>>(),
            contract
                .iter()
                .map(|(g, _, _)| g.to_string())
                .collect::<Vec<_>>(),
            "one glob per contract entry, in the contract's order"
        );
        for (entry, secret, fine) in contract {
            for n in secret {
                assert!(
                    secret_name_reason(n).is_some(),
                    "{entry}: {n} should be secret"
                );
                assert!(
                    masked_by_glob(n),
                    "{entry}: {n} should be masked in searches"
                );
            }
            for n in fine {
                assert!(
                    secret_name_reason(n).is_none(),
                    "{entry}: {n} should be shown"
                );
            }
        }
        // The exceptions are masked by the globs (a glob cannot except them) but shown by
        // the file rule; nothing else differs.
        assert!(masked_by_glob(".env.example") && masked_by_glob("id_rsa.pub"));
    }

    #[test]
    fn hard_links_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.txt");
        std::fs::write(&a, "x").unwrap();
        assert!(!is_multiply_linked(&std::fs::metadata(&a).unwrap()));
        std::fs::hard_link(&a, d.path().join("b.txt")).unwrap();
        let meta = std::fs::metadata(&a).unwrap();
        assert!(refusal(&a, &a, &meta).unwrap().contains("hard link"));
    }
}
