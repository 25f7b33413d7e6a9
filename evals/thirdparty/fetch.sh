#!/usr/bin/env bash
# Fetches the third-party codebase of evals/thirdparty/*.toml into target/thirdparty/.
#
# The source is the sdist of click 8.1.7 from PyPI (a pure-Python package of about 10,000
# lines), downloaded with pip and checked against a pinned SHA-256, never committed. A
# second run is offline: it reuses target/thirdparty/cache/ and the extracted tree.
#
#   bash evals/thirdparty/fetch.sh && explore eval evals/thirdparty
set -euo pipefail
cd "$(dirname "$0")/../.."

pkg=click
version=8.1.7
sha256=ca9853ad459e787e2192211578cc907e7594e294c7ccc834310722b41b9ca6de
dest=target/thirdparty
cache=$dest/cache
tarball=$cache/$pkg-$version.tar.gz

if [ -f "$dest/$pkg-$version/src/click/core.py" ]; then
  echo "$dest/$pkg-$version is already there"
  exit 0
fi
mkdir -p "$cache"
if [ ! -f "$tarball" ]; then
  pip=$(command -v pip3 || command -v pip || true)
  if [ -z "$pip" ]; then
    echo "error: pip is needed to download $pkg==$version (apt-get install python3-pip)" >&2
    exit 1
  fi
  "$pip" download --quiet --no-deps --no-binary :all: "$pkg==$version" -d "$cache"
fi
echo "$sha256  $tarball" | sha256sum --check --quiet
tar -xzf "$tarball" -C "$dest"
echo "fetched $dest/$pkg-$version"
