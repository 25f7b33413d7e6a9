#!/usr/bin/env bash
# Fetches the codebases of the sixteenth held-out round (evals/heldout16/*.toml) into
# target/heldout16/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 16 (sealed)"). One package per language: Go and Python (the JavaScript and Java
# suites planned for this round were not written in the time; see docs/evals.md). Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout16/cache/ (a second run is offline).
#
#   bash evals/heldout16/fetch.sh && explore eval evals/heldout16
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout16

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
