#!/usr/bin/env bash
# Refresh cmd/wfc/default.pgo, the CPU profile the Go compiler optimizes
# the command with (profile-guided optimization: `go build` reads a
# default.pgo in the main package's folder on its own). The profile is a
# representative run of what users wait for, recorded with WFC_CPUPROFILE:
#
#   - `wfc check --no-cache` on the generated corpus (100 files, 100,000
#     lines, 2.8 MB), five times: the cold check, most of the weight;
#   - `wfc test` and `wfc schedule` on the examples, twice each.
#
# The static playground's WebAssembly (play/wasm) is built without a
# profile on purpose: there the first check, which the page waits for, was
# slower with one (more code for the browser to compile before it runs).
#
#   scripts/pgo.sh        # then commit cmd/wfc/default.pgo
#
# Re-run it when the parser or the checker changes shape; docs/limits.md
# ("Profile-guided optimization") has what it measured.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The profile is of a build without PGO, so it does not describe itself.
go build -pgo=off -o "$work/wfc" ./cmd/wfc
go run ./cmd/wfc-gen -lines 100000 -files 100 -out "$work/corpus" >/dev/null
n=0
record() {
  n=$((n + 1))
  WFC_CPUPROFILE="$work/p$n.prof" WFC_CACHE=off "$work/wfc" "$@" >/dev/null 2>&1 || true
}
for _ in 1 2 3 4 5; do record check --no-cache "$work/corpus"; done
for _ in 1 2; do
  record test testdata/examples/jobflow testdata/examples/orders
  record schedule testdata/examples/jobflow testdata/examples/orders
done
go tool pprof -proto "$work"/p*.prof >"$work/merged.pgo" 2>/dev/null
cp "$work/merged.pgo" cmd/wfc/default.pgo
echo "wrote cmd/wfc/default.pgo ($(wc -c <cmd/wfc/default.pgo) bytes, $n runs)"
