#!/usr/bin/env bash
# Builds the app into build/, one folder that any static host serves as it
# is (README, "Host it anywhere"):
#   index.html, sw.js                             the page (its first screen static, from
#                                                  internal/firstpaint) and its service worker
#   app.wasm (+ .gz)                               the one program (wasm/app: the page's interface
#                                                  in the page, the solver in its Web Worker),
#                                                  GOOS=js GOARCH=wasm, stripped
#   wasm_exec.js (+ .gz)                           copied from this Go
#   assets/                                        scripts, styles, the manifest and icons, the
#                                                  built-in datasets
# The service worker's cache is named after a hash of every file it
# caches, so a new build never runs old wasm against new scripts. The .gz
# copies are pre-compressed for servers that can offer them. Prints sizes.
set -euo pipefail
cd "$(dirname "$0")"
out=build
mkdir -p "$out"
flags=(-trimpath -ldflags="-s -w")
# RML_TAGS=e2e (the e2e tests' build) adds the page's test hooks (ui/hooks_e2e.go).
GOOS=js GOARCH=wasm go build "${flags[@]}" -tags "${RML_TAGS:-}" -o "$out/app.wasm.tmp" ./wasm/app
mv "$out/app.wasm.tmp" "$out/app.wasm"
rm -f "$out/worker.wasm" "$out/worker.wasm.gz" # from before the two programs were one
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"

# The page and its static files (the service worker is written below).
rm -rf "$out/assets"
mkdir -p "$out/assets"
cp -R assets/. "$out/assets/"
find "$out/assets" \( -name '*.go' -o -name 'sw.js' -o -name '.*' \) -type f -delete
# The page, with its first screen written in as static HTML and SVG
# (internal/firstpaint): a first visit sees the first lesson before the
# wasm has arrived.
go run ./internal/firstpaint index.html "$out/index.html"

# What the service worker caches: every file of the folder but itself and
# the .gz copies (a server that offers them serves them as an encoding).
files=$(cd "$out" && find . -type f ! -name 'sw.js' ! -name '*.gz' ! -name '*.tmp' ! -name '.*' | sed 's|^\./||' | LC_ALL=C sort)
version=$(cd "$out" && printf '%s\n' $files | xargs sha256sum | sha256sum | cut -c1-16)
# The page names its build (hashed above with the name "dev"), so that the
# files it asks for later (a worker's script and program) come from its own
# build's cache even after a newer build has taken over (sw.js).
sed -i "s|<meta name=\"rml-build\" content=\"dev\">|<meta name=\"rml-build\" content=\"$version\">|" "$out/index.html"
grep -q "content=\"$version\"" "$out/index.html" || { echo "build.sh: index.html names no build" >&2; exit 1; }
{
  printf "// Written by build.sh: the build's version and the files it caches.\n"
  printf "self.RML_BUILD = { version: '%s', files: [\n" "$version"
  for f in $files; do printf "  '%s',\n" "$f"; done
  printf "] };\n"
  cat assets/sw.js
} > "$out/sw.js"

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
echo "build $version: $(printf '%s\n' $files | wc -l) files in $out/, ready for any static host"
