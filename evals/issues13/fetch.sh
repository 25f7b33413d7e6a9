#!/usr/bin/env bash
# Fetches the codebases of the thirteenth round of issue-report suites (evals/issues13/*.toml)
# into target/issues13/: for each bug report, the release BEFORE its fix (the tree the
# report is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that
# the expected files can be checked again with `diff -r target/issues13/NAME-BEFORE
# target/issues13/NAME-AFTER` (each case's comment names both) and with
# `python3 evals/check_fixed.py evals/issues13/*.toml` (each before-release's next fetched
# release is its fix release).
#
# Sealed round 13 (docs/evals.md, "Round 13 (sealed)"): transitions and boltons (Python;
# PyPI sdists, `pip download --no-deps --no-binary :all:`). Every archive is pinned by
# version and SHA-256 and never committed; archives are kept in target/issues13/cache/ (a
# second run is offline).
#
#   bash evals/issues13/fetch.sh && explore eval evals/issues13
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues13 "$@"

# The releases the reports are asked against (each case's `repo`).
pypi_list <<'LIST'
transitions 0.8.5 e441c66a0c753d56c01c3e5e547f21dbe4a5569c939f12477475c5e81d79769b
transitions 0.9.0 2f54d11bdb225779d7e729011e93a9fb717668ce3dc65f8d4f5a5d7ba2f48e10
transitions 0.9.1 3542c37108e93e2ae5f215208ec5732c94a772937854a102cd7345b967fee61b
boltons 18.0.1 1b7dd3892e949e7979f9ec4696b29e47e5b8f5ec0c231719bfb5e467202d04d1
boltons 19.3.0 7b3344098aa0d593e1a04cd290f61310d5aefc66aeb1e07262d5afdabdb88a67
LIST

# The releases with the fixes, for checking the expected files again with diff -r (0.9.1 is
# both: the fix of #594, #626 and #639 and the tree #610 is asked against).
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
transitions 0.8.6 032e10113139852ffb3ecfa4c2a5138f87441d85c3d6ad9122bb4b0978180a8d
transitions 0.9.1 3542c37108e93e2ae5f215208ec5732c94a772937854a102cd7345b967fee61b
transitions 0.9.2 2f8490dbdbd419366cef1516032ab06d07ccb5839ef54905e842a472692d4204
boltons 19.0.0 194346ba090dd7cbe5bb2cd59246eb043ce088128cca69902aebe30dcd96efc6
boltons 20.0.0 e44ddbd10af0904147c194d2c9bd2affa6a3e5b2ebfb9d5547900d8931203953
LIST
fi
