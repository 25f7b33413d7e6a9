#!/usr/bin/env bash
# Fetches the third-party codebases of evals/thirdparty/*.toml into target/thirdparty/.
#
# Every source comes from a package registry, pinned by version and SHA-256, and is never
# committed:
#   - Python sdists from PyPI (`pip download --no-deps --no-binary :all:`): click 8.1.7,
#     Flask 3.0.3, requests 2.32.3;
#   - Go library source from Debian (`apt-get download`, unpacked with `dpkg -x`, no
#     install): gorilla/mux 1.8.0, spf13/cobra 1.6.1;
#   - TypeScript sources from npm (`npm pack`, no install, no scripts): rxjs 7.8.1's
#     `src/` (the package also ships compiled `dist/`, left out);
#   - a Rust crate from crates.io (the `.crate` tarball cargo downloads): ignore 0.4.23;
#   - Java sources from Debian's openjdk-17-source (`apt-get download`, its `src.zip`):
#     the `java.util.logging` package of OpenJDK 17.0.21.
# Archives are kept in target/thirdparty/cache/ (a second run is offline); an archive
# already downloaded by evals/bench/corpus.sh (target/bench-corpus/downloads/) is reused.
#
#   bash evals/thirdparty/fetch.sh && explore eval evals/thirdparty
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/thirdparty
bench=target/bench-corpus/downloads

pypi click 8.1.7 click-8.1.7.tar.gz \
  ca9853ad459e787e2192211578cc907e7594e294c7ccc834310722b41b9ca6de click-8.1.7
pypi Flask 3.0.3 flask-3.0.3.tar.gz \
  ceb27b0af3823ea2737928a4d99d125a06175b8512c445cbd9a9ce200ef76842 flask-3.0.3
pypi requests 2.32.3 requests-2.32.3.tar.gz \
  55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760 requests-2.32.3
debian golang-github-gorilla-mux-dev 1.8.0-1 \
  0880a4019fe68496a0e0a749c2948c029e489f49edd448bed2fedaba33f848c2 \
  github.com/gorilla/mux mux-1.8.0
debian golang-github-spf13-cobra-dev 1.6.1-1 \
  4f5d20855133319beef3c5b49d3c21a0406f270bf94fb4b6f4d406b691283cb2 \
  github.com/spf13/cobra cobra-1.6.1
npm_pack rxjs 7.8.1 \
  c532167725ab7d085123209156c93cef22f2479cb9c8527060f1cd903aa9d149 rxjs-7.8.1 src
crate ignore 0.4.23 6d89fd380afde86567dfba715db065673989d6253f42b88179abd3eae47bda4b
debian_src_zip openjdk-17-source '17.0.21.1+2-1~deb12u1' \
  5106aa3881e3b49568823ebdfc3755d4043f6f53bbfc996d0efee03172dc0a9b \
  usr/lib/jvm/openjdk-17/lib/src.zip java.logging/java/util/logging/ java.logging \
  jdk17-logging

# This repository's own code at a pinned commit (Rust, with the Go and Python fixtures
# under evals/fixtures): a mixed repository whose main language the code graph does not
# parse. `git archive` of a fixed commit keeps the expected lines stable while the
# working tree moves on.
explore_commit=5fcf9672ae7cdb3718796ab38bba09c03b438233
explore_dir=$dest/explore-${explore_commit:0:7}
if [ -d "$explore_dir" ]; then
  echo "$explore_dir is already there"
else
  mkdir -p "$explore_dir.partial"
  git archive "$explore_commit" | tar -x -C "$explore_dir.partial"
  mv "$explore_dir.partial" "$explore_dir"
  echo "fetched $explore_dir"
fi
