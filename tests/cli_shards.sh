#!/usr/bin/env bash
# The CLI's faces of the work units: `run --jobs 1` = `run --jobs 2` = 3 shards put together by
# `merge` (given in reverse order), as CSV and as JSON; `merge` refuses a missing shard and
# shards of different runs, naming them. usage: tests/cli_shards.sh PATH/TO/attnlab
set -euo pipefail
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
check_run() {  # EXPERIMENT ARGS...
  "$cli" run "$@" --jobs 1 --quiet --out "$dir/one.csv"
  "$cli" run "$@" --jobs 2 --quiet --out "$dir/two.csv"
  cmp -s "$dir/one.csv" "$dir/two.csv" || fail "$1: --jobs 2 differs from --jobs 1"
  for i in 1 2 3; do "$cli" run "$@" --shard "$i/3" --jobs 2 --quiet --out "$dir/part-$i.json"; done
  "$cli" merge "$dir/part-3.json" "$dir/part-2.json" "$dir/part-1.json" --out "$dir/merged.csv"
  cmp -s "$dir/one.csv" "$dir/merged.csv" || fail "$1: merged shards differ from one run"
  "$cli" run "$@" --quiet --format json --out "$dir/one.json"
  "$cli" merge "$dir"/part-*.json --out "$dir/merged.json"
  cmp -s "$dir/one.json" "$dir/merged.json" || fail "$1: merged JSON differs from one run"
}
check_run separation.toy --sweep m=1:6:1 --set n=300 --set trials=90 --seed 4
check_run mirror --set seeds=4 --set iterations_rule=fixed --set iterations=200 --sweep p=1.75,2 --seed 2
check_run multihead.acceptance --preset versus_eps --set samples=3000 --seed 9
msg=$("$cli" merge "$dir/part-1.json" "$dir/part-3.json" 2>&1) && fail "a missing shard was merged"
grep -q "shard 2/3 is missing" <<<"$msg" || fail "missing shard message: $msg"
"$cli" run multihead.acceptance --preset versus_eps --set samples=3000 --seed 10 --shard 2/3 --quiet --out "$dir/other.json"
msg=$("$cli" merge "$dir/part-1.json" "$dir/other.json" "$dir/part-3.json" 2>&1) && fail "shards of two runs were merged"
grep -q "the seed is '9' in one and '10' in the other" <<<"$msg" || fail "different-run message: $msg"
echo "1 passed, 0 failed"
