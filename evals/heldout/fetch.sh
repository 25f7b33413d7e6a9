#!/usr/bin/env bash
# Fetches the codebases of the held-out suites (evals/heldout/*.toml) into target/heldout/.
#
# Held-out: packages the project has never used while developing the engine, with
# questions written before any engine change (issue 13; docs/evals.md, "Held-out suites").
# Every source comes from a package registry, pinned by version and SHA-256, and is never
# committed:
#   - Go library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
#     install): sirupsen/logrus 1.9.0, spf13/afero 1.9.3;
#   - Python sdists from PyPI (`pip download --no-deps --no-binary :all:`): marshmallow
#     3.21.3, httpx 0.27.0.
# Archives are kept in target/heldout/cache/ (a second run is offline).
#
#   bash evals/heldout/fetch.sh && explore eval evals/heldout
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout

debian golang-github-sirupsen-logrus-dev 1.9.0-1 \
  51fb87b05452e96be38b97c03d5f997f6ce3a144421f911338d6c4ea2e8aa118 \
  github.com/sirupsen/logrus logrus-1.9.0
debian golang-github-spf13-afero-dev 1.9.3-1 \
  e36ecb5c458967c948654f5a906cdb435110bfffbdc3c30e6a4021c0ec05146b \
  github.com/spf13/afero afero-1.9.3
pypi marshmallow 3.21.3 marshmallow-3.21.3.tar.gz \
  4f57c5e050a54d66361e826f94fba213eb10b67b2fdb02c3e0343ce207ba1662 marshmallow-3.21.3
pypi httpx 0.27.0 httpx-0.27.0.tar.gz \
  a0cb88a46f32dc874e04ee956e4c2764aba2aa228f650b06788ba6bda2962ab5 httpx-0.27.0
