#!/usr/bin/env bash
# Fetches the codebases of the seventh round of issue-report suites (evals/issues7/*.toml)
# into target/issues7/: for each bug report, the release BEFORE its fix (the tree the report
# is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that the
# expected files can be checked again with `diff -r target/issues7/NAME-BEFORE
# target/issues7/NAME-AFTER` (each case's comment names both).
#
# Sealed round 7 (docs/evals.md, "Round 7 (sealed)"): cattrs and webargs (PyPI sdists,
# `pip download --no-deps --no-binary :all:`) and fast-xml-parser (JavaScript; the npm
# tarball's `src/`, `npm pack`, no install, no scripts). Every archive is pinned by version
# and SHA-256 and never committed; archives are kept in target/issues7/cache/ (a second run
# is offline).
#
#   bash evals/issues7/fetch.sh && explore eval evals/issues7
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues7 "$@"

# npm_list: one npm tarball per line of stdin, `NAME VERSION SHA256`, unpacked with
# `npm_pack` as NAME-VERSION keeping only `src/`; blank lines and `#` comments are skipped.
npm_list() {
  local name version sha256
  while read -r name version sha256; do
    case "$name" in '' | '#'*) continue ;; esac
    npm_pack "$name" "$version" "$sha256" "$name-$version" src
  done
}

# The releases the reports are asked against (each case's `repo`): NAME VERSION SHA256.
# cattrs 23.2.1 and 23.2.2 and 24.1.1 are also the fixed sides of earlier reports, and so
# is fast-xml-parser 4.4.0.
pypi_list <<'LIST'
cattrs 23.2.0 49dccdb50a22524c1129b00d67eaaade61065e0bf8961e27d0c8a12d8b02af12
cattrs 23.2.1 c9685821a75dc8588b90e847f47bcb6fba7bce8f280d5dc4edd3290e827854ec
cattrs 23.2.2 b790b1c2be1ce042611e33f740e343c2593918bbf3c1cc88cdddac4defc09655
cattrs 24.1.0 8274f18b253bf7674a43da851e3096370d67088165d23138b04a1c04c8eaf48e
cattrs 24.1.1 16e94a13f9aaf6438bd5be5df521e072b1b00481b4cf807bcb1acbd49f814c08
webargs 6.1.0 ebb47fb35c3c4fc764213a17d1686e82fec54759ebed2b0715907d566668bb3f
webargs 8.0.0 565666bafd08dd375fae995a9d4187604741efc27b8ec7c5b5bcb0ae90b2c677
LIST
npm_list <<'LIST'
fast-xml-parser 4.1.0 40da5a1ac67efdcea7445682e73600daa61eba0611e5811132b40334a9be7607
fast-xml-parser 4.1.2 1917b65e43103739dbf159971a2ad8fd28c5748607c1c3f3c8d9ddcfed1f4af3
fast-xml-parser 4.2.1 19dbd06c3bfccfa022f3009640da8337e9d87d419d2a798b5470764c1573e410
fast-xml-parser 4.3.6 48d28ce56a0e2781305b581759a6a76810eee807e2b404a50240ec97f9be63b7
fast-xml-parser 4.4.0 695fbd143c1f2b342d94ba929592734ff269d50d34ddc0aaf3d1fca9f92af94b
LIST

# The releases with the fixes that are not in the lists above, for checking the expected
# files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
cattrs 23.2.3 a934090d95abaa9e911dac357e3a8699e0b4b14f8529bcc7d2b1ad9d51672b9f
cattrs 24.1.2 8028cfe1ff5382df59dd36474a86e02d817b06eaf8af84555441bac915d2ef85
webargs 6.1.1 412ecadd977afdea0ed6fa5f5b65ddd13a099269e622ec537f9c74c443ce4d0b
webargs 8.0.1 bcce022250ee97cfbb0ad07b02388ac90a226ef4b479ec84317152345a565614
LIST
  npm_list <<'LIST'
fast-xml-parser 4.1.1 65d5e01e108736f62e5a835d41836bfa9a06f4cafd7b964ca860627638b4971d
fast-xml-parser 4.1.3 72e26a053d436e698f449cdee0ed6faa02a211d6775603b975d013ea09ed9dde
fast-xml-parser 4.2.2 4a97d7c83adfc10135372267560929db216f1846fbc84822f60fc281434da841
fast-xml-parser 4.4.1 0795520973099eefa941bc0f53038d8ac25911b22e12a38146f74d900651952b
LIST
fi
