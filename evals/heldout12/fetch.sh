#!/usr/bin/env bash
# Fetches the codebases of the twelfth held-out round (evals/heldout12/*.toml) into
# target/heldout12/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 12 (sealed)"). One package per language: Go, Python, TypeScript, Java. Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout12/cache/ (a second run is offline).
#
#   bash evals/heldout12/fetch.sh && explore eval evals/heldout12
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout12

# npm_tree NAME VERSION SHA256 PREFIX DIR: the files under PREFIX of an npm package tarball
# (`npm pack`, which downloads without installing or running scripts) as $dest/DIR, at
# their paths below PREFIX. Unlike fetch-lib's `npm_pack`, it keeps a folder several
# levels down without its parents (react-native-svg's Android sources under
# android/src/main/java, as a Java tree whose paths start at the package `com/`).
npm_tree() {
  local name=$1 version=$2 sha256=$3 prefix=$4 dir=$5
  local archive="${name#@}-$version.tgz"
  archive=${archive//\//-}
  if [ -d "$dest/$dir" ]; then
    echo "$dest/$dir is already there"
    return
  fi
  if [ ! -f "$cache/$archive" ]; then
    if ! command -v npm >/dev/null; then
      echo "error: npm is needed to download $name@$version" >&2
      exit 1
    fi
    (cd "$cache" && npm pack --silent "$name@$version" >/dev/null)
  fi
  echo "$sha256  $cache/$archive" | sha256sum --check --quiet
  local tmp
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  tar -xzf "$cache/$archive" -C "$tmp"
  mv "$tmp/package/$prefix" "$dest/$dir"
  rm -rf "$tmp"
  echo "fetched $dest/$dir"
}

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): emirpasic/gods 1.12.0 (github.com/emirpasic/gods, "Go Data Structures": the
# Container interface and the iterator interfaces of containers/, the lists arraylist,
# singlylinkedlist and doublylinkedlist, the sets hashset, linkedhashset and treeset, the
# stacks arraystack and linkedliststack, the maps hashmap, linkedhashmap, treemap,
# hashbidimap and treebidimap, the trees redblacktree, avltree, btree and binaryheap, and
# utils/ with the comparators; nearly every type has its own Put or Add, Get, Remove,
# Size, Empty, Clear, Values, Iterator, ToJSON and FromJSON; ~7,000 lines of non-test
# code in 68 files; the tests in the tree, the examples of the Debian package left out).
debian golang-github-emirpasic-gods-dev 1.12.0-2 \
  45f28b222ff783bd090db0f1cab25763e7a0658426532202f60b5ca4971f74c9 \
  github.com/emirpasic/gods gods-1.12.0
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# pyrsistent 0.20.0 (`pyrsistent/`: the persistent vector, map, set, bag, list and deque
# with their evolvers, the checked collections CheckedPVector, CheckedPMap and
# CheckedPSet, PRecord and PClass with field(), the transformations, freeze and thaw,
# immutable(); ~4,400 lines; tests/ and the C vector pvectorcmodule.c in the tree).
pypi pyrsistent 0.20.0 pyrsistent-0.20.0.tar.gz \
  4c48f78f62ab596c679086084d0dd13254ae4f3d6c72a83ffdf5ebdef8f265a4 pyrsistent-0.20.0
# --- TypeScript: the npm tarball (`npm pack`, no install, no scripts), keeping `src/`, the
# TypeScript sources (the compiled dist/ is left out): prosemirror-view 1.33.8
# (EditorView, the ViewDesc tree of viewdesc.ts with its node, text, mark, widget and
# composition descriptions, Decoration and DecorationSet, DOM input handling, the
# DOMObserver and the reading of DOM changes, selection syncing, coordinates, the
# clipboard; ~6,100 lines in 12 files).
npm_pack prosemirror-view 1.33.8 \
  81013d1b1fc0a4f564c92daf7e6d665e3740bfec062a3a9fcec9b4ac2df3db73 prosemirror-view-1.33.8 src
# --- Java: the Android sources of react-native-svg 15.2.0, from its npm tarball (`npm
# pack`), keeping android/src/main/java (com.horcrux.svg: VirtualView, RenderableView and
# GroupView with the shape, text, gradient, pattern, mask, marker and clip-path views
# built on them, SvgView, the view managers of RenderableViewManager, the path parser,
# the text layout of TSpanView and TextLayoutAlgorithm, Brush, SVGLength, PropHelper;
# ~11,800 lines in 40 files; the generated paper/ interfaces, the iOS, Windows and
# JavaScript sources left out).
npm_tree react-native-svg 15.2.0 \
  aeae7575fdb69a82786ab7b2761d487bf376200fc50bee91192be476111e40d6 \
  android/src/main/java react-native-svg-15.2.0
