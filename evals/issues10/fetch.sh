#!/usr/bin/env bash
# Fetches the codebases of the tenth round of issue-report suites (evals/issues10/*.toml)
# into target/issues10/: for each bug report, the release BEFORE its fix (the tree the
# report is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that
# the expected files can be checked again with `diff -r target/issues10/NAME-BEFORE
# target/issues10/NAME-AFTER` (each case's comment names both).
#
# Sealed round 10 (docs/evals.md, "Round 10 (sealed)"): pyparsing (Python; PyPI sdists,
# `pip download --no-deps --no-binary :all:`), js-yaml (JavaScript; the npm tarball's
# `lib/`, `npm pack`, no install, no scripts) and regex (Rust; crates.io `.crate` files,
# nothing built). Every archive is pinned by version and SHA-256 and never
# committed; archives are kept in target/issues10/cache/ (a second run is offline).
#
#   bash evals/issues10/fetch.sh && explore eval evals/issues10
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues10 "$@"

# npm_list: one npm tarball per line of stdin, `NAME VERSION SHA256`, unpacked with
# `npm_pack` as NAME-VERSION keeping only `lib/` (js-yaml also ships browserified `dist/`
# bundles, its CLI in `bin/`, README.md and CHANGELOG.md, left out); blank lines and `#`
# comments are skipped.
npm_list() {
  local name version sha256
  while read -r name version sha256; do
    case "$name" in '' | '#'*) continue ;; esac
    npm_pack "$name" "$version" "$sha256" "$name-$version" lib
  done
}

# crate_list: one crate per line of stdin, `NAME VERSION SHA256`, unpacked with `crate` as
# NAME-VERSION; blank lines and `#` comments are skipped.
crate_list() {
  local name version sha256
  while read -r name version sha256; do
    case "$name" in '' | '#'*) continue ;; esac
    crate "$name" "$version" "$sha256"
  done
}

# The releases the reports are asked against (each case's `repo`).
pypi_list <<'LIST'
pyparsing 3.0.1 84196357aa3566d64ad123d7a3c67b0e597a115c4934b097580e5ce220b91531
pyparsing 3.0.6 d9bdec0013ef1eb5a84ab39a3b3868911598afa494f5faa038647101504e2b81
LIST
npm_list <<'LIST'
js-yaml 3.4.3 52b39f498c7a62c3e5e4e9f1c0a596d62b106d3eac3d39f3ded54e14362dbdc1
js-yaml 3.9.1 0fc45d3a438cb435222d0b968430243da5f812b824d7a216663ea7dfea9e8fd2
js-yaml 3.13.1 662e32319bdd378e91f67578e56a34954b0a2e33aca11d70ab9f4826af24b941
LIST
crate_list <<'LIST'
regex 1.1.7 0b2f0808e7d7e4fb1cb07feb6ff2f4bc827938f24f8c2e6a3beb7370af544bdd
LIST

# The releases with the fixes, for checking the expected files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
pyparsing 3.0.2 9366e57ad2d2faa8dd89775ef284ecae0fc4012c24717f3705613b262d712090
pyparsing 3.0.7 18ee9022775d270c55187733956460083db60b37d0d0fb357445f3094eed3eea
LIST
  npm_list <<'LIST'
js-yaml 3.4.4 d2d500966fbd1caa27157981f4120b7e2967055f609f2d181f0b79fadfa9ab2f
js-yaml 3.10.0 291c8ae9f474f106414f00a231d4bcd8b8b4f7582d72ab25fdc8792aa3d1e683
js-yaml 3.14.0 3c82c5db6d3a31632e442863ebb006640700d773f73ece89b3686ff42b88c8ef
LIST
  crate_list <<'LIST'
regex 1.1.8 1325e8a57b7da4cbcb38b3957112f729990bad0a18420e7e250ef6b1d9a15763
LIST
fi
