#!/usr/bin/env bash
# Fetches the codebases of the second held-out round (evals/heldout2/*.toml) into
# target/heldout2/.
#
# Held out again: four packages the project had never used, with questions written and
# verified before the engine was run on them (docs/evals.md, "Round 2"). Every source comes
# from a package registry, pinned by version and SHA-256, and is never committed:
#   - Go library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
#     install): go-chi/chi 5.0.7, urfave/cli v2 2.3.0;
#   - Python sdists from PyPI (`pip download --no-deps --no-binary :all:`): jinja2 3.1.4,
#     tomlkit 0.12.5.
# Archives are kept in target/heldout2/cache/ (a second run is offline).
#
#   bash evals/heldout2/fetch.sh && explore eval evals/heldout2
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/heldout2

debian golang-github-go-chi-chi-dev 5.0.7-1 \
  70beea5ca4f20af122e8083c91b56b6055df895595c7d9dcf286fadd4ad26f9b \
  github.com/go-chi/chi chi-5.0.7
debian golang-github-urfave-cli-v2-dev 2.3.0-2 \
  13d2a5cdf924d4c161d2f75d173888fc4dd4b1d0e04f64418f915979c811aa53 \
  github.com/urfave/cli/v2 cli-2.3.0
pypi jinja2 3.1.4 jinja2-3.1.4.tar.gz \
  4a3aee7acbbe7303aede8e9648d13b8bf88a429282aa6122a993f0ac800cb369 jinja2-3.1.4
pypi tomlkit 0.12.5 tomlkit-0.12.5.tar.gz \
  eef34fba39834d4d6b73c9ba7f3e4d1c417a4e56f89a7e96e090dd0d24b8fb3c tomlkit-0.12.5
