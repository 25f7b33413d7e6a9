#!/usr/bin/env bash
# Fetches the codebases of the tenth held-out round (evals/heldout10/*.toml) into
# target/heldout10/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 10 (sealed)"). One package per language: Go, Python, Java, Rust. Every source
# comes from a package registry, pinned by version and SHA-256, and is never committed.
# Archives are kept in target/heldout10/cache/ (a second run is offline).
#
#   bash evals/heldout10/fetch.sh && explore eval evals/heldout10
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout10

# debian_tree PACKAGE VERSION SHA256 PREFIX DIR SUBDIR...: the folders SUBDIR... under
# PREFIX of a Debian package (`apt-get download` + `dpkg -x`, no install) as $dest/DIR,
# each at its path below PREFIX; symbolic links removed. Unlike fetch-lib's `debian`, it
# takes a version with an epoch (apt names the file NAME_EPOCH%3aVERSION_all.deb) and a
# package that is not a golang-*-dev tree (Debian's bazel-bootstrap-source).
debian_tree() {
  local pkg=$1 version=$2 sha256=$3 prefix=$4 dir=$5
  shift 5
  local deb="${pkg}_${version/:/%3a}_all.deb"
  if [ -d "$dest/$dir" ]; then
    echo "$dest/$dir is already there"
    return
  fi
  if [ ! -f "$cache/$deb" ]; then
    if ! command -v apt-get >/dev/null; then
      echo "error: apt-get (Debian or Ubuntu) is needed to download $pkg=$version" >&2
      exit 1
    fi
    (cd "$cache" && { apt-get download -qq "$pkg=$version" 2>/dev/null ||
      { apt-get update -qq && apt-get download -qq "$pkg=$version"; }; })
  fi
  echo "$sha256  $cache/$deb" | sha256sum --check --quiet
  local tmp sub
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  dpkg -x "$cache/$deb" "$tmp/deb"
  mkdir -p "$tmp/keep"
  for sub in "$@"; do
    mkdir -p "$tmp/keep/$(dirname "$sub")"
    mv "$tmp/deb/$prefix/$sub" "$tmp/keep/$sub"
  done
  find "$tmp/keep" -type l -delete
  mv "$tmp/keep" "$dest/$dir"
  rm -rf "$tmp"
  echo "fetched $dest/$dir"
}

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): redigo 1.8.3 (github.com/gomodule/redigo: the Redis client package `redis`,
# with Conn and its implementations, the connection Pool, PubSubConn, Script, the reply
# helpers and Scan/ScanStruct/Args, and `redisx` with the connection multiplexer; ~3,700
# lines of non-test code; go.mod and the tests in the tree).
debian_tree golang-github-gomodule-redigo-dev 1:1.8.3-1 \
  0ad2749eebc85e3f4bfb45c00de13fa691b394bed680ebb0e209e698b1991037 \
  usr/share/gocode/src/github.com/gomodule/redigo redigo-1.8.3 \
  redis redisx go.mod
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# tenacity 9.0.0 (`tenacity/`: Retrying, AsyncRetrying and TornadoRetrying with their
# BaseRetrying, RetryCallState, the stop_*, wait_* and retry_* strategies and their
# combinators, the before/after/before_sleep loggers, RetryError; ~2,100 lines; with
# tests/, doc/ and releasenotes/).
pypi tenacity 9.0.0 tenacity-9.0.0.tar.gz \
  807f37ca97d62aa361264d497b0e31e92b8027044942bfa756160d908320d73b tenacity-9.0.0
# --- Java: the Starlark syntax package (net.starlark.java.syntax: the lexer, the parser,
# the syntax tree with Node, Expression and Statement and their subclasses, NodeVisitor,
# NodePrinter, the Resolver, locations and errors; ~7,200 lines in 41 files, with the
# one-file net.starlark.java.spelling it imports) of Bazel 4.2.3, from Debian's
# bazel-bootstrap-source (`apt-get download` + `dpkg -x`, no install).
debian_tree bazel-bootstrap-source 4.2.3+ds-9 \
  5267689b1cb59438997f063b05420748131774ae51a514f12ca7f18722248b00 \
  usr/src/bazel-bootstrap/src/main/java starlark-syntax-4.2.3 \
  net/starlark/java/syntax net/starlark/java/spelling
# --- Rust: crates.io `.crate` (what cargo downloads; nothing built): csv 1.3.0 (Reader
# and ReaderBuilder, Writer and WriterBuilder, StringRecord and ByteRecord, the serde
# deserializer and serializer, Error and ErrorKind, the tutorial and cookbook modules;
# ~12,200 lines in src/, much of it documentation and inline tests; examples/, tests/ and benches/ in the
# tree).
crate csv 1.3.0 \
  ac574ff4d437a7b5ad237ef331c17ccca63c46479e5b5453eb8e10bb99a759fe
