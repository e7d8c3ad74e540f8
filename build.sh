#!/usr/bin/env bash
# Builds the app into build/: its one program (app.wasm, from wasm/app: the
# page's interface in the page, the solver in its Web Worker), for
# GOOS=js GOARCH=wasm, stripped; copies wasm_exec.js from this Go; writes
# pre-compressed .gz copies and prints the sizes.
set -euo pipefail
cd "$(dirname "$0")"
out=build
mkdir -p "$out"
flags=(-trimpath -ldflags="-s -w")
GOOS=js GOARCH=wasm go build "${flags[@]}" -o "$out/app.wasm.tmp" ./wasm/app
mv "$out/app.wasm.tmp" "$out/app.wasm"
rm -f "$out/worker.wasm" "$out/worker.wasm.gz" # from before the two programs were one
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"
total=0
printf '%-16s %12s %12s\n' file bytes gzip
for f in app.wasm wasm_exec.js; do
  gzip -9 -n -c "$out/$f" > "$out/$f.gz"
  raw=$(wc -c < "$out/$f")
  gz=$(wc -c < "$out/$f.gz")
  printf '%-16s %12d %12d\n' "$f" "$raw" "$gz"
  case $f in *.wasm) total=$((total + gz)) ;; esac
done
awk -v t="$total" 'BEGIN { printf "the wasm program, gzip: %d bytes (%.2f MiB; the target is at most 2 MiB)\n", t, t / 1048576 }'
