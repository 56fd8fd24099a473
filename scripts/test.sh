#!/usr/bin/env bash
# The whole test suite (what CI runs):
#   1. set-up (idempotent; installs what is missing)
#   2. native build, Catch2 suite through ctest
#   2b. sanitizer build (clang++, ASan + UBSan, -O2 -g: docs/toolchain.md): the same suite and the CLI's tests, then
#      a few seconds of every libFuzzer target (scripts/fuzz.sh); any report fails the step
#   3. wasm build (web app, node module, tests), the same Catch2 suite in node through ctest,
#      plus the JS API tests and the native-CLI == wasm comparison
#   4. browser end-to-end tests in headless Chromium (playwright-core)
#   5. their core set in Firefox ESR (puppeteer-core) and WebKitGTK (selenium-webdriver), under Xvfb,
#      with screenshots of each story's first step in build/story-shots/engines/, and the SCORM
#      packages in scorm-again (web/e2e-engines/scorm.test.mjs)
#   6. the hosted site: scripts/build-site.sh (reusing the wasm build; its size budget fails the
#      step) into build/site, served by nginx under /attnlab/ and opened in Chromium: the SCORM
#      package of every story, offline reopening, a redeploy (web/e2e/site.test.mjs; the SCORM
#      run-time tests are in step 4)
# scripts/test.sh --paper: set-up, the native build, then only the Catch2 cases tagged [paper]
# (the papers' claims at full counts, minutes; the normal run above excludes them).
set -euo pipefail
PAPER=0
[[ "${1:-}" == "--paper" ]] && PAPER=1
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=${ATTNLAB_CACHE:-${HOME:-/root}/.cache/attnlab}
JOBS=${JOBS:-$(nproc)}
step() { printf '\n==== %s ====\n' "$*"; }
# ctest with the test times of the last run on this machine (kept in the cache, outside the work
# tree), for the order of the tests whose names have no space (ctest before 4.0 reads a name in its
# cost data only up to the first space). The long tests' order, on a fresh machine too, comes from
# the COSTs in tests/ctest-costs/ (docs/toolchain.md, "The test steps apart from compiling").
run_ctest() {  # run_ctest BUILD_DIR
  local costs="$CACHE/ctest-costs/$(basename "$1").txt" own="$1/Testing/Temporary/CTestCostData.txt"
  if [[ -f "$costs" && ! -f "$own" ]]; then mkdir -p "$(dirname "$own")"; cp "$costs" "$own"; fi
  local rc=0
  ctest --test-dir "$1" --output-on-failure -j "$JOBS" || rc=$?
  if [[ -f "$own" ]]; then mkdir -p "$(dirname "$costs")"; cp "$own" "$costs"; fi
  return $rc
}

step "set-up"
scripts/setup.sh
export NODE_PATH=/usr/share/nodejs   # emcc's link step needs Debian's acorn (docs/toolchain.md, "Pitfall 1")

step "native build and tests"
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j "$JOBS"
if [[ $PAPER == 1 ]]; then
  step "paper-setting tests ([paper], full counts)"
  cmake --build build/native --target paper_tests
  exit 0
fi
run_ctest build/native

step "sanitizer build (ASan + UBSan): the suite, the CLI and a fuzz smoke"
cmake -S . -B build/sanitize -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_CXX_FLAGS_DEBUG=-O2 -g" -DATTNLAB_SANITIZE=ON -DATTNLAB_FUZZ=ON >/dev/null
cmake --build build/sanitize -j "$JOBS"
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run_ctest build/sanitize
scripts/fuzz.sh "${FUZZ_SMOKE_SECONDS:-5}"
unset ASAN_OPTIONS UBSAN_OPTIONS

step "wasm build and tests in node"
emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DATTNLAB_CACHE="$CACHE" -DATTNLAB_NATIVE_CLI="$ROOT/build/native/attnlab" >/dev/null
cmake --build build/wasm -j "$JOBS"
run_ctest build/wasm

step "browser end-to-end tests (headless Chromium)"
ATTNLAB_WEB_DIR="$ROOT/build/wasm/web" ATTNLAB_CLI="$ROOT/build/native/attnlab" \
  NODE_PATH="$CACHE/npm/node_modules" node --test web/e2e/

step "browser end-to-end tests in Firefox ESR and WebKitGTK (core set, under Xvfb)"
ATTNLAB_WEB_DIR="$ROOT/build/wasm/web" ATTNLAB_CLI="$ROOT/build/native/attnlab" \
  NODE_PATH="$CACHE/npm/node_modules" node --test web/e2e-engines/

step "hosted site: scripts/build-site.sh, served by nginx under /attnlab/, in Chromium"
scripts/build-site.sh --out build/site --url http://127.0.0.1:8000/attnlab/
ATTNLAB_SITE_DIR="$ROOT/build/site" NODE_PATH="$CACHE/npm/node_modules" node --test web/e2e/site.test.mjs
