#!/usr/bin/env bash
# Fetches the codebases of the eleventh held-out round (evals/heldout11/*.toml) into
# target/heldout11/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 11 (sealed)"). One package per language: Go, Python, TypeScript, Rust. Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout11/cache/ (a second run is offline).
#
#   bash evals/heldout11/fetch.sh && explore eval evals/heldout11
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout11

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): gobwas/glob at 0.2.3+git20180208 (github.com/gobwas/glob: Compile and the Glob
# interface, the lexer and parser under syntax/, the compiler that turns the tree into
# matchers, and match/ with the Matcher interface and some twenty matcher types, each
# with its own Match, Index, Len and String; ~2,800 lines of non-test code; the tests
# in the tree).
debian golang-github-gobwas-glob-dev 0.2.3+git20180208.19c076c-2 \
  a3d0ba6c1ff0760f85ecd740483926bc2bb2738735ad93f79dfc69c4f69f9d7f \
  github.com/gobwas/glob glob-0.2.3
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# voluptuous 0.15.2 (`voluptuous/`: Schema and its compilers in schema_builder.py, the
# markers Required, Optional, Exclusive, Inclusive and Remove, the validators of
# validators.py (All, Any, Range, Clamp, Length, Match, In, Coerce, ...), the Invalid
# exception family of error.py, humanize.py and util.py; ~3,000 lines; the tests are in
# voluptuous/tests/).
pypi voluptuous 0.15.2 voluptuous-0.15.2.tar.gz \
  6ffcab32c4d3230b4d2af3a577c87e1908a714a11f6f95570456b1849b0279aa voluptuous-0.15.2
# --- TypeScript: the npm tarball (`npm pack`, no install, no scripts), keeping `lib/`, the
# TypeScript sources (the compiled dist/ is left out): ajv 8.17.1 (the Ajv class of
# core.ts and its ajv.ts, 2019.ts, 2020.ts and jtd.ts subclasses, schema compilation and
# the KeywordCxt of compile/validate/, the code generator of compile/codegen/, the keyword
# vocabularies of vocabularies/, the JTD parser and serializer compilers, standalone
# code; ~9,800 lines).
npm_pack ajv 8.17.1 \
  f09dae78b8cc984dbf178eba92a7b19bff9e5f7c990508f3af0bf8f118770308 ajv-8.17.1 lib
# --- Rust: crates.io `.crate` (what cargo downloads; nothing built): url 2.5.2 (Url and
# its getters and setters in lib.rs, the WHATWG URL parser of parser.rs, Host and its
# IPv4/IPv6 parsing in host.rs, Origin, PathSegmentsMut, the slicing Position type, and
# the `quirks` module of JavaScript-style accessors; ~6,100 lines in src/; tests/ in the
# tree).
crate url 2.5.2 \
  22784dbdf76fdde8af1aeda5622b546b422b6fc585325248a2bf9f5e41e94d6c
