#!/usr/bin/env bash
# Fetches the codebases of the twelfth round of issue-report suites (evals/issues12/*.toml)
# into target/issues12/: for each bug report, the release BEFORE its fix (the tree the
# report is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that
# the expected files can be checked again with `diff -r target/issues12/NAME-BEFORE
# target/issues12/NAME-AFTER` (each case's comment names both).
#
# Sealed round 12 (docs/evals.md, "Round 12 (sealed)"): transitions (Python; PyPI sdists,
# `pip download --no-deps --no-binary :all:`). Every archive is pinned by version and
# SHA-256 and never committed; archives are kept in target/issues12/cache/ (a second run
# is offline).
#
#   bash evals/issues12/fetch.sh && explore eval evals/issues12
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues12 "$@"

# The releases the reports are asked against (each case's `repo`).
pypi_list <<'LIST'
transitions 0.8.7 8c60ec0828cd037820726283cad5d4d77a5e31514e058b51250420e9873e9bc7
transitions 0.8.9 fc2ec6d6b6f986cd7e28e119eeb9ba1c9cc51ab4fbbdb7f2dedad01983fd2de0
transitions 0.8.11 7b20d32906ea4d60ee6f6c1f5dc9c9f178802425c5b155213eb0f25c277f04e4
transitions 0.9.1 3542c37108e93e2ae5f215208ec5732c94a772937854a102cd7345b967fee61b
LIST

# The releases with the fixes, for checking the expected files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
transitions 0.8.8 e7a86b31a161a76133f189b3ae9dad2755a80ea4c1e0eee1805648d021fb677d
transitions 0.8.10 b0385975a842e885c1a55c719d2f90164471665794d39d51f9eb3f11e1d9c8ac
transitions 0.9.0 2f54d11bdb225779d7e729011e93a9fb717668ce3dc65f8d4f5a5d7ba2f48e10
transitions 0.9.2 2f8490dbdbd419366cef1516032ab06d07ccb5839ef54905e842a472692d4204
LIST
fi
