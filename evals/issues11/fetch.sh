#!/usr/bin/env bash
# Fetches the codebases of the eleventh round of issue-report suites (evals/issues11/*.toml)
# into target/issues11/: for each bug report, the release BEFORE its fix (the tree the
# report is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that
# the expected files can be checked again with `diff -r target/issues11/NAME-BEFORE
# target/issues11/NAME-AFTER` (each case's comment names both).
#
# Sealed round 11 (docs/evals.md, "Round 11 (sealed)"): natsort (Python; PyPI sdists,
# `pip download --no-deps --no-binary :all:`). Every archive is pinned by version and
# SHA-256 and never committed; archives are kept in target/issues11/cache/ (a second run
# is offline).
#
#   bash evals/issues11/fetch.sh && explore eval evals/issues11
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues11 "$@"

# The releases the reports are asked against (each case's `repo`).
pypi_list <<'LIST'
natsort 8.0.0 a0a4fd71aee20a6d648da61e01180a63f7268e69983d0440bd3ad80ef1ba6981
natsort 8.0.2 feb87e0ce1dc1f8f3f21e18a85216c790e746d76a5ff6889563394605f504a2b
natsort 8.2.0 57f85b72c688b09e053cdac302dd5b5b53df5f73ae20b4874fcbffd8bf783d11
natsort 8.3.1 517595492dde570a4fd6b6a76f644440c1ba51e2338c8a671d7f0475fda8f9fd
LIST

# The releases with the fixes, for checking the expected files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
natsort 8.0.1 2e8fbc2b9e44ed7cbdf55d782375d706ba8742591c1c5910992542f3899abbed
natsort 8.1.0 c7c1f3f27c375719a4dfcab353909fe39f26c2032a062a8c80cc844eaaca0445
natsort 8.3.0 5c64ff0743181dfbb4dd5f0b211434e734992b308ec54b6fa24e0f77f4678ed2
natsort 8.4.0 45312c4a0e5507593da193dedd04abb1469253b601ecaf63445ad80f0a1ea581
LIST
fi
