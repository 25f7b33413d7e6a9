#!/usr/bin/env bash
# Fetches the codebases of the second round of issue-report suites (evals/issues2/*.toml)
# into target/issues2/: for each bug report, the PyPI sdist of the release BEFORE its fix
# (the tree the report is asked against). `--with-fixed` also fetches the releases WITH the
# fixes, so that the expected files can be checked again with `diff -r
# target/issues2/NAME-BEFORE target/issues2/NAME-AFTER` (each case's comment names both).
#
# Every sdist comes from PyPI (`pip download --no-deps --no-binary :all:`), pinned by
# version and SHA-256, and is never committed; archives are kept in target/issues2/cache/
# (a second run is offline).
#
#   bash evals/issues2/fetch.sh && explore eval evals/issues2
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues2

# The releases the reports are asked against (each case's `repo`): NAME VERSION SHA256.
pypi_list <<'LIST'
tomlkit 0.11.1 61901f81ff4017951119cd0d1ed9b7af31c821d6845c8c477587bbdcd5e5854e
tomlkit 0.11.6 71b952e5721688937fb02cf9d354dbcf0785066149d2855e44531ebdd2b65d73
tomlkit 0.11.7 f392ef70ad87a672f02519f99967d28a4d3047133e2d1df936511465fbb3791d
tomlkit 0.12.1 38e1ff8edb991273ec9f6181244a6a391ac30e9f5098e7535640ea6be97a7c86
tomlkit 0.12.2 df32fab589a81f0d7dc525a4267b6d7a64ee99619cbd1eeb0fae32c1dd426977
tomlkit 0.12.4 7ca1cfc12232806517a8515047ba66a19369e71edf2439d0f5824f91032b6cc3
Jinja2 3.0.0 ea8d7dd814ce9df6de6a761ec7f1cac98afe305b8cdc4aaae4e114b8d8ce24c5
Jinja2 3.0.1 703f484b47a6af502e743c9122595cc812b0271f661722403114f71a79d0f5a4
Jinja2 3.0.2 827a0e32839ab1600d4eb1c4c33ec5a8edfbc5cb42dafa13b81f182f97784b45
Jinja2 3.1.1 640bed4bb501cbd17194b3cace1dc2126f5b619cf068a726b98192a0fde74ae9
LIST

# The releases with the fixes that are not in the list above, for checking the expected
# files again with diff -r.
if [ "${1:-}" = --with-fixed ]; then
  pypi_list <<'LIST'
tomlkit 0.11.2 d1b49c3e460f5910b22d799b13513504acb4f5fcaee01660ee66f07bd45a271c
tomlkit 0.11.8 9330fc7faa1db67b541b28e62018c17d20be733177d290a13b24c62d1614e0c3
tomlkit 0.12.3 75baf5012d06501f07bee5bf8e801b9f343e7aac5a92581f20f80ce632e6b5a4
tomlkit 0.12.5 eef34fba39834d4d6b73c9ba7f3e4d1c417a4e56f89a7e96e090dd0d24b8fb3c
Jinja2 3.0.3 611bb273cd68f3b993fabdc4064fc858c5b47a973cb5aa7999ec1ba405c87cd7
Jinja2 3.1.2 31351a702a408a9e7595a8fc6150fc3f43bb6bf7e319770cbc0db9df9437e852
LIST
fi
