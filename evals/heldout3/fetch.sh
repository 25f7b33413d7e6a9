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
