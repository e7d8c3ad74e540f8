#!/usr/bin/env bash
# Runs every test of the project: vet, formatting, the Go tests with the race
# detector off (2 cores), a short fuzz of the CSV reader, and the core
# package built for js/wasm and run under Node. Usage: bash .ci/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$bad" ]; then echo "gofmt would change: $bad"; exit 1; fi

echo "== go vet"
go vet ./...

echo "== go test"
go test -count=1 ./...

echo "== fuzz the CSV reader (10s)"
go test -run '^$' -fuzz '^FuzzReadCSV$' -fuzztime 10s ./core

if command -v node >/dev/null 2>&1; then
  echo "== core under GOOS=js GOARCH=wasm (Node)"
  GOOS=js GOARCH=wasm go test -count=1 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" \
    -run 'Example|TestGradientFiniteDifference|TestProjection|TestGapNonNegative|TestDeterministic|TestCSV' ./core
else
  echo "== skipping the wasm run: node is not installed (apt-get install -y nodejs)"
fi
