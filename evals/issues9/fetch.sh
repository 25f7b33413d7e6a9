#!/usr/bin/env bash
# Fetches the codebases of the ninth round of issue-report suites (evals/issues9/*.toml)
# into target/issues9/: for each bug report, the release BEFORE its fix (the tree the report
# is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that the
# expected files can be checked again with `diff -r target/issues9/NAME-BEFORE
# target/issues9/NAME-AFTER` (each case's comment names both).
#
# Sealed round 9 (docs/evals.md, "Round 9 (sealed)"): python-dotenv (Python; PyPI sdists,
# `pip download --no-deps --no-binary :all:`), qs (JavaScript; the npm tarball's `lib/`,
# `npm pack`, no install, no scripts) and textwrap (Rust; crates.io `.crate` files,
# nothing built). Every archive is pinned by version and SHA-256 and never committed;
# archives are kept in target/issues9/cache/ (a second run is offline).
#
#   bash evals/issues9/fetch.sh && explore eval evals/issues9
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues9 "$@"

# dotenv_list: one python-dotenv sdist per line of stdin, `VERSION SHA256`, fetched with
# `pypi` as python-dotenv-VERSION (PyPI names the archive python_dotenv-VERSION.tar.gz);
# blank lines and `#` comments are skipped.
dotenv_list() {
  local version sha256
  while read -r version sha256; do
    case "$version" in '' | '#'*) continue ;; esac
    pypi python-dotenv "$version" "python_dotenv-$version.tar.gz" "$sha256" "python-dotenv-$version"
  done
}

# npm_list: one npm tarball per line of stdin, `NAME VERSION SHA256`, unpacked with
# `npm_pack` as NAME-VERSION keeping only `lib/` (qs also ships a browserified `dist/qs.js`,
# its tests and its eslint config, left out); blank lines and `#` comments are skipped.
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

# The releases the reports are asked against (each case's `repo`): VERSION SHA256 or
# NAME VERSION SHA256. python-dotenv 1.2.3 is also the fixed side of reports #637 and #661.
dotenv_list <<'LIST'
1.2.2 2c371a91fbd7ba082c2c1dc1f8bf89ca22564a087c2c287cd9b662adde799cf3
1.2.3 a20a594dabeaa385725aa239d5244871c143ecb356add8a20fcf23773a6c3a35
LIST
npm_list <<'LIST'
qs 6.14.1 4712ac8ae3b49dd1c382c5fa4eb5a44fe92156db1bd30039280dedf5cf058e06
qs 6.14.3 d8ad3af55f3ddc1c84ed379d309778256d3bd7c3f4d826baee11e9630a781401
qs 6.16.0 f7a1bfc96c3a0c1172f1f3ef3c280f5ce8054841922e715f0d686da62d7beba4
LIST
crate_list <<'LIST'
textwrap 0.12.0 e30fc9a1b93fe45a3811654d49ead7306cf8fb18aa7fe6bf630a1099111cd2d6
textwrap 0.14.0 f59f5365546b8424b0cc48868ae4fbbbc29a538dcc496b53543525201034f0c2
LIST

# The releases with the fixes that are not in the lists above, for checking the expected
# files again with diff -r. textwrap 0.14.1 was yanked ("included more changes than
# intended"); 0.14.2 carries the fix alone.
if [ "$fixed" = yes ]; then
  dotenv_list <<'LIST'
1.2.4 f0d53e69935a851c0dcc78f3ab7aaccd8cabef0b92382b576b824212902873c0
LIST
  npm_list <<'LIST'
qs 6.14.2 5aec8a4cee3e2a51c1be1f5e4893cc6502a157b233df962744efda31a414a974
qs 6.15.0 6c4f1565a52098c5ae7b45d7bb7441778452fdaacb6a0a92ab97c116b832d5bf
qs 6.16.1 bdb0e06e5cde7b4d7e0117faa678416bbc2c9287b0672c35c04da2b9de1d3cbf
LIST
  crate_list <<'LIST'
textwrap 0.12.1 203008d98caf094106cfaba70acfed15e18ed3ddb7d94e49baec153a2b462789
textwrap 0.14.2 0066c8d12af8b5acd21e00547c3797fde4e8677254a7ee429176ccebbe93dd80
LIST
fi
