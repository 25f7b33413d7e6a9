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
source "$(dirname "$0")/../fetch-lib.sh" target/issues3 "$@"

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

# --- pytest and Sphinx (evals/issues3/pytest.toml, evals/issues3/sphinx.toml) -----------
# Sphinx published its sdists as Sphinx-X.tar.gz up to 7.0.1 and as sphinx-X.tar.gz from
# 7.1.0 on; every tree is unpacked as sphinx-X.
sphinx() {
  local version=$1 sha256=$2 archive
  case "$version" in
    6.* | 7.0.*) archive="Sphinx-$version.tar.gz" ;;
    *) archive="sphinx-$version.tar.gz" ;;
  esac
  pypi sphinx "$version" "$archive" "$sha256" "sphinx-$version"
}

# The releases the reports are asked against (each case's `repo`).
pypi_list <<'LIST'
pytest 7.0.0 dad48ffda394e5ad9aa3b7d7ddf339ed502e5e365b1350e0af65f4a602344b11
pytest 7.1.1 841132caef6b1ad17a9afde46dc4f6cfa59a05f9555aae5151f73bdf2820ca63
pytest 7.2.1 d45e0952f3727241918b8fd0f376f5ff6b301cc0777c6f9a556935c92d8a7d42
pytest 7.3.1 434afafd78b1d78ed0addf160ad2b77a30d35d4bdf8af234fe621919d9ed15e3
pytest 7.4.1 2f2301e797521b23e4d2585a0a3d7b5e50fdddaaf7e7d6773ea26ddb17c213ab
pytest 7.4.2 a766259cfab564a2ad52cb1aae1b881a75c3eb7e34ca3779697c23ed47c47069
pytest 8.1.1 ac978141a75948948817d360297b7aae0fcb9d6ff6bc9ec6d514b85d5a65c044
LIST
sphinx 6.1.0 b0fd0a1993733492572bbd429b5ec081e17c082b5b5168ffae50524c3a90fd3c
sphinx 6.2.0 9ef22c2941bc3d0ff080d25a797f7521fc317e857395c712ddde97a19d5bb440
sphinx 7.1.1 59b8e391f0768a96cd233e8300fe7f0a8dc2f64f83dc2a54336a9a84f428ff4e
sphinx 7.2.4 1aeec862bf1edff4374012ac38082e0d1daa066c9e327841a846401164797988
sphinx 7.3.6 fc9f3d13fed5c9a0e677d368090e209899ce5d0081eb552b657e2923e57517f0
sphinx 7.4.0 8385520a28dc129ebf8b5fccfa1beb71215fd4455c6d10fa418e08c3c7a2ff9c
sphinx 7.4.2 946f1a6fa317b02f76deee78392ba712badc01cccd231b5995d933ae3365a151
sphinx 7.4.3 bd846bcb09fd2b6e94ce3e1ad50f4618bccf03cc7c17d0f3fa87393c0bd9178b

# The releases with the fixes that are not in the lists above, for checking the expected
# files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
pytest 7.0.1 e30905a0c131d3d94b89624a1cc5afec3e0ba2fbdb151867d8e0ebd49850f171
pytest 7.1.2 a06a0425453864a270bc45e71f783330a7428defb4230fb5e6a731fde06ecd45
pytest 7.2.2 c99ab0c73aceb050f68929bc93af19ab6db0558791c6a0715723abe9d0ade9d4
pytest 7.3.2 ee990a3cc55ba808b80795a79944756f315c67c12b56abd3ac993a7b8c17030b
pytest 7.4.3 d989d136982de4e3b29dabcc838ad581c64e8ed52c11fbe86ddebd9da0818cd5
pytest 8.1.2 f3c45d1d5eed96b01a2aea70dee6a4a366d51d38f9957768083e4fecfc77f3ef
LIST
  sphinx 6.1.1 6a8e43b5030b9870d7402fb56f5efeebb83b76d65bf1c567a89b555340e127b2
  sphinx 6.2.1 6d56a34697bb749ffa0152feafc4b19836c755d90a7c59b72bc7dfd371b9cc6b
  sphinx 7.1.2 780f4d32f1d7d1126576e0e5ecc19dc32ab76cd24e950228dcf7b1f6d3d9e22f
  sphinx 7.2.5 1a9290001b75c497fd087e92b0334f1bbfa1a1ae7fddc084990c4b7bd1130b88
  sphinx 7.3.7 a4a7db75ed37531c05002d56ed6948d4c42f473a36f46e1382b0bd76ca9627bc
  sphinx 7.4.1 09539a16d74d1850b123cdd0752b9d24f3adc025ff887d611d1010348cd3648c
  sphinx 7.4.4 43c911f997a4530b6cffd4ff8d5516591f6c60d178591f4406f0dd02282e3f64
fi
# --- end of pytest and Sphinx ------------------------------------------------------------
