//! The secrets rule of the contract: files whose contents never reach a model endpoint.
//!
//! Tool output is sent to a model provider, so credentials must never be in it. The names
//! below are refused by `read`, masked by `bash` and skipped by the code index; `tree` may
//! still list them, since a name alone gives nothing away. A regular file with more than
//! one hard link is refused too: a hard link can be a door to a file outside the repository
//! that no path check can see.

use std::fs::Metadata;
use std::path::Path;

/// Why the file named `name` is secret, or `None` when its name is not on the list.
pub fn secret_name_reason(name: &str) -> Option<&'static str> {
    const OK_ENV: [&str; 3] = [".env.example", ".env.sample", ".env.template"];
    if name == ".env" || (name.starts_with(".env.") && !OK_ENV.contains(&name)) {
        return Some("environment files hold credentials");
    }
    if [".pem", ".key", ".p12"]
        .iter()
        .any(|ext| name.ends_with(ext))
    {
        return Some("key and certificate files hold private keys");
    }
    if ["id_rsa", "id_ecdsa", "id_ed25519"]
        .iter()
        .any(|p| name.starts_with(p))
        && !name.ends_with(".pub")
    {
        return Some("SSH private keys are secret");
    }
    if matches!(name, ".netrc" | ".pgpass" | ".git-credentials") {
        return Some("credential stores are secret");
    }
    None
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
