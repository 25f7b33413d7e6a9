#!/usr/bin/env bash
# Fetches the codebases of the fourteenth round of issue-report suites (evals/issues14/*.toml)
# into target/issues14/: for each bug report, the release BEFORE its fix (the tree the
# report is asked against). `--with-fixed` also fetches the releases WITH the fixes, so that
# the expected files can be checked again with `diff -r target/issues14/NAME-BEFORE
# target/issues14/NAME-AFTER` (each case's comment names both) and with
# `python3 evals/check_fixed.py evals/issues14/*.toml` (each before-release's next fetched
# release is its fix release).
#
# Sealed round 14 (docs/evals.md, "Round 14 (sealed)"): jsonpickle (Python; PyPI sdists,
# `pip download --no-deps --no-binary :all:`). Every archive is pinned by version and SHA-256
# and never committed; archives are kept in target/issues14/cache/ (a second run is
# offline).
#
#   bash evals/issues14/fetch.sh && explore eval evals/issues14
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues14 "$@"

# The releases the reports are asked against (each case's `repo`); 2.2.0 and 3.0.0 are also
# fix releases (of #318 and of #240 and #411).
pypi_list <<'LIST'
jsonpickle 2.1.0 84684cfc5338a534173c8dd69809e40f2865d0be1f8a2b7af8465e5b968dcfa9
jsonpickle 2.2.0 7b272918b0554182e53dc340ddd62d9b7f902fec7e7b05620c04f3ccef479a0e
jsonpickle 3.0.0 504586e5c0fd52fd76a56f86c36f8c4d29778bdef92dc06d38ca6e2e9fc4f090
jsonpickle 3.0.2 e37abba4bfb3ca4a4647d28bb9f4706436f7b46c8a8333b4a718abafa8e46b37
jsonpickle 3.0.3 5691f44495327858ab3a95b9c440a79b41e35421be1a6e09a47b6c9b9421fd06
LIST

# The releases with the fixes that are not also asked against, for checking the expected
# files again with diff -r: 3.0.1 (#422) and 3.0.4 (#478); 3.0.3 (#447) is above.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
jsonpickle 3.0.1 032538804795e73b94ead410800ac387fdb6de98f8882ac957fcd247e3a85200
jsonpickle 3.0.4 a1b14c8d6221cd8f394f2a97e735ea1d7edc927fbd135b26f2f8700657c8c62b
LIST
fi
