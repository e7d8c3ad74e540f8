#!/usr/bin/env bash
# Runs every test of the project: formatting, vet (native and js/wasm), the
# Go tests (the browser tests in e2e/ included: they build the app, serve it
# on loopback and drive Chromium), short fuzz runs of the CSV reader, the
# solver on extreme inputs, the worker protocol and the link codec, and the
# pure-Go packages built for js/wasm and run under Node. Installs Chromium,
# Node and npm (Debian's packages) when missing and run as root, and
# axe-core (npm) into .cache/. Usage: bash .ci/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
if [ -z "${CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then need_apt+=(chromium); fi
if ! command -v node >/dev/null 2>&1; then need_apt+=(nodejs); fi
# Debian's nodejs does not bring npm, which installs axe-core below.
if ! command -v npm >/dev/null 2>&1; then need_apt+=(npm); fi
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

# axe-core, for the browser tests' accessibility check: from the npm
# registry, pinned, into .cache/ (not committed; reused on the next run).
axe_version=4.14.1
if [ ! -f .cache/axe/node_modules/axe-core/axe.min.js ] ||
  ! grep -q "\"version\": \"$axe_version\"" .cache/axe/node_modules/axe-core/package.json; then
  echo "== installing axe-core $axe_version (npm registry)"
  npm install --no-save --no-audit --no-fund --silent --prefix .cache/axe "axe-core@$axe_version"
fi

# Every stage runs even when an earlier one failed, so one run shows every
# problem; the script exits non-zero if any stage failed.
passed=0
failed=()
stage() {
  local name=$1
  shift
  echo "== $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "-- FAILED: $name"
    failed+=("$name")
  fi
}

gofmt_check() {
  local bad
  bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
  if [ -n "$bad" ]; then echo "gofmt would change: $bad"; return 1; fi
}
vet() { go vet ./... && GOOS=js GOARCH=wasm go vet ./ui/... ./wasm/... ./core; }
unit() { go test -count=1 $(go list ./... | grep -v '/e2e$'); }
# Alone, so that no other test competes for the two cores.
browser() {
  local rc=0
  go test -count=1 ./e2e || rc=$?
  if [ -f e2e/out/figures.txt ]; then cat e2e/out/figures.txt; fi
  return $rc
}
# Budgets are counts of inputs (about 5–15 s each here), not durations: with
# a duration, Go 1.26's fuzz coordinator can report "context deadline
# exceeded" at the deadline with no failing input (go.dev/issue/75804, fixed
# in Go 1.27); CI saw it once on FuzzReadCSV.
fuzz() {
  go test -run '^$' -fuzz '^FuzzReadCSV$' -fuzztime 200000x ./core &&
    go test -run '^$' -fuzz '^FuzzSolve$' -fuzztime 50000x ./core &&
    go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 200000x ./wasm/protocol &&
    go test -run '^$' -fuzz '^FuzzURL$' -fuzztime 100000x ./ui/store &&
    go test -run '^$' -fuzz '^FuzzParseRun$' -fuzztime 100000x ./ui/store &&
    go test -run '^$' -fuzz '^FuzzParseSession$' -fuzztime 50000x ./ui/store &&
    go test -run '^$' -fuzz '^FuzzParseAnswers$' -fuzztime 50000x ./ui/ask
}
# Go's go_js_wasm_exec, with the program's memory handed over as the page's
# worker.js does (wasm/simd's kernels link to it).
node() {
  local exec_js
  exec_js="$PWD/.ci/go_js_wasm_exec"
  GOOS=js GOARCH=wasm go test -count=1 -exec "$exec_js" ./wasm/protocol ./wasm/jsmsg ./wasm/session ./wasm/simd ./ui/store ./ui/draw ./ui/ask &&
    GOOS=js GOARCH=wasm go test -count=1 -exec "$exec_js" \
      -run 'Example|TestGradientFiniteDifference|TestProjection|TestGapNonNegative|TestDeterministic|TestCSV|TestSqrtTo|TestDriverStops|TestAllRowsIdentical|TestLambdaRange|TestStandardizeScaleInvariant|TestFileGuesses|TestLabelTripletsCancelAndProgress|TestSolveExtremeData|TestSelectNth|TestSortFloats|TestKernelsAgainstNaive|TestXingOptimum|TestLMNNStart$|TestLMNNScaledIdentity|TestNoAllocationsPerIteration' ./core
}

stage "gofmt" gofmt_check
stage "go vet (native, then js/wasm)" vet
stage "go test" unit
stage "go test ./e2e (the app in Chromium)" browser
stage "fuzz: CSV reader, solver inputs, worker protocol, link codec, saved runs, answers" fuzz
stage "under GOOS=js GOARCH=wasm (Node)" node

echo
echo "stages: ${passed} passed, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'failed: %s\n' "${failed[@]}"
  exit 1
fi
