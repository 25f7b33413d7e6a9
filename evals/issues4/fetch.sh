#!/usr/bin/env bash
# Fetches the codebases of the fourth round of issue-report suites (evals/issues4/*.toml)
# into target/issues4/: for each bug report, the PyPI sdist of the release BEFORE its fix
# (the tree the report is asked against). `--with-fixed` also fetches the releases WITH the
# fixes, so that the expected files can be checked again with `diff -r
# target/issues4/NAME-BEFORE target/issues4/NAME-AFTER` (each case's comment names both).
#
# Sealed round 4 (docs/evals.md, "Round 4 (sealed)"): pylint, pydantic (V1) and Black.
# Every sdist comes from PyPI (`pip download --no-deps --no-binary :all:`), pinned by
# version and SHA-256, and is never committed; archives are kept in target/issues4/cache/
# (a second run is offline).
#
#   bash evals/issues4/fetch.sh && explore eval evals/issues4
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues4 "$@"

# The releases the reports are asked against (each case's `repo`): NAME VERSION SHA256.
# pylint 3.2.3 and 3.2.6, pydantic 1.10.9 are also the fixed side of an earlier report.
pypi_list <<'LIST'
pylint 3.0.1 81c6125637be216b4652ae50cc42b9f8208dfb725cdc7e04c48f6902f4dbdf40
pylint 3.0.3 58c2398b0301e049609a8429789ec6edf3aabe9b6c5fec916acd18639c16de8b
pylint 3.1.0 6a69beb4a6f63debebaab0a3477ecd0f559aa726af4954fc948c51f7a2549e23
pylint 3.2.2 d068ca1dfd735fb92a07d33cb8f288adc0f6bc1287a139ca2425366f7cbe38f8
pylint 3.2.3 02f6c562b215582386068d52a30f520d84fdbcf2a95fc7e855b816060d048b60
pylint 3.2.5 e9b7171e242dcc6ebd0aaa7540481d1a72860748a0a7816b8fe6cf6c80a6fe7e
pylint 3.2.6 a5d01678349454806cff6d886fb072294f56a58c4761278c97fb557d708e1eb3
pylint 3.3.3 07c607523b17e6d16e2ae0d7ef59602e332caa762af64203c24b41c27139f36a
pydantic 1.10.5 9e337ac83686645a46db0e825acceea8e02fca4062483f40e9ae178e8bd1103a
pydantic 1.10.8 1410275520dfa70effadf4c21811d755e7ef9bb1f1d077a21958153a92c8d9ca
pydantic 1.10.9 95c70da2cd3b6ddf3b9645ecaa8d98f3d80c606624b6d245558d202cd23ea3be
pydantic 1.10.11 f66d479cf7eb331372c470614be6511eae96f1f120344c25f3f9bb59fb1b5528
black 24.2.0 bce4f25c27c3435e4dace4815bcb2008b87e167e3bf4ee47ccdc5ce906eb4894
black 24.4.1 5241612dc8cad5b6fd47432b8bd04db80e07cfbc53bb69e9ae18985063bcb8dd
LIST

# The releases with the fixes that are not in the list above, for checking the expected
# files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
pylint 3.0.2 0d4c286ef6d2f66c8bfb527a7f8a629009e42c99707dec821a03e1b51a4c1496
pylint 3.0.4 d73b70b3fff8f3fbdcb49a209b9c7d71d8090c138d61d576d1895e152cb392b3
pylint 3.1.1 c7c2652bf8099c7fb7a63bc6af5c5f8f7b9d7b392fa1d320cb020e222aff28c2
pylint 3.2.4 5753d27e49a658b12a48c2883452751a2ecfc7f38594e0980beb03a6e77e6f86
pylint 3.2.7 1b7a721b575eaeaa7d39db076b6e7743c993ea44f57979127c517c6c572c803e
pylint 3.3.4 74ae7a38b177e69a9b525d0794bd8183820bfa7eb68cc1bee6e8ed22a42be4ce
pydantic 1.10.6 cf95adb0d1671fc38d8c43dd921ad5814a735e7d9b4d9e437c088002863854fd
pydantic 1.10.10 3b8d5bd97886f9eb59260594207c9f57dce14a6f869c6ceea90188715d29921a
pydantic 1.10.12 0fe8a415cea8f340e7a9af9c54fc71a649b43e8ca3cc732986116b3cb135d303
black 24.3.0 a0c9c4a0771afc6919578cec71ce82a3e31e054904e7197deacbc9382671c41f
black 24.4.2 c872b53057f000085da66a19c55d68f6f8ddcac2642392ad3a355878406fbd4d
LIST
fi
