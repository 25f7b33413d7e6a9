#!/usr/bin/env bash
# Fetches the codebases of the third held-out round (evals/heldout3/*.toml) into
# target/heldout3/.
#
# Held out again: packages the project had never used, with questions written and verified
# before the engine was run on them (docs/evals.md, "Round 3"). Every source comes from a
# package registry, pinned by version and SHA-256, and is never committed.
# Archives are kept in target/heldout3/cache/ (a second run is offline).
#
#   bash evals/heldout3/fetch.sh && explore eval evals/heldout3
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout3

# --- Python: sdists from PyPI (`pip download --no-deps --no-binary :all:`) ---------------
# rich 13.7.1 (`rich/`, ~26,000 lines; the sdist has no tests), sqlparse 0.5.0
# (`sqlparse/`, ~4,000 lines, with tests/, docs/ and examples/).
pypi rich 13.7.1 rich-13.7.1.tar.gz \
  9be308cb1fe2f1f57d67ce99e95af38a1e2bc71ad9813b0e247cf7ffbcc3a432 rich-13.7.1
pypi sqlparse 0.5.0 sqlparse-0.5.0.tar.gz \
  714d0a4932c059d16189f58ef5411ec2287a4360f17cdd0edd2d09d4c5087c93 sqlparse-0.5.0
