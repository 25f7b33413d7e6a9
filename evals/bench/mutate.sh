#!/usr/bin/env bash
# One change to the benchmark corpus, for the "query after a change" rows of run.sh.
#
#   mutate.sh CORPUS edit     toggles a comment line inside NewRouter's body in gorilla/mux's
#                             mux.go: every later line moves, nothing else it declares
#                             changes (the common edit: a function body)
#   mutate.sh CORPUS add      writes a new Go file to gorilla/mux (a function and a method)
#   mutate.sh CORPUS delete   removes that file
#   mutate.sh CORPUS restore  undoes all of it
#
# With a third argument, an explore binary, `add` first removes the file and `delete`
# first writes it, each followed by `explore index` so that the store holds the tree (a
# query would only patch it, through a delta that already holds the change): the timed
# query then sees exactly one change against the store (for hyperfine --prepare).
set -euo pipefail
corpus=$1
explore=${3:-}
settle() {
  [ -n "$explore" ] || return 0
  "$explore" -q -C "$corpus" index >/dev/null
}
mux="$corpus/go/github.com/gorilla/mux"
file="$mux/mux.go"
new="$mux/bench_added.go"
mark=$'\t// bench edit'
case $2 in
  edit)
    if grep -qx "$mark" "$file"; then
      sed -i '/^\t\/\/ bench edit$/d' "$file"
    else
      sed -i 's|^func NewRouter() \*Router {$|&\n\t// bench edit|' "$file"
    fi
    ;;
  add)
    [ -e "$new" ] && { rm -f "$new"; settle; }
    cat >"$new" <<'GO'
package mux

// benchAdded is written by evals/bench/mutate.sh.
func benchAdded(r *Router) bool {
	return r.Match(nil, nil)
}

// BenchWalk is written by evals/bench/mutate.sh.
func (r *Router) BenchWalk() error {
	return r.Walk(nil)
}
GO
    ;;
  delete)
    [ -e "$new" ] || { "$0" "$corpus" add; settle; }
    rm -f "$new"
    ;;
  restore)
    rm -f "$new"
    sed -i '/^\t\/\/ bench edit$/d' "$file"
    ;;
  *) echo "usage: $0 CORPUS edit|add|delete|restore" >&2; exit 2 ;;
esac
