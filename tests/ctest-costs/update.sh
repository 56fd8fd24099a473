#!/usr/bin/env bash
# Rewrites tests/ctest-costs/KIND.txt (KIND: native, sanitize or wasm) from a build folder's last
# ctest run (BUILD/Testing/Temporary/CTestCostData.txt): every test that took at least a second,
# longest first, as "SECONDS NAME" (tests/ctest_costs.cmake gives them to ctest as COST).
#   tests/ctest-costs/update.sh build/sanitize sanitize
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 BUILD_DIR native|sanitize|wasm" >&2; exit 2; }
case "$2" in native|sanitize|wasm) ;; *) echo "KIND must be native, sanitize or wasm, not '$2'" >&2; exit 2;; esac
data="$1/Testing/Temporary/CTestCostData.txt"
[ -f "$data" ] || { echo "no $data: run ctest in $1 first" >&2; exit 1; }
# A line of ctest's: "NAME RUNS SECONDS" (NAME may hold spaces); lines it could not read back have RUNS 0.
sed '/^---/,$d' "$data" |
  awk 'NF >= 3 && $(NF-1) ~ /^[0-9]+$/ && $(NF-1) >= 1 && $NF >= 1 {
         s = $NF; $NF = ""; $(NF-1) = ""; sub(/ +$/, ""); printf "%.1f %s\n", s, $0 }' |
  sort -g -r >"$(dirname "$0")/$2.txt"
echo "$(wc -l <"$(dirname "$0")/$2.txt") tests of at least 1 s in $(dirname "$0")/$2.txt"
