#!/usr/bin/env bash
# Fetches the codebases of the fourth held-out round (evals/heldout4/*.toml) into
# target/heldout4/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 4 (sealed)"). Every source comes from a package registry, pinned by version and
# SHA-256, and is never committed. Archives are kept in target/heldout4/cache/ (a second run
# is offline).
#
#   bash evals/heldout4/fetch.sh && explore eval evals/heldout4
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout4

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): spf13/pflag 1.0.6 (git snapshot d5e0c0615ace, one package, ~7,000 lines of
# non-test code, a file per flag type).
debian golang-github-spf13-pflag-dev 1.0.6~git20210604-d5e0c0615ace-1 \
  bd1c3c2a3e47512a64da02ebea900eb5a3f3c5d386e559d5718a3a935c0ea570 \
  github.com/spf13/pflag pflag-1.0.6
# --- end of the Go block
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# packaging 24.1 (`src/packaging/`, with tests/ and docs/).
pypi packaging 24.1 packaging-24.1.tar.gz \
  026ed72c8ed3fcce5bf8950572258698927fd1dbda10a5e981cdf0ac37f4f002 packaging-24.1
# --- end of the Python block
