#!/usr/bin/env bash
# Fetches the codebases of the eighth round of issue-report suites (evals/issues8/*.toml)
# into target/issues8/: for each bug report, the release BEFORE its fix (the tree the report
# is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that the
# expected files can be checked again with `diff -r target/issues8/NAME-BEFORE
# target/issues8/NAME-AFTER` (each case's comment names both).
#
# Sealed round 8 (docs/evals.md, "Round 8 (sealed)"): pathspec (Python; PyPI sdists,
# `pip download --no-deps --no-binary :all:`), handlebars (JavaScript; the npm tarball's
# `lib/`, `npm pack`, no install, no scripts) and ron (Rust; crates.io `.crate` files,
# nothing built). Every archive is pinned by version and SHA-256 and never committed;
# archives are kept in target/issues8/cache/ (a second run is offline).
#
#   bash evals/issues8/fetch.sh && explore eval evals/issues8
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues8 "$@"

# npm_list: one npm tarball per line of stdin, `NAME VERSION SHA256`, unpacked with
# `npm_pack` as NAME-VERSION keeping only `lib/` (handlebars also ships compiled `dist/`
# bundles, a `bin/`, `types/` and `runtime.d.ts`, left out); blank lines and `#` comments
# are skipped.
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

# The releases the reports are asked against (each case's `repo`): NAME VERSION SHA256.
# pathspec 0.10.1 is also the fixed side of report #62. pathspec 0.10.0 is yanked on PyPI
# ("v0.10.0 broke a common pattern", report #62) but still downloads when pinned.
pypi_list <<'LIST'
pathspec 0.10.0 01eecd304ba0e6eeed188ae5fa568e99ef10265af7fd9ab737d6412b4ee0ab85
pathspec 0.10.1 7ace6161b621d31e7902eb6b5ae148d12cfd23f4a249b9ffb6b9fee12084323d
pathspec 0.11.0 64d338d4e0914e91c1792321e6907b5a593f1ab1851de7fc269557a21b30ebbc
pathspec 0.12.0 c57e16065a97b7beb175f13c84d27cb05f7b7315741c2fbd5de541042f4ea6e1
LIST
npm_list <<'LIST'
handlebars 4.3.0 08e9824cb49ed7c92e45ddc12b0326b1e67b7e42d6311416bd5e4f21a0ea0d14
handlebars 4.4.0 c25d714cdc49aeadfbc01240db61f18993f6284fc6e54f3429ec8c66ba2800f3
handlebars 4.7.1 1fb5d87cb6c3bee3c753bb4b887df554ceb3b012d9b9d318743526139d4df27c
handlebars 4.7.7 d6d9304b22eb76cf44ca58e9b3d44a2d0e70959ca1a3004280c1593aa8e191fb
LIST
crate_list <<'LIST'
ron 0.7.0 1b861ecaade43ac97886a512b360d01d66be9f41f3c61088b42cedf92e03d678
ron 0.8.0 300a51053b1cb55c80b7a9fde4120726ddf25ca241a1cbb926626f62fb136bff
LIST

# The releases with the fixes that are not in the lists above, for checking the expected
# files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
pathspec 0.10.2 8f6bf73e5758fd365ef5d58ce09ac7c27d2833a8d7da51712eac6e27e35141b0
pathspec 0.11.1 2798de800fa92780e33acca925945e9a19a133b715067cf165b8866c15a31687
pathspec 0.12.1 a482d51503a1ab33b1c67a6c3813a26953dbdc71c31dacaef9a838c4e29f5712
LIST
  npm_list <<'LIST'
handlebars 4.3.1 27ff70cd70bbae8b6e5e39fbda2448cbc1beb51a811ae03ccd6406b41aa40044
handlebars 4.4.1 3445c377a04ad6e0f4190cf1539e6beb74f7ff7eee25f1bcd384227c5bd1ed98
handlebars 4.7.2 41d7b4af1ff78e7c76a774417f661b2fbdb7bfa74e0f8ceb7bbe95372d378e52
handlebars 4.7.8 2dadfd6743a1e0d876e55d5c5622450a99c1316848048bc6c131a5fc42e776a6
LIST
  crate_list <<'LIST'
ron 0.7.1 88073939a61e5b7680558e6be56b419e208420c2adb92be54921fa6b72283f1a
ron 0.8.1 b91f7eff05f748767f183df4320a63d6936e9c6107d97c9e6bdd9784f4289c94
LIST
fi
