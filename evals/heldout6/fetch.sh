#!/usr/bin/env bash
# Fetches the codebases of the sixth held-out round (evals/heldout6/*.toml) into
# target/heldout6/.
#
# Held out again and sealed: packages the project had never asked questions about, with
# questions written and verified before the engine was run on them (docs/evals.md,
# "Round 6 (sealed)"). Every source comes from a package registry, pinned by version and
# SHA-256, and is never committed. Archives are kept in target/heldout6/cache/ (a second run
# is offline).
#
#   bash evals/heldout6/fetch.sh && explore eval evals/heldout6
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout6

# --- Go: library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
# install): go-resty/resty 2.6.0 (HTTP and REST client: Client, Request, Response,
# middleware, retries, redirect policies; ~3,600 lines of non-test code in 11 files) and
# jessevdk/go-flags 1.4.0 (command-line option parser driven by struct tags: Parser,
# Command, Group, Option, ini files, help and man pages; ~5,100 lines in 27 files).
debian golang-github-go-resty-resty-dev 2.6.0-1 \
  f428464f5f8732aa14f5ff70fc54f58c2300cde35c44966e1a97243bff14e1f6 \
  github.com/go-resty/resty resty-2.6.0
debian golang-github-jessevdk-go-flags-dev 1.4.0-6 \
  07e5113363bbd888833f54f93b70905b35f8863466d4de1818a28818a498bc44 \
  github.com/jessevdk/go-flags go-flags-1.4.0
# --- end of the Go block
# --- Python: sdist from PyPI (`pip download --no-deps --no-binary :all:`) ----------------
# WTForms 3.1.2 (`src/wtforms/`: form, fields, validators, widgets, csrf, meta, i18n; with
# tests/ and docs/) and structlog 24.1.0 (`src/structlog/`: processors, dev console
# renderer, bound loggers, stdlib integration, contextvars, testing; with tests/ and docs/).
pypi wtforms 3.1.2 wtforms-3.1.2.tar.gz \
  f8d76180d7239c94c6322f7990ae1216dae3659b7aa1cee94b6318bdffb474b9 wtforms-3.1.2
pypi structlog 24.1.0 structlog-24.1.0.tar.gz \
  41a09886e4d55df25bdcb9b5c9674bccfab723ff43e0a86a1b7b236be8e57b16 structlog-24.1.0
# --- end of the Python block
