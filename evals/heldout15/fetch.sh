#!/usr/bin/env bash
# Fetches the codebases of the fifteenth held-out round (evals/heldout15/*.toml) into
# target/heldout15/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 15 (sealed)"). One package per language: Go, Python, Rust, TypeScript. Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout15/cache/ (a second run is offline).
#
#   bash evals/heldout15/fetch.sh && explore eval evals/heldout15
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout15

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): itchyny/gojq 0.12.11 (github.com/itchyny/gojq, a jq implementation in Go: the
# lexer and the goyacc parser, the query AST of query.go, the compiler to bytecode and the
# executing iterator of execute.go, the builtin functions of func.go, the operators, the
# encoder, the module loader, options, errors; cli/ with the command, its flags, inputs,
# encoders and error printing; cmd/gojq; ~12,000 lines of non-test code; the tests in the
# tree).
debian golang-github-itchyny-gojq-dev 0.12.11-1 \
  308ac5189001783fd10aff03a0ce37539aad26510878aef45c357fb8ec1c75dc \
  github.com/itchyny/gojq gojq-0.12.11
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# glom 23.5.0 (`glom/`: core.py with glom(), Path, T and the target-type registry, Spec,
# Coalesce, Check-like helpers and the GlomError family; matching.py with Match, Or, And,
# Not, Regex, Switch and Required; mutation.py with Assign and Delete; streaming.py with
# Iter; grouping.py with Group and its reducers; reduction.py with Sum, Fold, Flatten and
# Merge; tutorial.py; cli.py; ~5,900 lines in 11 modules; glom/test/ and docs/ in the tree).
pypi glom 23.5.0 glom-23.5.0.tar.gz \
  06af5e3486aacc59382ba34e53ebeabd7a9345d78f7dbcbee26f03baa4b83bac glom-23.5.0
# --- Rust: the .crate from crates.io (nothing built): pulldown-cmark 0.9.6 (`src/`: the
# first pass of firstpass.rs building the block tree, the inline pass of parse.rs with
# Parser, Event and Tag, the scanners, the HTML writer of html.rs, escape.rs, CowStr and
# InlineStr of strings.rs, the arena Tree, link labels, the generated entity and
# punctuation tables; ~9,800 lines in 12 files; tests/, examples/ and benches/ in the
# tree).
crate pulldown-cmark 0.9.6 57206b407293d2bcd3af849ce869d52068623f19e1b5ff8e8778e3309439682b
# --- TypeScript: the npm tarball (`npm pack`, no install, no scripts), keeping `src/`, the
# TypeScript sources (the compiled dist/ is left out): @reduxjs/toolkit 1.9.7
# (configureStore, createSlice, createReducer, createAction, createAsyncThunk, the entity
# adapters, the listener middleware, the invariant middlewares, the matchers, and query/
# with RTK Query's createApi, fetchBaseQuery, retry and the core and React modules; ~14,600
# lines of non-test code in 80 files; src/tests/ and src/query/tests/ in the tree).
npm_pack @reduxjs/toolkit 1.9.7 \
  05ed3ca201af1e5d746ed81579690696ab52390d2d590454a7dca293a3339c4d reduxjs-toolkit-1.9.7 src
