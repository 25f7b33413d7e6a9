#!/usr/bin/env bash
# Fetches the codebases of the eighth held-out round (evals/heldout8/*.toml) into
# target/heldout8/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 8 (sealed)"). One package per language: Go, Python, JavaScript, Java. Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout8/cache/ (a second run is offline).
#
#   bash evals/heldout8/fetch.sh && explore eval evals/heldout8
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout8

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): go-ini/ini 1.66.2 (gopkg.in/ini.v1: INI files with File, Section and Key, the
# parser, typed key getters and validators, struct mapping; ~3,200 lines of non-test code
# in 10 files).
debian golang-gopkg-ini.v1-dev 1.66.2-1 \
  f0a88cba74918c7706023cef693138ae53782e0dc1b1106490da3aa7692b53c5 \
  gopkg.in/ini.v1 ini-1.66.2
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# mistune 3.0.2 (`src/mistune/`: a Markdown parser with block and inline parsers, list
# parser, HTML, Markdown and reStructuredText renderers, plugins and directives; ~4,400
# lines; with tests/ and docs/).
pypi mistune 3.0.2 mistune-3.0.2.tar.gz \
  fc7f93ded930c92394ef2cb6f04a8aabab4117a91449e72dcc8dfa646a508be8 mistune-3.0.2
# --- JavaScript: npm tarball (`npm pack`, no install, no scripts), `src/` only (the
# package also ships compiled `build/`, left out): luxon 3.4.4 (DateTime, Duration,
# Interval, Info, the zones, and impl/ with the formatter, token and regex parsers, locale;
# ~7,900 lines of ES-module JavaScript).
npm_pack luxon 3.4.4 \
  a726c0cc3eb6ac6b93090369a9f31622a34d6c8433c712c9bfbbd588f18a42f7 luxon-3.4.4 src
# --- Java: the javafx.fxml module of OpenJFX 11 from Debian's openjfx-source (its
# src.zip; `apt-get download` + `dpkg -x`, no install): FXMLLoader with its element
# classes, the expression language, BeanAdapter, the builders and JavaFXBuilderFactory;
# ~9,200 lines in 36 files.
debian_src_zip openjfx-source 11.0.11+1-3 \
  a8de0bec39f5fd7825d513893cd13876c1e8e4733b998fa9d0de0671afcc66b4 \
  usr/share/openjfx/lib/src.zip javafx.fxml/ javafx.fxml javafx-fxml-11.0.11
