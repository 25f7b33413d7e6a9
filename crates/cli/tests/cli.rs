//! The `explore` binary as users, scripts and CI run it: formats, exit codes, stdin,
//! configuration, the cache and completions. One test binary (link once), modules in
//! `suite/`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;
