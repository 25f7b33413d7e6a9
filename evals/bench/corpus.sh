#!/usr/bin/env bash
# Builds the code-graph benchmark corpus: real Go and Python source from package
# registries, at least 1 million lines, in one directory outside the repository.
#
#   evals/bench/corpus.sh [DIR]        (default: $EXPLORE_BENCH_DIR, else /tmp/explore-bench)
#
# Go: Debian ships library source as golang-*-dev packages (under /usr/share/gocode/src);
# they and their golang-*-dev dependencies are installed with apt-get and copied.
# Python: source distributions (sdists) from PyPI, fetched with pip and unpacked.
# Needs root for apt-get (or the packages already installed) and pip. Prints the line
# counts at the end. Running it again reuses what is there.
set -euo pipefail

DIR="${1:-${EXPLORE_BENCH_DIR:-/tmp/explore-bench}}"
CORPUS="$DIR/corpus"
GO_PACKAGES=(
  golang-golang-x-tools-dev
  golang-golang-x-net-dev
  golang-google-cloud-dev
  golang-github-docker-docker-dev
  golang-github-gogo-protobuf-dev
)
PY_SDISTS=(
  "Django==5.0.6"
  "sympy==1.12.1"
)

mkdir -p "$CORPUS/go" "$CORPUS/python" "$DIR/sdists"

missing=()
for p in "${GO_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ! -e "$CORPUS/go/.done" ]; then
  # -L: Debian links some packages' files into place; the corpus holds real files.
  cp -rL /usr/share/gocode/src/. "$CORPUS/go/" 2>/dev/null || true
  touch "$CORPUS/go/.done"
fi

for spec in "${PY_SDISTS[@]}"; do
  name="${spec%%==*}"
  if [ ! -d "$CORPUS/python/$name" ]; then
    pip download --quiet --no-deps --no-binary :all: --dest "$DIR/sdists" "$spec"
    archive=$(ls "$DIR/sdists"/"${name}"-* "$DIR/sdists"/"${name,,}"-* 2>/dev/null | head -1)
    mkdir -p "$CORPUS/python/$name"
    tar -xzf "$archive" -C "$CORPUS/python/$name" --strip-components=1
  fi
done

go_lines=$(find "$CORPUS" -name '*.go' -type f -print0 | xargs -0 cat | wc -l)
py_lines=$(find "$CORPUS" -name '*.py' -type f -print0 | xargs -0 cat | wc -l)
go_files=$(find "$CORPUS" -name '*.go' -type f | wc -l)
py_files=$(find "$CORPUS" -name '*.py' -type f | wc -l)
echo "corpus: $CORPUS"
echo "go:     $go_files files, $go_lines lines"
echo "python: $py_files files, $py_lines lines"
echo "total:  $((go_lines + py_lines)) lines"
