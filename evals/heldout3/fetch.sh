#!/usr/bin/env bash
# Fetches the codebases of the third held-out round (evals/heldout3/*.toml) into
# target/heldout3/.
#
# Held out again: packages the project had never asked questions about, with questions
# written and verified before the engine was run on them (docs/evals.md, "Round 3"). Every
# source comes from a package registry, pinned by version and SHA-256, and is never
# committed. Archives are kept in target/heldout3/cache/ (a second run is offline).
#
#   bash evals/heldout3/fetch.sh && explore eval evals/heldout3
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout3

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): uber-go/zap 1.23.0 (with zapcore/, zaptest/, zapgrpc/, zapio/, buffer/,
# internal/), BurntSushi/toml 1.2.0 (with internal/).
debian golang-go.uber-zap-dev 1.23.0-1 \
  cff89ff0de841df81d5bf43d8e71e026c97ad0b2753c2040c440ebf8a45f4a38 \
  go.uber.org/zap zap-1.23.0
debian golang-github-burntsushi-toml-dev 1.2.0-2 \
  eb0bc9f96d02b33034311604f787ca7ab071de026c9abdffa6ae40a63362f7b8 \
  github.com/BurntSushi/toml toml-1.2.0
# --- end of the Go block
# --- Python: sdists from PyPI (`pip download --no-deps --no-binary :all:`) ---------------
# rich 13.7.1 (`rich/`, ~26,000 lines; the sdist has no tests), sqlparse 0.5.0
# (`sqlparse/`, ~4,000 lines, with tests/, docs/ and examples/).
pypi rich 13.7.1 rich-13.7.1.tar.gz \
  9be308cb1fe2f1f57d67ce99e95af38a1e2bc71ad9813b0e247cf7ffbcc3a432 rich-13.7.1
pypi sqlparse 0.5.0 sqlparse-0.5.0.tar.gz \
  714d0a4932c059d16189f58ef5411ec2287a4360f17cdd0edd2d09d4c5087c93 sqlparse-0.5.0
