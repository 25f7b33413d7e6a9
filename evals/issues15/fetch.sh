#!/usr/bin/env bash
# Fetches the codebases of the fifteenth round of issue-report suites (evals/issues15/*.toml)
# into target/issues15/: for each bug report, the release BEFORE its fix (the tree the
# report is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that
# the expected files can be checked again with `diff -r target/issues15/NAME-BEFORE
# target/issues15/NAME-AFTER` (each case's comment names both) and with
# `python3 evals/check_fixed.py evals/issues15/*.toml` (each before-release's next fetched
# release is its fix release).
#
# Sealed round 15 (docs/evals.md, "Round 15 (sealed)"): nunjucks (JavaScript; npm tarballs,
# `npm pack`, no install and no scripts, keeping `src/`, the library's sources: the lexer,
# parser, nodes, compiler, environment with Template and Context, runtime, filters, tests,
# globals, lib, the loaders, precompile and jinja-compat; the browser bundles, bin/ and
# the shipped CHANGELOG.md are left out). Every archive is pinned by version and SHA-256 and
# never committed; archives are kept in target/issues15/cache/ (a second run is offline).
#
#   bash evals/issues15/fetch.sh && explore eval evals/issues15
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues15 "$@"

# The releases the reports are asked against (each case's `repo`); 3.1.2 and 3.1.3 are also
# fix releases (of #1074, and of #1087 and #1110).
npm_pack nunjucks 3.1.0 8b252fb5299fac17ad4dfde571a8c5cafd6e36d556f46cecde65eb93d5c1ff05 nunjucks-3.1.0 src
npm_pack nunjucks 3.1.2 ccd27eb2084a6ba625d3b7594461acedcca57c012d03e2bd73e3712f71fa80cb nunjucks-3.1.2 src
npm_pack nunjucks 3.1.3 45958a1104f4f882ff162c21e61d6843222bf843134de1a0fbd88e124f54bedc nunjucks-3.1.3 src
npm_pack nunjucks 3.1.6 289af223f5876cf4865d3ffb03532a305a920138d4e0f602f1b10502b30328bc nunjucks-3.1.6 src
npm_pack nunjucks 3.2.1 8994729bc9fcefab01cf9a33fc2f3e8dad9483869b402d903f2702903a516576 nunjucks-3.2.1 src

# The releases with the fixes that are not also asked against, for checking the expected
# files again with diff -r: 3.1.4 (#736), 3.1.7 (#1164) and 3.2.2 (#1231, #1272).
if [ "$fixed" = yes ]; then
  npm_pack nunjucks 3.1.4 a0e66ee6c0be946672ea2e2e79fc6f29ab1030a3184055d4640bb4011e7540d3 nunjucks-3.1.4 src
  npm_pack nunjucks 3.1.7 26d1be8e24723a0db345e8e515cc41599d7f1318026b2ae33638383350f71557 nunjucks-3.1.7 src
  npm_pack nunjucks 3.2.2 62652c99a2897e474796ad3acde7b3b56beda405b3fee28aed356565c3bb0d5b nunjucks-3.2.2 src
fi
