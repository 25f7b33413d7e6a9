# Shared by the fetch scripts of evals/ (thirdparty, heldout, issues). Source it with the
# destination folder (repository-relative) as its argument:
#
#   source "$(dirname "$0")/../fetch-lib.sh" target/heldout
#
# It moves to the repository root, sets `dest` (where trees are unpacked) and `cache`
# (where archives are kept, so a second run is offline) and `fixed` (below), and defines
# `pypi`, `pypi_list` and `debian`. A script may set `bench` (a folder of archives already
# downloaded, reused when present). Every source comes from a package registry, pinned by
# version and SHA-256, and is never committed.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dest=$1
cache=$dest/cache
mkdir -p "$cache"

# The issue suites' scripts pass their own arguments after the folder: `--with-fixed` sets
# `fixed=yes` (fetch the releases with the fixes too, to check the expected files).
fixed=no
if [ "${2:-}" = --with-fixed ]; then
  fixed=yes
fi

# Copies FILE from $bench into the cache when it is there.
reuse() {
  if [ -n "${bench:-}" ] && [ ! -f "$cache/$1" ] && [ -f "$bench/$1" ]; then
    cp "$bench/$1" "$cache/$1"
  fi
}

# pypi NAME VERSION ARCHIVE SHA256 DIR: the sdist unpacked as $dest/DIR (`pip download
# --no-deps --no-binary :all:`). An sdist whose top folder is not DIR is renamed to it.
pypi() {
  local name=$1 version=$2 archive=$3 sha256=$4 dir=$5
  if [ -d "$dest/$dir" ]; then
    echo "$dest/$dir is already there"
    return
  fi
  reuse "$archive"
  if [ ! -f "$cache/$archive" ]; then
    local pip
    pip=$(command -v pip3 || command -v pip || true)
    if [ -z "$pip" ]; then
      echo "error: pip is needed to download $name==$version (apt-get install python3-pip)" >&2
      exit 1
    fi
    "$pip" download --quiet --no-deps --no-binary :all: "$name==$version" -d "$cache"
  fi
  echo "$sha256  $cache/$archive" | sha256sum --check --quiet
  local tmp
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  tar -xzf "$cache/$archive" -C "$tmp"
  mv "$tmp"/* "$dest/$dir"
  rm -rf "$tmp"
  echo "fetched $dest/$dir"
}

# pypi_list: one sdist per line of stdin, `NAME VERSION SHA256`, fetched with `pypi` as
# NAME-VERSION (archive NAME-VERSION.tar.gz); blank lines and `#` comments are skipped.
pypi_list() {
  local name version sha256
  while read -r name version sha256; do
    case "$name" in '' | '#'*) continue ;; esac
    pypi "$name" "$version" "$name-$version.tar.gz" "$sha256" "$name-$version"
  done
}

# debian PACKAGE VERSION SHA256 GOPATH DIR: the Go source tree GOPATH of a golang-*-dev
# package (under /usr/share/gocode/src) as $dest/DIR (`apt-get download` + `dpkg -x`, no
# install).
debian() {
  local pkg=$1 version=$2 sha256=$3 gopath=$4 dir=$5
  local deb="${pkg}_${version}_all.deb"
  if [ -d "$dest/$dir" ]; then
    echo "$dest/$dir is already there"
    return
  fi
  reuse "$deb"
  if [ ! -f "$cache/$deb" ]; then
    if ! command -v apt-get >/dev/null; then
      echo "error: apt-get (Debian or Ubuntu) is needed to download $pkg=$version" >&2
      exit 1
    fi
    (cd "$cache" && { apt-get download -qq "$pkg=$version" 2>/dev/null ||
      { apt-get update -qq && apt-get download -qq "$pkg=$version"; }; })
  fi
  echo "$sha256  $cache/$deb" | sha256sum --check --quiet
  local tmp
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  dpkg -x "$cache/$deb" "$tmp"
  mv "$tmp/usr/share/gocode/src/$gopath" "$dest/$dir"
  rm -rf "$tmp"
  # Debian links a few files between packages; keep only regular files.
  find "$dest/$dir" -type l -delete
  echo "fetched $dest/$dir"
}

# npm NAME VERSION SHA256 DIR [SUBDIR...]: the npm package tarball (`npm pack`, which
# downloads without installing or running scripts) unpacked as $dest/DIR, keeping only
# the SUBDIRs given (e.g. `src`, the TypeScript sources, without the compiled `dist/`).
npm_pack() {
  local name=$1 version=$2 sha256=$3 dir=$4
  shift 4
  local archive="${name#@}-$version.tgz"
  archive=${archive//\//-}
  if [ -d "$dest/$dir" ]; then
    echo "$dest/$dir is already there"
    return
  fi
  reuse "$archive"
  if [ ! -f "$cache/$archive" ]; then
    if ! command -v npm >/dev/null; then
      echo "error: npm is needed to download $name@$version" >&2
      exit 1
    fi
    (cd "$cache" && npm pack --silent "$name@$version" >/dev/null)
  fi
  echo "$sha256  $cache/$archive" | sha256sum --check --quiet
  local tmp
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  tar -xzf "$cache/$archive" -C "$tmp"
  mkdir -p "$tmp/keep"
  if [ $# -eq 0 ]; then
    mv "$tmp/package"/* "$tmp/keep/"
  else
    for sub in "$@"; do
      mv "$tmp/package/$sub" "$tmp/keep/$sub"
    done
  fi
  mv "$tmp/keep" "$dest/$dir"
  rm -rf "$tmp"
  echo "fetched $dest/$dir"
}

# crate NAME VERSION SHA256: the .crate tarball from crates.io's static host (what `cargo`
# itself downloads; nothing is built) unpacked as $dest/NAME-VERSION.
crate() {
  local name=$1 version=$2 sha256=$3
  local archive="$name-$version.crate"
  if [ -d "$dest/$name-$version" ]; then
    echo "$dest/$name-$version is already there"
    return
  fi
  reuse "$archive"
  if [ ! -f "$cache/$archive" ]; then
    curl -sSfL -o "$cache/$archive.partial" "https://static.crates.io/crates/$name/$archive"
    mv "$cache/$archive.partial" "$cache/$archive"
  fi
  echo "$sha256  $cache/$archive" | sha256sum --check --quiet
  local tmp
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  tar -xzf "$cache/$archive" -C "$tmp"
  mv "$tmp/$name-$version" "$dest/$name-$version"
  rm -rf "$tmp"
  echo "fetched $dest/$name-$version"
}

# debian_src_zip PACKAGE VERSION SHA256 ZIP PREFIX STRIP DIR: the files under PREFIX of the
# zip archive ZIP inside a Debian package (`apt-get download` + `dpkg -x`, no install; e.g.
# openjdk-17-source's src.zip), unpacked as $dest/DIR with the leading STRIP folder removed.
debian_src_zip() {
  local pkg=$1 version=$2 sha256=$3 zip=$4 prefix=$5 strip=$6 dir=$7
  local deb="${pkg}_${version}_all.deb"
  if [ -d "$dest/$dir" ]; then
    echo "$dest/$dir is already there"
    return
  fi
  reuse "$deb"
  if [ ! -f "$cache/$deb" ]; then
    (cd "$cache" && { apt-get download -qq "$pkg=$version" 2>/dev/null ||
      { apt-get update -qq && apt-get download -qq "$pkg=$version"; }; })
  fi
  echo "$sha256  $cache/$deb" | sha256sum --check --quiet
  local tmp
  tmp=$(mktemp -d "$dest/unpack.XXXXXX")
  dpkg -x "$cache/$deb" "$tmp/deb"
  (cd "$tmp" && unzip -q "deb/$zip" "$prefix*" -d out)
  mkdir -p "$dest/$dir"
  mv "$tmp/out/$strip"/* "$dest/$dir/"
  rm -rf "$tmp"
  echo "fetched $dest/$dir"
}
