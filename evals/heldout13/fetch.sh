#!/usr/bin/env bash
# Fetches the codebases of the thirteenth held-out round (evals/heldout13/*.toml) into
# target/heldout13/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 13 (sealed)"). One package per language: Go, Python, JavaScript, Rust. Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout13/cache/ (a second run is offline).
#
#   bash evals/heldout13/fetch.sh && explore eval evals/heldout13
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout13

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): pelletier/go-toml 1.9.4 (github.com/pelletier/go-toml, the v1 TOML library:
# the lexer, parser and tokens of the root package, Tree and its Get/Set/Has family,
# Marshal and Unmarshal with Encoder and Decoder, the local date and time types, the
# writer; query/ with its own lexer, parser and tokens and the path functions of
# match.go; cmd/ with tomll, tomljson and jsontoml; ~6,400 lines of non-test code; the
# tests in the tree).
debian golang-github-pelletier-go-toml-dev 1.9.4-1 \
  7aa25a19f2c90b2d504ef958844f557f8c26924d0d983783aa43775d67ea3446 \
  github.com/pelletier/go-toml go-toml-1.9.4
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# lark 1.1.9 (`lark/`: the Lark front end, the grammar loader, Tree, Transformer, Visitor
# and Interpreter, the lexers, the LALR, Earley, dynamic Earley and CYK parsers, the
# parse tree builder, the standalone generator, the reconstructor, the indenter; ~8,900
# lines; tests/, docs/ and examples/ in the tree).
pypi lark 1.1.9 lark-1.1.9.tar.gz \
  15fa5236490824c2c4aba0e22d2d6d823575dcaf4cdd1848e34b6ad836240fba lark-1.1.9
# --- JavaScript: the npm tarball (`npm pack`, no install, no scripts), keeping `src/`, the
# JavaScript sources with their JSDoc types (the bundled dist/ and the tests left out):
# yjs 13.6.18 (Doc, the shared types YArray, YMap, YText and the XML types on
# AbstractType, Item, GC and Skip with the nine Content classes, the update encoders and
# decoders, the delete set, transactions, snapshots, relative positions, UndoManager;
# ~11,000 lines in 42 files).
npm_pack yjs 13.6.18 \
  6d774f020e5da9c4bd30406f52fb57aa2dba652fa61b6b242614ec358dd5702b yjs-13.6.18 src
# --- Rust: the .crate from crates.io (what cargo downloads; nothing is built) ------------
# nom 7.1.3 (the parser-combinator crate: the complete and streaming flavours of bytes/,
# character/ and number/, bits/, branch/, combinator/, multi/, sequence/, the error types
# and traits of error.rs, the input traits of traits.rs, IResult, Err, Needed and the
# Parser trait of internal.rs, str.rs; ~17,000 lines, some 12,000 without the test
# modules).
crate nom 7.1.3 d273983c5a657a70a3e8f2a01329822f3b8c8172b73826411a55751e404a0a4a
