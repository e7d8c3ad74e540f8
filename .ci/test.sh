#!/usr/bin/env bash
# Runs every test of the project: formatting, vet (native and js/wasm), the
# Go tests (the browser tests in e2e/ included: they build the app, serve it
# on loopback and drive Chromium), short fuzz runs of the CSV reader, the
# worker protocol and the link codec, and the pure-Go packages built for
# js/wasm and run under Node. Installs Chromium (and Node) when missing and
# run as root. Usage: bash .ci/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
if [ -z "${CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then need_apt+=(chromium); fi
if ! command -v node >/dev/null 2>&1; then need_apt+=(nodejs); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "== installing ${need_apt[*]} (Debian packages)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "missing ${need_apt[*]}: run as root, or: sudo apt-get install -y ${need_apt[*]}" >&2
    echo "(a Chromium elsewhere can be named with CHROMIUM=/path/to/chromium)" >&2
    exit 1
  fi
fi

echo "== gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$bad" ]; then echo "gofmt would change: $bad"; exit 1; fi

echo "== go vet (native, then js/wasm)"
go vet ./...
GOOS=js GOARCH=wasm go vet ./ui/... ./wasm/...

echo "== go test"
go test -count=1 $(go list ./... | grep -v '/e2e$')

# Alone, so that no other test competes for the two cores while the browser
# tests check that the page's main thread never blocks for 50 ms.
echo "== go test ./e2e (the app in Chromium)"
go test -count=1 ./e2e
if [ -f e2e/out/figures.txt ]; then cat e2e/out/figures.txt; fi

echo "== fuzz: CSV reader, worker protocol, link codec"
go test -run '^$' -fuzz '^FuzzReadCSV$' -fuzztime 10s ./core
go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 5s ./wasm/protocol
go test -run '^$' -fuzz '^FuzzURL$' -fuzztime 5s ./ui/store

echo "== under GOOS=js GOARCH=wasm (Node)"
exec_js="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"
GOOS=js GOARCH=wasm go test -count=1 -exec "$exec_js" ./wasm/protocol ./wasm/session ./ui/store ./ui/draw
GOOS=js GOARCH=wasm go test -count=1 -exec "$exec_js" \
  -run 'Example|TestGradientFiniteDifference|TestProjection|TestGapNonNegative|TestDeterministic|TestCSV|TestSqrtTo|TestDriverStops' ./core
