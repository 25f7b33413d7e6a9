#!/usr/bin/env bash
# Fetches the codebases of the fourteenth held-out round (evals/heldout14/*.toml) into
# target/heldout14/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 14 (sealed)"). One package per language: Go, Python, TypeScript, Java. Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout14/cache/ (a second run is offline).
#
#   bash evals/heldout14/fetch.sh && explore eval evals/heldout14
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout14

# npm_tree NAME VERSION SHA256 PREFIX DIR: the files under PREFIX of an npm package tarball
# (`npm pack`, which downloads without installing or running scripts) as $dest/DIR, at
# their paths below PREFIX (round 12's helper, again for an Android tree: react-native-maps'
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
# install): antonmedv/expr 1.8.9 (github.com/antonmedv/expr, an expression language: ast/
# with the node types, Walk and the Visitor interface; parser/ with the lexer of
# parser/lexer; checker/ with the type checker and its visitor; compiler/ with the
# bytecode compiler; optimizer/ with the constant folding, `in` array and range passes;
# vm/ with the virtual machine, opcodes, Program and the runtime helpers; conf/, file/,
# docgen/; ~8,700 lines of non-test code; the tests in the tree).
debian golang-github-antonmedv-expr-dev 1.8.9-2 \
  4a9a05fc47aa8066853aac175f47633edba4cf20025ffd00efaf7d96c67b9eed \
  github.com/antonmedv/expr expr-1.8.9
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# PyYAML 6.0.1 (`lib/yaml/`: the reader, scanner, parser, composer and constructor of the
# loading side; the emitter, serializer and representer of the dumping side; the resolver,
# the tokens, events and nodes, the Loader and Dumper classes and the C-backed ones of
# cyaml.py; ~5,900 lines; the Cython extension yaml/_yaml.pyx and tests/ in the tree).
pypi PyYAML 6.0.1 PyYAML-6.0.1.tar.gz \
  bfdf460b1736c775f2ba9f6a92bca30bc2095067b8a9d77876d1fad6cc3b4a43 PyYAML-6.0.1
# --- TypeScript: the npm tarball (`npm pack`, no install, no scripts), keeping `src/`, the
# TypeScript sources (the compiled dist/ is left out): @tiptap/core 2.4.0 (the Editor,
# Extension, Node and Mark with their create, configure and extend, ExtensionManager,
# CommandManager, InputRule and PasteRule, NodeView, NodePos, the ~60 commands of
# commands/, the helpers, the input and paste rule builders, the core extensions; ~10,000
# lines in 161 files).
npm_pack @tiptap/core 2.4.0 \
  56b34453158c871033e341685fa91ba13881da109d3ed552811563d4ec4b4c59 tiptap-core-2.4.0 src
# --- Java: the Android sources of react-native-maps 1.14.0, from its npm tarball (`npm
# pack`), keeping android/src/main/java (com.rnmaps.maps: MapView and MapManager, the
# MapFeature views MapMarker, MapPolyline, MapGradientPolyline, MapPolygon, MapCircle,
# MapHeatmap, MapOverlay, the tile views MapUrlTile, MapWMSTile and MapLocalTile with
# MapTileProvider and MapTileWorker, their view managers, MapModule, the image helpers;
# ~6,800 lines in 39 files).
npm_tree react-native-maps 1.14.0 \
  907c9131a14181795cb5dd17dfc1d98ee346a9e235bfe0cc8b22debf8b67e9c7 \
  android/src/main/java react-native-maps-1.14.0
