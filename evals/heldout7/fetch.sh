#!/usr/bin/env bash
# Fetches the codebases of the seventh held-out round (evals/heldout7/*.toml) into
# target/heldout7/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 7 (sealed)"). One package per language: Go, Python, TypeScript, Rust. Every source
# comes from a package registry, pinned by version and SHA-256, and is never committed.
# Archives are kept in target/heldout7/cache/ (a second run is offline).
#
#   bash evals/heldout7/fetch.sh && explore eval evals/heldout7
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout7

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): jmoiron/sqlx 1.3.5 (extensions to database/sql: DB, Tx, Stmt, NamedStmt, the
# Get/Select/Named* helpers, bind-variable rebinding, reflectx field mapping, types/;
# ~2,900 lines of non-test code in 8 files).
debian golang-github-jmoiron-sqlx-dev 1.3.5-1 \
  6172e08bab1955867f3ad2aece8b01a7056a94d6698c026b6cf8ac6db2661c64 \
  github.com/jmoiron/sqlx sqlx-1.3.5
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# APScheduler 3.10.4 (`apscheduler/`: schedulers, job stores, executors, triggers with the
# cron expressions, job, events, util; ~4,600 lines; with tests/, docs/ and examples/).
pypi APScheduler 3.10.4 APScheduler-3.10.4.tar.gz \
  e6df071b27d9be898e486bc7940a7be50b4af2e9da7c08f0744a96d4bd4cef4a apscheduler-3.10.4
# --- TypeScript: npm tarball (`npm pack`, no install, no scripts), `src/` only (the
# package also ships compiled `build/`, left out): @tanstack/query-core 5.28.0 (QueryClient,
# QueryCache, MutationCache, Query, Mutation, the observers, retryer, focus and online
# managers, hydration; ~5,600 lines of non-test TypeScript, tests in src/tests/).
npm_pack @tanstack/query-core 5.28.0 \
  3131bd2a1281edd679bcb03d340d71ecd7711003d2822a537a5339bcc7962d07 query-core-5.28.0 src
# --- Rust: the .crate tarball from crates.io (what cargo downloads; nothing is built):
# http 1.1.0 (Request, Response and their builders, HeaderMap, HeaderName, HeaderValue,
# Method, StatusCode, Uri with its parts and builder, Version, Extensions, Error; ~14,000
# lines with doc comments; tests/ and CHANGELOG.md in the crate).
crate http 1.1.0 21b9ddb458710bc376481b842f5da65cdf31522de232c1ca8146abce2a358258
