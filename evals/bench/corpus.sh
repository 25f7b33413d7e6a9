#!/usr/bin/env bash
# Builds the code-graph benchmark corpus: real Go and Python source taken from package
# registries, at least one million lines, so that the numbers in docs/performance.md come
# from code people actually write rather than from a synthetic generator.
#
#   evals/bench/corpus.sh [DIR]     (default: target/bench-corpus under the repository)
#
# Go: Debian ships library source as golang-*-dev packages. Each is fetched with
# `apt-get download` and unpacked with `dpkg -x` (no root install: nothing lands in
# /usr), then its /usr/share/gocode/src tree is moved into the corpus.
# Python: source distributions from PyPI, fetched with `pip download --no-binary :all:`
# and unpacked.
#
# Layout: DIR/src is the corpus (the directory the benchmark indexes), DIR/downloads
# keeps the .deb and sdist files. Symbolic links are removed from DIR/src so that every
# tool under test (explore, ctags, rg) sees exactly the same regular files.
#
# Idempotent: a package already unpacked is not fetched again (remove DIR/src to rebuild
# after changing the lists; the downloads are kept). The corpus is
# gitignored (target/); never commit it. Prints file and line counts per language.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
DIR="${1:-$repo/target/bench-corpus}"
SRC="$DIR/src"
DL="$DIR/downloads"

# Well-known Go libraries; versions are whatever Debian's release ships (recorded in
# DIR/versions.txt and in docs/performance.md). Left out on purpose, to keep the corpus
# near 1.4M lines of mostly hand-written code: golang-golang-x-text-dev (0.7M lines,
# mostly Unicode tables), golang-github-gogo-protobuf-dev (0.6M, generated), and the very
# large applications (docker, etcd, containerd).
GO_PACKAGES=(
  golang-github-prometheus-client-golang-dev
  golang-github-prometheus-common-dev
  golang-golang-x-net-dev
  golang-golang-x-crypto-dev
  golang-github-spf13-cobra-dev
  golang-github-spf13-viper-dev
  golang-google-grpc-dev
  golang-github-gorilla-mux-dev
  golang-github-gorilla-websocket-dev
  golang-github-sirupsen-logrus-dev
  golang-github-stretchr-testify-dev
  golang-go.uber-zap-dev
  golang-github-gin-gonic-gin-dev
  golang-github-miekg-dns-dev
  golang-github-go-sql-driver-mysql-dev
  golang-github-lib-pq-dev
  golang-github-klauspost-compress-dev
  golang-github-minio-minio-go-v7-dev
  golang-github-coreos-go-systemd-dev
  golang-github-google-go-cmp-dev
  golang-github-urfave-cli-dev
  golang-gopkg-yaml.v3-dev
  golang-github-google-go-github-dev
)

# Popular Python projects, pinned so the corpus is the same on every machine.
PY_SDISTS=(
  "Django==5.0.6"
  "requests==2.32.3"
  "Flask==3.0.3"
  "Werkzeug==3.0.3"
  "Jinja2==3.1.4"
  "click==8.1.7"
  "botocore==1.34.120"
  "boto3==1.34.120"
)

mkdir -p "$SRC/go" "$SRC/python" "$DL"
: >>"$DIR/versions.txt"

need_update=1
for pkg in "${GO_PACKAGES[@]}"; do
  marker="$SRC/go/.$pkg.done"
  [ -e "$marker" ] && continue
  if ! ls "$DL/${pkg}"_*.deb >/dev/null 2>&1; then
    if [ "$need_update" = 1 ]; then
      apt-get update -qq || echo "apt-get update failed; trying with the current lists" >&2
      need_update=0
    fi
    # apt warns that it downloads as root into a directory _apt cannot write; harmless.
    (cd "$DL" && apt-get download -qq "$pkg" 2>&1 | grep -v 'unsandboxed' >&2 || true)
    ls "$DL/${pkg}"_*.deb >/dev/null 2>&1 || { echo "could not download $pkg" >&2; exit 1; }
  fi
  debs=("$DL/${pkg}"_*.deb)
  deb="${debs[0]}"
  tmp=$(mktemp -d "$DIR/unpack.XXXXXX")
  dpkg -x "$deb" "$tmp"
  if [ -d "$tmp/usr/share/gocode/src" ]; then
    # Packages may share parent directories (github.com/...), so merge, never replace.
    cp -a "$tmp/usr/share/gocode/src/." "$SRC/go/"
  else
    echo "warning: $pkg has no /usr/share/gocode/src" >&2
  fi
  rm -rf "$tmp"
  echo "$(basename "$deb" .deb)" >>"$DIR/versions.txt"
  touch "$marker"
done

# The sdist file of NAME VER in $DL, whatever the case of its name (PyPI normalises some).
sdist_of() {
  local f base
  for f in "$DL"/*; do
    base=$(basename "$f" | tr '[:upper:]' '[:lower:]')
    case "$base" in
      "$(echo "$1-$2" | tr '[:upper:]' '[:lower:]')".tar.gz | \
        "$(echo "$1-$2" | tr '[:upper:]' '[:lower:]')".zip)
        echo "$f"
        return
        ;;
    esac
  done
}

for spec in "${PY_SDISTS[@]}"; do
  name="${spec%%==*}"
  ver="${spec##*==}"
  dest="$SRC/python/$name-$ver"
  [ -d "$dest" ] && continue
  archive=$(sdist_of "$name" "$ver")
  if [ -z "$archive" ]; then
    pip download --quiet --no-deps --no-binary :all: --dest "$DL" "$spec"
    archive=$(sdist_of "$name" "$ver")
  fi
  [ -n "$archive" ] || { echo "no sdist for $spec in $DL" >&2; exit 1; }
  tmp="$dest.partial"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  case "$archive" in
    *.zip) (cd "$tmp" && unzip -q "$archive") ;;
    *) tar -xf "$archive" -C "$tmp" ;;
  esac
  mv "$tmp" "$dest"
  echo "$name-$ver (PyPI sdist)" >>"$DIR/versions.txt"
done

# Symlinks (Debian links some files between packages) would be followed by ctags but not
# by explore or rg; drop them so all three read the same files.
find "$SRC" -type l -delete
sort -u -o "$DIR/versions.txt" "$DIR/versions.txt"

count() { # extension
  local files lines
  files=$(find "$SRC" -type f -name "*.$1" | wc -l)
  lines=$(find "$SRC" -type f -name "*.$1" -print0 | xargs -0 cat | wc -l)
  echo "$files $lines"
}
read -r go_files go_lines < <(count go)
read -r py_files py_lines < <(count py)
echo "corpus:  $SRC"
echo "go:      $go_files files, $go_lines lines"
echo "python:  $py_files files, $py_lines lines"
echo "total:   $((go_files + py_files)) files, $((go_lines + py_lines)) lines"
echo "size:    $(du -sh "$SRC" | cut -f1)"
