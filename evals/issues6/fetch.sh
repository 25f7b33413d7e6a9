#!/usr/bin/env bash
# Fetches the codebases of the sixth round of issue-report suites (evals/issues6/*.toml)
# into target/issues6/: for each bug report, the PyPI sdist of the release BEFORE its fix
# (the tree the report is asked against). `--with-fixed` also fetches the releases WITH the
# fixes, so that the expected files can be checked again with `diff -r
# target/issues6/NAME-BEFORE target/issues6/NAME-AFTER` (each case's comment names both).
#
# Sealed round 6 (docs/evals.md, "Round 6 (sealed)"): coverage.py and urllib3.
# Every sdist comes from PyPI (`pip download --no-deps --no-binary :all:`), pinned by
# version and SHA-256, and is never committed; archives are kept in target/issues6/cache/
# (a second run is offline).
#
#   bash evals/issues6/fetch.sh && explore eval evals/issues6
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues6 "$@"

# The releases the reports are asked against (each case's `repo`): NAME VERSION SHA256.
# urllib3 2.2.1 is also the fixed side of an earlier report (#3343).
pypi_list <<'LIST'
coverage 7.0.2 405d8528a0ea07ca516d9007ecad4e1bd10e2eeef27411c6188d78c4e2dfcddc
coverage 7.0.4 f6c4ad409a0caf7e2e12e203348b1a9b19c514e7d078520973147bf2d3dcbc6f
coverage 7.2.5 f99ef080288f09ffc687423b8d60978cf3a465d3f404a18d1a05474bd8575a47
coverage 7.3.2 be32ad29341b0170e795ca590e1c07e81fc061cb5b10c74ce7203491484404ef
coverage 7.4.2 1a5ee18e3a8d766075ce9314ed1cb695414bae67df6a4b0805f5137d93d6f1cb
coverage 7.5.1 54de9ef3a9da981f7af93eafde4ede199e0846cd819eb27c88e2b712aae9708c
urllib3 2.0.2 61717a1095d7e155cdb737ac7bb2f4324a858a1e2e6466f6d03ff630ca68d3cc
urllib3 2.0.7 c97dfde1f7bd43a71c8d2a58e369e9b2bf692d1334ea9f9cae55add7d0dd0f84
urllib3 2.2.0 051d961ad0c62a94e50ecf1af379c3aba230c66c710493493560c0c223c49f20
urllib3 2.2.1 d0570876c61ab9e520d776c38acbbb5b05a776d3f9ff98a5c8fd5162a444cf19
LIST

# The releases with the fixes that are not in the list above, for checking the expected
# files again with diff -r.
if [ "$fixed" = yes ]; then
  pypi_list <<'LIST'
coverage 7.0.3 d5be4e93acce64f516bf4fd239c0e6118fc913c93fa1a3f52d15bdcc60d97b2d
coverage 7.0.5 051afcbd6d2ac39298d62d340f94dbb6a1f31de06dfaf6fcef7b759dd3860c45
coverage 7.2.6 2025f913f2edb0272ef15d00b1f335ff8908c921c8eb2013536fcaf61f5a683d
coverage 7.3.3 df04c64e58df96b4427db8d0559e95e2df3138c9916c96f9f6a4dd220db2fdb7
coverage 7.4.3 276f6077a5c61447a48d133ed13e759c09e62aff0dc84274a68dc18660104d52
coverage 7.5.2 13017a63b0e499c59b5ba94a8542fb62864ba3016127d1e4ef30d354fc2b00e9
urllib3 2.0.3 bee28b5e56addb8226c96f7f13ac28cb4c301dd5ea8a6ca179c0b9835e032825
urllib3 2.1.0 df7aa8afb0148fa78488e7899b2c59b5f4ffcfa82e6c54ccb9dd37c1d7b52d54
urllib3 2.2.2 dd505485549a7a552833da5e6063639d0d177c04f23bc3864e41e5dc5f612168
LIST
fi
