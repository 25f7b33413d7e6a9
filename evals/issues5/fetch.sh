#!/usr/bin/env bash
# Fetches the codebases of the fifth round of issue-report suites (evals/issues5/*.toml)
# into target/issues5/: for each bug report, the PyPI sdist of the release BEFORE its fix
# (the tree the report is asked against). `--with-fixed` also fetches the releases WITH the
# fixes, so that the expected files can be checked again with `diff -r
# target/issues5/NAME-BEFORE target/issues5/NAME-AFTER` (each case's comment names both).
#
# Sealed round 5 (docs/evals.md, "Round 5 (sealed)"): Python-Markdown and pyflakes.
# Every sdist comes from PyPI (`pip download --no-deps --no-binary :all:`), pinned by
# version and SHA-256, and is never committed; archives are kept in target/issues5/cache/
# (a second run is offline).
#
#   bash evals/issues5/fetch.sh && explore eval evals/issues5
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues5 "$@"

# The releases the reports are asked against (each case's `repo`): NAME VERSION SHA256.
# Markdown 3.3.6 and pyflakes 3.0.1 are also the fixed side of an earlier report.
pypi_list <<'LIST'
Markdown 3.3 4f4172a4e989b97f96860fa434b89895069c576e2b537c4b4eed265266a7affc
Markdown 3.3.2 4b71fbd2db30c1dfb400f22b25f41cb823fc1db0aa8b7b67d120644f92cc1011
Markdown 3.3.4 31b5b491868dcc87d6c24b7e3d19a0d730d59d3e46f4eea6430a321bed387a49
Markdown 3.3.6 76df8ae32294ec39dcf89340382882dfa12975f87f45c3ed1ecdb1e8cefc7006
Markdown 3.4.3 8bf101198e004dc93e84a12a7395e31aac6a9c9942848ae1d99b9d72cf9b3520
Markdown 3.5.1 b65d7beb248dc22f2e8a31fb706d93798093c308dc1aba295aedeb9d41a813bd
pyflakes 2.3.0 e59fd8e750e588358f1b8885e5a4751203a0516e0ee6d34811089ac294c8806f
pyflakes 2.4.0 05a85c2872edf37a4ed30b0cce2f6093e1d0581f8c19d7393122da7e25b2b24c
pyflakes 3.0.0 12da339341ba8b9071e185d4717bef732fdb4f4400b9f4a1d0d6bbc362bf7760
pyflakes 3.0.1 ec8b276a6b60bd80defed25add7e439881c19e64850afd9b346283d4165fd0fd
LIST

# The releases with the fixes that are not in the list above, for checking the expected
# files again with diff -r. (Markdown 3.3.5's sdist does not build its metadata with a
# current pip; 3.3.6, which only fixed a dependency pin, stands for it.)
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
Markdown 3.3.1 c3ce9ebb035c078cac0f2036068d054e7dc34354eeecc49c173c33c96b124af6
Markdown 3.3.3 5d9f2b5ca24bc4c7a390d22323ca4bad200368612b5aaa7796babf971d2b2f18
Markdown 3.3.7 cbb516f16218e643d8e0a95b309f77eb118cb138d39a4f27851e6a63581db874
Markdown 3.4.4 225c6123522495d4119a90b3a3ba31a1e87a70369e03f14799ea9c0d7183a3d6
Markdown 3.5.2 e1ac7b3dc550ee80e602e71c1d168002f062e49f1b11e26a36264dafd4df2ef8
pyflakes 2.3.1 f5bc8ecabc05bb9d291eb5203d6810b49040f6ff446a756326104746cc00c1db
pyflakes 2.5.0 491feb020dca48ccc562a8c0cbe8df07ee13078df59813b83959cbdada312ea3
pyflakes 3.1.0 a0aae034c444db0071aa077972ba4768d40c830d9539fd45bf4cd3f8f6992efc
LIST
fi
