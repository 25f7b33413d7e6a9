#!/usr/bin/env bash
# Fetches the codebases of the sixteenth round of issue-report suites (evals/issues16/*.toml)
# into target/issues16/: for each bug report, the release BEFORE its fix (the tree the
# report is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that
# the expected files can be checked again with `diff -r target/issues16/NAME-BEFORE
# target/issues16/NAME-AFTER` (each case's comment names both) and with
# `python3 evals/check_fixed.py evals/issues16/*.toml` (each before-release's next fetched
# release is its fix release).
#
# Sealed round 16 (docs/evals.md, "Round 16 (sealed)"): TinyDB (Python; PyPI sdists, `pip
# download --no-deps --no-binary :all:`, no install: `tinydb/` with database.py, queries.py,
# storages.py, middlewares.py, operations.py, utils.py; tests/ in the tree). Every archive
# is pinned by version and SHA-256 and never committed; archives are kept in
# target/issues16/cache/ (a second run is offline).
#
#   bash evals/issues16/fetch.sh && explore eval evals/issues16
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues16 "$@"

# pypi_sdist NAME VERSION ARCHIVE SHA256: like fetch-lib.sh's `pypi`, but for the older
# TinyDB releases PyPI serves as .zip sdists (2.2.1, 2.2.2, 3.1.0, 3.2.2) as well as the
# .tar.gz ones; unpacked as $dest/NAME-VERSION with Python's zipfile or tar.
pypi_sdist() {
  local name=$1 version=$2 archive=$3 sha256=$4
  local dir="$name-$version"
  if [ -d "$dest/$dir" ]; then
    echo "$dest/$dir is already there"
    return
  fi
  if [ ! -f "$cache/$archive" ]; then
    local pip
    pip=$(command -v pip3 || command -v pip || true)
    if [ -z "$pip" ]; then
      echo "error: pip is needed to download $name==$version (apt-get install python3-pip)" >&2
      exit 1
    fi
    "$pip" download --quiet --no-deps --no-binary :all: "$name==$version" -d "$cache"
  fi
  echo "$sha256  $cache/$archive" | sha256sum --check --quiet
  local tmp
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  case "$archive" in
    *.zip) python3 -m zipfile -e "$cache/$archive" "$tmp" ;;
    *) tar -xzf "$cache/$archive" -C "$tmp" ;;
  esac
  mv "$tmp"/* "$dest/$dir"
  rm -rf "$tmp"
  echo "fetched $dest/$dir"
}

# The releases the reports are asked against (each case's `repo`); 3.11.0 is also the fix
# release of #223.
pypi_sdist tinydb 2.2.1 tinydb-2.2.1.zip 98d2ec5e3095476d9b01759f3e365454ffccc42ca32c14ff777eb842a305aa75
pypi_sdist tinydb 3.1.0 tinydb-3.1.0.zip 68ca48f863b8cefbebb325b1cadb8e141819e7057a8924e61488c355dfb84b43
pypi_sdist tinydb 3.2.2 tinydb-3.2.2.zip 26af7336a83c74c2eb9de27754f5962885b0a261ed84cb5e141648e1efcf4646
pypi_sdist tinydb 3.10.0 tinydb-3.10.0.tar.gz d19fe16ee388ff8f03b9c10dce5cb0bba9cd2fbd5d100103114a1fb2224a84af
pypi_sdist tinydb 3.11.0 tinydb-3.11.0.tar.gz da275737e4dc5a4b3c17e6e6de795b45cd162589a9e71c65c9249c2e02412f05
pypi_sdist tinydb 3.12.0 tinydb-3.12.0.tar.gz cfed003555af28a1613903082bc943592b9e889bc82aa3d5cd2c15b584d81006

# The releases with the fixes that are not also asked against, for checking the expected
# files again with diff -r: 2.2.2 (#47), 3.1.1 (#87, #89), 3.2.3 (#132), 3.11.1 (#232) and
# 3.12.1 (#248).
if [ "$fixed" = yes ]; then
  pypi_sdist tinydb 2.2.2 tinydb-2.2.2.zip 33ee009d8b6400acb533497570f458a6da390ee841419d06c06b8445da4862ce
  pypi_sdist tinydb 3.1.1 tinydb-3.1.1.tar.gz b704d94b44c5dbc4f4b038f22aa30b4c7398a8d52881767b4e53edeaeab6d3d0
  pypi_sdist tinydb 3.2.3 tinydb-3.2.3.tar.gz a673820c2605e04f569e6eda9947e0479cd97b51272690d4ad98b1d36b731e6c
  pypi_sdist tinydb 3.11.1 tinydb-3.11.1.tar.gz 643807a7793c6ee358d7d7b548ea0828660bff1899b178307bb862e97df645b1
  pypi_sdist tinydb 3.12.1 tinydb-3.12.1.tar.gz e18457e5071fe9ce1e24456c9e91fb4b7f85527fa3802f25cfb7c1893277cdbf
fi
