#!/usr/bin/env bash
# Fetches the codebases of the sixteenth held-out round (evals/heldout16/*.toml) into
# target/heldout16/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 16 (sealed)"). One package per language: Go, Python, JavaScript, Java. Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout16/cache/ (a second run is offline).
#
#   bash evals/heldout16/fetch.sh && explore eval evals/heldout16
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout16

# npm_tree NAME VERSION SHA256 PREFIX DIR: the files under PREFIX of an npm package tarball
# (`npm pack`, which downloads without installing or running scripts) as $dest/DIR, at
# their paths below PREFIX (rounds 12 and 14's helper, again for an Android tree:
# react-native-camera's android/src, whose general/, main/ and mlkit/ source sets become
# the tree's top folders).
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
# install): tdewolff/parse 2.6.5 (github.com/tdewolff/parse/v2 as Debian ships it: the
# shared Input, Position, Error and Copy helpers of the root package; buffer/ with Reader,
# Writer, Lexer and StreamLexer; strconv/ with the number parsers; and one lexer per
# language, each with its own Lexer, TokenType and String: css/ with a lexer and a Parser
# of grammar states, html/ and xml/ with lexers, json/ with a Parser, js/ with a lexer, a
# full Parser, the AST of ast.go and the scope and variable resolution; ~12,600 lines of
# non-test code; the tests in the tree).
debian golang-github-tdewolff-parse-dev 2.6.5-1 \
  db88425bf49b3a3134dcce0fff09b76be94f84bd69c769d074ed5a92e68c5980 \
  github.com/tdewolff/parse parse-2.6.5
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# beautifulsoup4 4.12.3 (`bs4/`: BeautifulSoup in __init__.py; element.py with PageElement,
# Tag, NavigableString and its subclasses, SoupStrainer, ResultSet; builder/ with
# TreeBuilder, HTMLTreeBuilder and the html.parser, lxml and html5lib builders; dammit.py
# with UnicodeDammit, EncodingDetector and EntitySubstitution; formatter.py, css.py,
# diagnose.py; ~7,000 lines of non-test code; bs4/tests/ and doc/ in the tree).
pypi beautifulsoup4 4.12.3 beautifulsoup4-4.12.3.tar.gz \
  74e3d1928edc070d21748185c46e3fb33490f22f52a3addee9aee0f4f7781051 beautifulsoup4-4.12.3
# --- JavaScript: the npm tarball (`npm pack`, no install, no scripts), keeping `lib/`, the
# package's plain JavaScript sources: stylus 0.63.0 (the CSS preprocessor: the lexer,
# parser, renderer and the Stylus middleware; nodes/ with some forty node classes on Node;
# visitor/ with the Evaluator, Compiler, Normalizer and DepsResolver; functions/ with the
# built-in functions, one a file; the convert/ CSS converter, the cache and stack; ~16,000
# lines in 137 files; bin/ left out).
npm_pack stylus 0.63.0 \
  07c65f1f26f63efe22ad9ecf858aa961468b7604071f8d2fe81620c9235b698e stylus-0.63.0 lib
# --- Java: react-native-camera 4.2.1's Android sources from its npm tarball (plain Java
# under android/src: main/ with com.google.android.cameraview's CameraView, Camera1,
# Camera2 and Camera2Api23, the legacy com.lwansbrough.RCTCamera, and org.reactnative's
# RNCameraView, its view manager, module, events and tasks; general/ and mlkit/, two
# flavours of the same barcode, face and text detectors and their async tasks; ~14,200
# lines in 71 files).
npm_tree react-native-camera 4.2.1 \
  7dba2e81a7661d45902053b1054951662d982a97649fb60e1e3a79b772e89f3d \
  android/src react-native-camera-4.2.1
