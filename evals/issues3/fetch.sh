#!/usr/bin/env bash
# Fetches the codebases of the third round of issue-report suites (evals/issues3/*.toml)
# into target/issues3/: for each bug report, the PyPI sdist of the release BEFORE its fix
# (the tree the report is asked against). `--with-fixed` also fetches the releases WITH the
# fixes, so that the expected files can be checked again with `diff -r
# target/issues3/NAME-BEFORE target/issues3/NAME-AFTER` (each case's comment names both).
#
# Every sdist comes from PyPI (`pip download --no-deps --no-binary :all:`), pinned by
# version and SHA-256, and is never committed; archives are kept in target/issues3/cache/
# (a second run is offline). Each suite has its own block below.
#
#   bash evals/issues3/fetch.sh && explore eval evals/issues3
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues3

fixed=no
if [ "${1:-}" = --with-fixed ]; then
  fixed=yes
fi

# --- sympy and xarray (evals/issues3/sympy.toml, evals/issues3/xarray.toml) ----------------
# The releases the reports are asked against (each case's `repo`): NAME VERSION SHA256.
# sympy 1.13.1 and 1.13.2, xarray 2024.2.0 and 2024.6.0 are also the fixed side of an
# earlier report.
pypi_list <<'LIST'
sympy 1.6 9769e3d2952e211b1245f1d0dfdbfbdde1f7779a3953832b7dd2b88a21ca6cc6
sympy 1.13.0 3b6af8f4d008b9a1a6a4268b335b984b23835f26d1d60b0526ebc71d48a25f57
sympy 1.13.1 9cebf7e04ff162015ce31c9c6c9144daa34a93bd082f54fd8f12deca4f47515f
sympy 1.13.2 401449d84d07be9d0c7a46a64bd54fe097667d5e7181bfe67ec777be9e01cb13
xarray 2024.1.1 a1ba2d87a74892e213c9c83f4a462dbcdf68212320a4e31b34bd789ba7a64e35
xarray 2024.2.0 a105f02791082c888ebe2622090beaff2e7b68571488d62fe6afdab35b4b717f
xarray 2024.5.0 e0eb1cb265f265126795f388ed9591f3c752f2aca491f6c0576711fd15b708f2
xarray 2024.6.0 0b91e0bc4dc0296947947640fe31ec6e867ce258d2f7cbc10bedf4a6d68340c7
LIST

# The releases with the fixes that are not in the list above, for checking the expected
# files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
sympy 1.6.1 7386dba4f7e162e90766b5ea7cab5938c2fe3c620b310518c8ff504b283cb15b
sympy 1.13.3 b27fd2c6530e0ab39e275fc9b683895367e51d5da91baa8d3d64db2565fec4d9
xarray 2024.3.0 5c1db19efdde61db7faedad8fc944f4e29698fb6fbd578d352668b63598bd1d8
xarray 2024.7.0 4cae512d121a8522d41e66d942fb06c526bc1fd32c2c181d5fe62fe65b671638
LIST
fi
# --- end of sympy and xarray ------------------------------------------------------------------
