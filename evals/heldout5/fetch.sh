#!/usr/bin/env bash
# Fetches the codebases of the fifth held-out round (evals/heldout5/*.toml) into
# target/heldout5/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 5 (sealed)"). Every source comes from a package registry, pinned by version and
# SHA-256, and is never committed. Archives are kept in target/heldout5/cache/ (a second run
# is offline).
#
#   bash evals/heldout5/fetch.sh && explore eval evals/heldout5
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout5

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): hashicorp/hcl 1.0.0 (HCL v1: hcl/{ast,parser,scanner,token,printer,strconv},
# json/{parser,scanner,token} and the decoder, ~4,900 lines of non-test code in 21 files)
# and labstack/echo 4.2.1 (the echo package and middleware/, ~7,600 lines in 36 files).
debian golang-github-hashicorp-hcl-dev 1.0.0-1.1 \
  be4123b5032261eb35e7420331064cfbc58c76b9b11a7c9c8d2209700fe062f8 \
  github.com/hashicorp/hcl hcl-1.0.0
debian golang-github-labstack-echo-dev 4.2.1-3 \
  3ec383b8cb239c415d9ab83b3e8871524931f6da13e75e41baf580b74b3599ef \
  github.com/labstack/echo echo-4.2.1
# --- end of the Go block
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# python-dateutil 2.9.0.post0 (`src/dateutil/`: parser, rrule, tz, relativedelta, easter,
# zoneinfo; with tests) and attrs 23.2.0 (`src/attr/` and `src/attrs/`, with tests/ and docs/).
pypi python-dateutil 2.9.0.post0 python-dateutil-2.9.0.post0.tar.gz \
  37dd54208da7e1cd875388217d5e00ebd4179249f90fb72437e91a35459a0ad3 python-dateutil-2.9.0.post0
pypi attrs 23.2.0 attrs-23.2.0.tar.gz \
  935dc3b529c262f6cf76e50877d35a4bd3c1de194fd41f47a2b7ae8f19971f30 attrs-23.2.0
# --- end of the Python block
