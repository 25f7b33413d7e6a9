#!/usr/bin/env bash
# Fetches the codebases of the third held-out round, one package per language the code
# graph gained after round 2 (evals/heldout3/*.toml), into target/heldout3/.
#
# Held out: three packages the project had never used, with questions written and verified
# before the engine was run on them (docs/evals.md, "Round 3"). Every source comes from a
# package registry, pinned by version and SHA-256, and is never committed:
#   - TypeScript sources from npm (`npm pack`, no install, no scripts): mobx 6.13.5's
#     `src/` (the package also ships compiled `dist/`, left out);
#   - a Rust crate from crates.io (the `.crate` tarball cargo downloads): bytes 1.7.1;
#   - Java sources from Debian (`apt-get download`, unpacked with `dpkg -x`, no install):
#     `bsh-src` 2.0b4-20, BeanShell 2.0b4's source tree, which the package ships as one
#     tarball (usr/src/bsh-src/bsh.tar.gz).
# Archives are kept in target/heldout3/cache/ (a second run is offline).
#
#   bash evals/heldout3/fetch-langs.sh && explore eval evals/heldout3
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout3

# debian_src_tar PACKAGE VERSION SHA256 TARBALL DIR: a Debian package (`apt-get download`
# + `dpkg -x`, no install) that ships a project's source as the tarball TARBALL (a path
# inside the package), unpacked as $dest/DIR.
debian_src_tar() {
  local pkg=$1 version=$2 sha256=$3 tarball=$4 dir=$5
  local deb="${pkg}_${version}_all.deb"
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
  local tmp
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  dpkg -x "$cache/$deb" "$tmp/deb"
  mkdir -p "$tmp/out"
  tar -xzf "$tmp/deb/$tarball" -C "$tmp/out"
  mv "$tmp/out" "$dest/$dir"
  rm -rf "$tmp"
  echo "fetched $dest/$dir"
}

npm_pack mobx 6.13.5 \
  b85a7f765065c081724a7c49e91f59950151607b2f1c5a77c8ec4231f7129a1b mobx-6.13.5 src
crate bytes 1.7.1 8318a53db07bb3f8dca91a600466bdb3f2eaadeedfdbcf02e1accbad9271ba50
debian_src_tar bsh-src 2.0b4-20 \
  8bc67e9514560ef9e15beff101ed1ffb54a448588c2403987f407cd11547c00d \
  usr/src/bsh-src/bsh.tar.gz bsh-2.0b4
