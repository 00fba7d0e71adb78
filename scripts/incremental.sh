#!/usr/bin/env bash
# Side by side: what `wfc check` costs after an edit, against a cold run —
# this checkout's build and another commit's (default a93706d, where
# issue 33 started), on the generated corpus (100 files, 100,000 lines,
# 2.8 MB) plus shared.wf, whose declarations ten of the files read.
#
#   scripts/incremental.sh [BASE_COMMIT]     # ROUNDS=N (default 7)
#
# Each round runs every case once, interleaved, so load changes hit all
# of them alike; the table shows the median CPU (user + system, from
# /usr/bin/time) and the median of each case's ratio to the cold run of
# the same round. Cases: the base build with nothing cached; this build
# with nothing cached (--no-cache); nothing changed (the whole-run result
# cache answers); one file of the 100 edited; shared.wf edited (it and
# its ten readers are checked again). Each edit makes a text no run has
# seen, so neither the result cache nor the file's entry can answer.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-a93706d}
rounds=${ROUNDS:-7}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'git worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/src" "$base"
(cd "$work/src" && go build -o "$work/wfc-base" ./cmd/wfc)
go build -o "$work/wfc" ./cmd/wfc
go run ./cmd/wfc-gen -lines 100000 -files 100 -shared 10 -out "$work/corpus" >/dev/null
export WFC_CACHE="$work/cache"

# cpu CMD...: the command's user+system seconds (its output discarded).
cpu() {
  /usr/bin/time -f '%U %S' -o "$work/t" "$@" >/dev/null 2>&1 || true
  awk '{printf "%.3f\n", $1 + $2}' "$work/t"
}

"$work/wfc" check "$work/corpus" >/dev/null || true # fill the cache
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$work/rows"
for r in $(seq "$rounds"); do
  pad=$(printf '%*s' "$r" '')
  b=$(WFC_CACHE=off cpu "$work/wfc-base" check "$work/corpus")
  c=$(cpu "$work/wfc" check --no-cache "$work/corpus")
  w=$(cpu "$work/wfc" check "$work/corpus")
  sed -i "s/Autostart = true;.*/Autostart = true;$pad/" "$work/corpus/gen0050.wf"
  o=$(cpu "$work/wfc" check "$work/corpus")
  sed -i "s/enum SharedStage {.*/enum SharedStage {$pad Open, Working, Done }/" "$work/corpus/shared.wf"
  s=$(cpu "$work/wfc" check "$work/corpus")
  echo "$b $c $w $o $s" >>"$work/rows"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds"
awk -v base="$base" '
  function median(a, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { n++; for (k = 1; k <= 5; k++) { v[k, n] = $k; q[k, n] = $k / $2 } }
  END {
    split("base " base ": cold (nothing cached)|cold (--no-cache)|warm, nothing changed|one file of 100 changed|shared.wf changed (11 files checked)", name, "|")
    printf "| case | CPU (median) | of this build'"'"'s cold run |\n|---|---|---|\n"
    for (k = 1; k <= 5; k++) {
      for (i = 1; i <= n; i++) { x[i] = v[k, i]; y[i] = q[k, i] }
      printf "| %s | %.2f s | %.1f %% |\n", name[k], median(x, n), 100 * median(y, n)
    }
  }' "$work/rows"
