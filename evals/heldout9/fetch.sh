#!/usr/bin/env bash
# Fetches the codebases of the ninth held-out round (evals/heldout9/*.toml) into
# target/heldout9/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 9 (sealed)"). One package per language: Go, Python, TypeScript, Rust. Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout9/cache/ (a second run is offline).
#
#   bash evals/heldout9/fetch.sh && explore eval evals/heldout9
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout9

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): gorilla/handlers 1.5.1 (github.com/gorilla/handlers: net/http middleware for
# CORS, request logging in Apache formats, gzip/deflate compression, proxy headers, panic
# recovery, method overrides and canonical hosts; ~1,200 lines of non-test code).
debian golang-github-gorilla-handlers-dev 1.5.1-3 \
  b74008ce7b10f9d7b971289ccfff9183229aefc6157e8ef0c52b90fddcdc79c5 \
  github.com/gorilla/handlers handlers-1.5.1
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# cachetools 5.3.3 (`src/cachetools/`: Cache and its LRU, LFU, FIFO, MRU, RR, TTL and TLRU
# subclasses, the cached and cachedmethod decorators, the key functions, and func.py's
# functools-style lru_cache family; ~1,000 lines; with tests/ and docs/).
pypi cachetools 5.3.3 cachetools-5.3.3.tar.gz \
  ba29e2dfa0b8b556606f097407ed1aa62080ee108ab0dc5ec9d6a723a007d105 cachetools-5.3.3
# --- TypeScript: npm tarball (`npm pack`, no install, no scripts), `src/` only (the
# package also ships compiled `dist/`, left out): immer 10.1.1 (produce and the Immer
# class, the draft proxies, finalize, scopes, current/original, the patches and Map/Set
# plugins; ~2,100 lines of TypeScript).
npm_pack immer 10.1.1 \
  946cc79684ad1e080b09d4f2da14247b272aa667f3aaa100f35846148689f08f immer-10.1.1 src
# --- Rust: crates.io `.crate` (what cargo downloads; nothing built): semver 1.0.23
# (Version, VersionReq, Comparator, Op, Prerelease and BuildMetadata, the parser, the
# matching rules, Display/Ord/FromStr impls, the serde impls; ~2,200 lines in src/).
crate semver 1.0.23 \
  61697e0a1c7e512e84a621326239844a24d8207b4669b41bc18b32ea5cbf988b
