#!/usr/bin/env bash
# The code-graph benchmark of issue 3, from one run on this machine:
#   (1) cold `explore index` (empty EXPLORE_CACHE_DIR)  against
#   (2) the pure tree-sitter parse of the same files (the floor; bench code_graph_floor)
#       and (3) `ctags -R` (universal-ctags);
#   (4) warm `explore tool code '{"operation":"find",...}'` against `rg -n`;
#   (5) a first query on a never-indexed repository against `rg -n`;
#   (6) peak memory (max RSS from /usr/bin/time -v);
#   (7) a `find` right after one file is edited, one added, one deleted (evals/bench/
#       mutate.sh), and a warm concept question to the local engine, each against `rg -n`.
#
#   evals/bench/corpus.sh            # once: >= 1M lines of Go and Python
#   evals/bench/run.sh               # prints the figures, writes target/bench-results/
#
# Environment: CORPUS (default target/bench-corpus/src), OUT (target/bench-results),
# EXPLORE (default target/release/explore, built here unless NO_BUILD=1), FLOOR (the
# code_graph_floor bench binary; default: `cargo bench` runs it), RUNS (runs of each cold
# measurement, default 2), WARM_RUNS (hyperfine runs of each warm one, default 10),
# FIRST_RUNS (hyperfine runs of each first query on an empty cache, default 5),
# SYMBOLS (space separated, default "ServeHTTP QuerySet NewClient"), FLOOR_RUNS (default 1),
# CHANGE_RUNS (hyperfine runs of each query after a change, default 5), CONCEPT (the
# concept question), BEFORE (another explore binary, e.g. the main branch's, measured in
# the same run for the rows of (7)), SECTIONS ("all"; "changes" for (7) alone; "concept"
# for (7)'s concept question and pasted report alone), REPORT (the pasted report of (7), a
# file; default evals/bench/report.md, arrow #1056's text).
# Cold runs are timed with GNU time (wall, user+sys CPU and max RSS from the same run);
# warm ones with hyperfine (median). Wall time grows with the machine's load, CPU time
# much less, so both are printed, with the load average at start and end.
# Needs hyperfine, universal-ctags, ripgrep, GNU time and jq (all from Debian:
# apt-get install hyperfine universal-ctags ripgrep time jq).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
CORPUS="${CORPUS:-$repo/target/bench-corpus/src}"
OUT="${OUT:-$repo/target/bench-results}"
EXPLORE="${EXPLORE:-$repo/target/release/explore}"
RUNS="${RUNS:-2}"
WARM_RUNS="${WARM_RUNS:-10}"
FIRST_RUNS="${FIRST_RUNS:-5}"
FLOOR_RUNS="${FLOOR_RUNS:-1}"
read -r -a SYMS <<<"${SYMBOLS:-ServeHTTP QuerySet NewClient}"
CHANGE_RUNS="${CHANGE_RUNS:-5}"
CONCEPT="${CONCEPT:-how are retries with backoff handled}"
BEFORE="${BEFORE:-}"
SECTIONS="${SECTIONS:-all}"
REPORT="${REPORT:-$here/report.md}"

for tool in hyperfine ctags rg jq /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "missing $tool (see the header of $0)" >&2; exit 2; }
done
ctags --version | head -1 | grep -q Universal || { echo "ctags is not universal-ctags" >&2; exit 2; }
[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS; run evals/bench/corpus.sh" >&2; exit 2; }
CORPUS="$(cd "$CORPUS" && pwd -P)"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd -P)"

if [ "${NO_BUILD:-0}" != 1 ]; then
  (cd "$repo" && cargo build --release -q -p explore-cli)
  (cd "$repo" && cargo build --release -q -p explore-tools --bench code_graph_floor)
fi
[ -x "$EXPLORE" ] || { echo "no explore binary at $EXPLORE" >&2; exit 2; }

log() { printf '%s\n' "$*" | tee -a "$OUT/log.txt" >&2; }
: >"$OUT/log.txt"
load() { cut -d' ' -f1-3 /proc/loadavg; }

# One run of a command under GNU time: prints "wall_s user_s sys_s maxrss_kib".
timed() {
  /usr/bin/time -f '%e %U %S %M' -o "$OUT/time.txt" "$@" >/dev/null 2>"$OUT/stderr.txt" || true
  tail -1 "$OUT/time.txt"
}
# N runs of a command, each after PREP (a command, may be ":"): prints the median wall,
# median user+sys CPU and the largest max RSS, "wall_s cpu_s maxrss_kib".
runs_of() { # N PREP CMD...
  local n=$1 prep=$2 i
  shift 2
  local samples
  samples=$(for ((i = 0; i < n; i++)); do
    $prep
    timed "$@"
  done)
  local k=$(((n + 1) / 2))
  printf '%s %s %s\n' \
    "$(awk '{print $1}' <<<"$samples" | sort -g | sed -n "${k}p")" \
    "$(awk '{print $2 + $3}' <<<"$samples" | sort -g | sed -n "${k}p")" \
    "$(awk '{print $4}' <<<"$samples" | sort -g | tail -1)"
}
# Median seconds of a hyperfine JSON export.
median() { jq -r '.results[0].median' "$1"; }
# Largest max RSS (KiB) of one run.
max_rss() { timed "$@" | awk '{print $4}'; }

# --- the machine -------------------------------------------------------------------
{
  echo "date:      $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu:       $(lscpu | awk -F': +' '/Model name/ {print $2; exit}'), $(nproc) cores"
  echo "memory:    $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "kernel:    $(uname -sr)"
  echo "os:        $(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "explore:   $("$EXPLORE" --version 2>/dev/null || echo unknown), git $(cd "$repo" && git rev-parse --short HEAD)"
  echo "ctags:     $(ctags --version | head -1)"
  echo "rg:        $(rg --version | head -1)"
  echo "hyperfine: $(hyperfine --version)"
  echo "load at start: $(load)"
} | tee "$OUT/machine.txt" >&2

go_lines=$(find "$CORPUS" -type f -name '*.go' -print0 | xargs -0 cat | wc -l)
py_lines=$(find "$CORPUS" -type f -name '*.py' -print0 | xargs -0 cat | wc -l)
go_files=$(find "$CORPUS" -type f -name '*.go' | wc -l)
py_files=$(find "$CORPUS" -type f -name '*.py' | wc -l)
log "corpus $CORPUS: Go $go_files files $go_lines lines, Python $py_files files $py_lines lines"

# Warm the page cache: every tool below reads from memory, none pays for the disk.
find "$CORPUS" -type f \( -name '*.go' -o -name '*.py' \) -print0 | xargs -0 cat >/dev/null

if [ "$SECTIONS" = all ]; then
# --- (2) the floor and the in-process breakdown --------------------------------------
log "floor: cargo bench --bench code_graph_floor (load $(load))"
if [ -n "${FLOOR:-}" ]; then
  "$FLOOR" "$CORPUS" --runs "$FLOOR_RUNS" --threads 2 --json "$OUT/floor.json"
else
  (cd "$repo" && cargo bench -q -p explore-tools --bench code_graph_floor -- "$CORPUS" \
    --runs "$FLOOR_RUNS" --threads 2 --json "$OUT/floor.json")
fi | tee "$OUT/floor.txt" >&2

# --- (1) cold explore index, (3) ctags -R ---------------------------------------------
export EXPLORE_CACHE_DIR="$OUT/cache-cold"
clear_cache() { rm -rf "$EXPLORE_CACHE_DIR"; }
log "cold index: $RUNS runs (load $(load))"
read -r cold cold_cpu cold_rss < <(runs_of "$RUNS" clear_cache "$EXPLORE" -q -C "$CORPUS" index --json)
clear_cache
"$EXPLORE" -q -C "$CORPUS" index --json >"$OUT/index.json"
log "  wall $cold s, cpu $cold_cpu s, max rss $cold_rss KiB; $(jq -c '{files,lines,symbols,edges,skipped,seconds}' "$OUT/index.json")"

log "ctags -R: $RUNS runs (load $(load))"
read -r ctags_s ctags_cpu ctags_rss < <(runs_of "$RUNS" : ctags -R -f "$OUT/tags" --languages=Go,Python "$CORPUS")
ctags_tags=$(grep -vc '^!_' "$OUT/tags" || true)
log "  wall $ctags_s s, cpu $ctags_cpu s, max rss $ctags_rss KiB, $ctags_tags tags"

# --- (4) warm find vs rg, (5) first query vs rg --------------------------------------
# The warm cache is the one the cold runs left behind.
export EXPLORE_CACHE_DIR="$OUT/cache-warm"
clear_cache
"$EXPLORE" -q -C "$CORPUS" index >/dev/null
rows=()
for sym in "${SYMS[@]}"; do
  args="{\"operation\":\"find\",\"symbol\":\"$sym\"}"
  log "find $sym: warm, $WARM_RUNS runs each (load $(load))"
  # rg exits 1 when nothing matches; -i keeps hyperfine going either way.
  hyperfine -N -i --style basic --warmup 2 --runs "$WARM_RUNS" \
    --export-json "$OUT/rg-$sym.json" "rg -n $sym $CORPUS" >&2
  hyperfine -N --style basic --warmup 2 --runs "$WARM_RUNS" \
    --export-json "$OUT/warm-$sym.json" \
    "$EXPLORE -q -C $CORPUS tool code '$args'" >&2
  "$EXPLORE" -q -C "$CORPUS" tool code "$args" >"$OUT/find-$sym.txt" || true
  rg_hits=$(rg -n "$sym" "$CORPUS" | wc -l || true)
  warm_rss=$(max_rss "$EXPLORE" -q -C "$CORPUS" tool code "$args")
  rg_rss=$(max_rss rg -n "$sym" "$CORPUS")
  rows+=("$sym $(median "$OUT/rg-$sym.json") $(median "$OUT/warm-$sym.json") $rg_hits $warm_rss $rg_rss")
done

# A first query on a repository never indexed: answered from the files that mention the
# name (docs/code-graph.md), so its cost depends on the symbol: every symbol, hyperfine
# with the cache removed before each run. No detached background build (it would load
# the machine during the next runs).
export EXPLORE_CACHE_DIR="$OUT/cache-fresh"
export EXPLORE_BACKGROUND_INDEX=0
first_rows=()
for sym in "${SYMS[@]}"; do
  args="{\"operation\":\"find\",\"symbol\":\"$sym\"}"
  log "first find $sym on a never-indexed repo: $FIRST_RUNS runs (load $(load))"
  hyperfine -N --style basic --runs "$FIRST_RUNS" --prepare "rm -rf $EXPLORE_CACHE_DIR" \
    --export-json "$OUT/first-$sym.json" \
    "$EXPLORE -q -C $CORPUS tool code '$args'" >&2
  clear_cache
  first_rss=$(max_rss "$EXPLORE" -q -C "$CORPUS" tool code "$args")
  clear_cache
  first_rows+=("$sym $(median "$OUT/first-$sym.json") $first_rss")
done

fi

# --- (7) a query right after a change, a warm concept question -------------------------
if [ "$SECTIONS" = summary ]; then
  # Only the table of (7), from the exports of an earlier run.
  rg_sym=NewRouter
  change_rows=()
  [ -n "$BEFORE" ] && change_rows+=(before)
  change_rows+=(after)
else
# Each timed run follows one change (hyperfine --prepare): an edit inside a function body
# (toggled, so every run sees a new one), a new file, a deleted file; before each add or
# delete, mutate.sh brings the tree back and lets explore catch up, so only the one change
# is timed. rg reads the same tree. BEFORE, when set, is timed the same way on its own
# cache, in the same run.
mutate="$here/mutate.sh"
"$mutate" "$CORPUS" restore
rg_sym=NewRouter
if [ "$SECTIONS" != concept ]; then
log "rg -n $rg_sym: $WARM_RUNS runs (load $(load))"
hyperfine -N -i --style basic --warmup 2 --runs "$WARM_RUNS" \
  --export-json "$OUT/rg-change.json" "rg -n $rg_sym $CORPUS" >&2
fi
log "rg -n 'retr(y|ies)': $WARM_RUNS runs (load $(load))"
hyperfine -N -i --style basic --warmup 2 --runs "$WARM_RUNS" \
  --export-json "$OUT/rg-concept.json" "rg -n retr(y|ies) $CORPUS" >&2
change_rows=()
binaries=("after:$EXPLORE")
[ -n "$BEFORE" ] && binaries=("before:$BEFORE" "${binaries[@]}")
for entry in "${binaries[@]}"; do
  label=${entry%%:*}
  bin=${entry#*:}
  export EXPLORE_CACHE_DIR="$OUT/cache-change-$label"
  export EXPLORE_BACKGROUND_INDEX=0
  rm -rf "$EXPLORE_CACHE_DIR"
  "$bin" -q -C "$CORPUS" index >/dev/null
  find_args="{\"operation\":\"find\",\"symbol\":\"$rg_sym\"}"
  query="$bin -q -C $CORPUS tool code '$find_args'"
  changes=(edit add delete)
  [ "$SECTIONS" = concept ] && changes=()
  for change in "${changes[@]}"; do
    log "$label: find after $change, $CHANGE_RUNS runs (load $(load))"
    hyperfine -N --style basic --runs "$CHANGE_RUNS" \
      --prepare "$mutate $CORPUS $change $bin" \
      --export-json "$OUT/change-$label-$change.json" "$query" >&2
    "$mutate" "$CORPUS" restore
    "$bin" -q -C "$CORPUS" tool code "$find_args" >/dev/null
  done
  log "$label: warm concept question, $WARM_RUNS runs (load $(load))"
  hyperfine -N -i --style basic --warmup 2 --runs "$WARM_RUNS" \
    --export-json "$OUT/concept-$label.json" \
    "$bin -q --json --engine local -C $CORPUS '$CONCEPT'" >&2
  # A pasted report (several lines, quotes): read from stdin, so through the shell, whose
  # start hyperfine subtracts.
  log "$label: warm pasted report ($(wc -l <"$REPORT") lines), $WARM_RUNS runs (load $(load))"
  hyperfine -i --style basic --warmup 2 --runs "$WARM_RUNS" \
    --export-json "$OUT/report-$label.json" \
    "$bin -q --json --engine local -C $CORPUS - < $REPORT" >&2
  change_rows+=("$label")
done
unset EXPLORE_BACKGROUND_INDEX
fi

# --- summary -------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ms() { awk -v a="$1" 'BEGIN { printf "%.0f ms", a * 1000 }'; }
s() { awk -v a="$1" 'BEGIN { printf "%.2f s", a }'; }
mib() { awk -v a="$1" 'BEGIN { printf "%.0f MiB", a / 1024 }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t) ? "met" : "not met" }'; }
# The rows of (7), one set per binary.
change_summary() {
  local rg_c rg_q label change t r c rc
  rg_c=$([ -f "$OUT/rg-change.json" ] && median "$OUT/rg-change.json" || echo 1)
  rg_q=$(median "$OUT/rg-concept.json")
  for label in "${change_rows[@]}"; do
    for change in edit add delete; do
      [ -f "$OUT/change-$label-$change.json" ] || continue
      t=$(median "$OUT/change-$label-$change.json")
      c=$(cpu "$OUT/change-$label-$change.json")
      r=$(ratio "$t" "$rg_c")
      rc=$(ratio "$c" "$(cpu "$OUT/rg-change.json")")
      echo "| $label: \`find $rg_sym\` right after one file is $(done_word "$change") (median of $CHANGE_RUNS) | $(ms "$t") ($(ms "$c")) | \`rg -n $rg_sym\` $(ms "$rg_c") ($(ms "$(cpu "$OUT/rg-change.json")")) | ${r}x (${rc}x) | ≤ 1x | $(verdict "$r" 1) |"
    done
    t=$(median "$OUT/concept-$label.json")
    c=$(cpu "$OUT/concept-$label.json")
    r=$(ratio "$t" "$rg_q")
    rc=$(ratio "$c" "$(cpu "$OUT/rg-concept.json")")
    echo "| $label: warm concept question \"$CONCEPT\" (median of $WARM_RUNS) | $(ms "$t") ($(ms "$c")) | \`rg -n 'retr(y\\|ies)'\` $(ms "$rg_q") ($(ms "$(cpu "$OUT/rg-concept.json")")) | ${r}x (${rc}x) | ≤ 2x | $(verdict "$r" 2) |"
    [ -f "$OUT/report-$label.json" ] || continue
    t=$(median "$OUT/report-$label.json")
    c=$(cpu "$OUT/report-$label.json")
    r=$(ratio "$t" "$rg_q")
    rc=$(ratio "$c" "$(cpu "$OUT/rg-concept.json")")
    echo "| $label: warm pasted report ($(wc -l <"$REPORT") lines, median of $WARM_RUNS) | $(ms "$t") ($(ms "$c")) | same | ${r}x (${rc}x) | ≤ 1 s | $(verdict "$t" 1) |"
  done
}
# Mean user + system seconds of a hyperfine JSON export.
cpu() { jq -r '.results[0].user + .results[0].system' "$1"; }
done_word() { case $1 in edit) echo edited ;; add) echo added ;; delete) echo deleted ;; esac; }

if [ "$SECTIONS" != all ]; then
  {
    echo "load at end: $(load)"
    echo
    echo "| measure | wall | compared with | ratio | target | verdict |"
    echo "|---|---|---|---|---|---|"
    change_summary
  } | tee "$OUT/summary.md"
  exit 0
fi

floor=$(jq -r .floor.wall_s "$OUT/floor.json")
floor_cpu=$(jq -r .floor.cpu_s "$OUT/floor.json")
lines=$(jq -r .lines "$OUT/index.json")
{
  echo "load at end: $(load)"
  echo
  echo "| measure | wall (CPU) | compared with | ratio wall (CPU) | target | verdict |"
  echo "|---|---|---|---|---|---|"
  r=$(ratio "$cold" "$floor")
  rc=$(ratio "$cold_cpu" "$floor_cpu")
  echo "| cold \`explore index\` (process, median of $RUNS) | $(s "$cold") ($(s "$cold_cpu")) | parse floor $(s "$floor") ($(s "$floor_cpu")) | ${r}x (${rc}x) | ≤ 1.3x | $(verdict "$r" 1.3) |"
  echo "| cold \`explore index\` vs \`ctags -R\` (one thread) | $(s "$cold") ($(s "$cold_cpu")) | ctags $(s "$ctags_s") ($(s "$ctags_cpu")), $ctags_tags tags | $(ratio "$cold" "$ctags_s")x ($(ratio "$cold_cpu" "$ctags_cpu")x) | — | — |"
  rg_first=""
  for row in "${rows[@]}"; do
    read -r sym rg_s warm_s hits warm_rss rg_rss <<<"$row"
    [ -n "$rg_first" ] || rg_first=$rg_s
    r=$(ratio "$warm_s" "$rg_s")
    echo "| warm \`find $sym\` (process, median of $WARM_RUNS) | $(ms "$warm_s") | \`rg -n $sym\` $(ms "$rg_s") ($hits lines) | ${r}x | ≤ 0.2x | $(verdict "$r" 0.2) |"
  done
  first_rss_max=0
  for row in "${first_rows[@]}"; do
    read -r sym first_s first_rss <<<"$row"
    rg_s=$(median "$OUT/rg-$sym.json")
    r=$(ratio "$first_s" "$rg_s")
    echo "| first \`find $sym\` on a never-indexed repo (median of $FIRST_RUNS) | $(ms "$first_s") | \`rg -n $sym\` $(ms "$rg_s") | ${r}x | ≤ 2x | $(verdict "$r" 2) |"
    [ "$first_rss" -gt "$first_rss_max" ] && first_rss_max=$first_rss
  done
  first_rss=$first_rss_max
  per_m=$(awk -v k="$cold_rss" -v l="$lines" 'BEGIN { printf "%.0f", k / 1024 / (l / 1e6) }')
  echo "| peak RSS, cold \`explore index\` | $(mib "$cold_rss") ($per_m MiB per 1M lines) | ctags $(mib "$ctags_rss") | — | ≤ 600 MB per 1M lines | $(verdict "$per_m" 572) |"
  echo "| peak RSS, first find / warm find / rg | $(mib "$first_rss") / $(mib "$warm_rss") / $(mib "$rg_rss") | | | | |"
  change_summary
} | tee "$OUT/summary.md"
