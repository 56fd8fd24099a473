#!/usr/bin/env bash
# Every preset of every experiment (and the defaults) at seed 1, slow presets at reduced counts, run
# by one CLI, one CSV per run in OUT_DIR with the comment lines (version, notes with times) removed:
# the tables that must stay byte for byte when a change "changes no number". Compare two CLIs with
#   bench/preset_tables.sh OLD_CLI old/ && bench/preset_tables.sh NEW_CLI new/ && diff -r old new
# The reduced counts are those of tests/node/cli_equal.test.cjs.
set -euo pipefail
CLI=${1:?usage: preset_tables.sh ATTNLAB_CLI OUT_DIR}
OUT=${2:?usage: preset_tables.sh ATTNLAB_CLI OUT_DIR}
mkdir -p "$OUT"
reduced() {  # reduced EXPERIMENT PRESET -> --set arguments
  case "$1:$2" in
    separation.toy:*|separation.self:*) echo "--set trials=100" ;;
    regression:large_sparse) echo "--set max_iterations=10" ;;
    mirror:|mirror:synthetic_figure) echo "--set seeds=4" ;;
    mirror:sparsity) echo "--set seeds=2" ;;
    multihead:two_heads|multihead:hard_attention) echo "--set cert_samples=200000 --set adam_steps=500" ;;
    multihead:large|multihead:three_heads) echo "--set cert_samples=300000 --set adam_steps=300" ;;
    multihead.lower_bound:*) echo "--set adam_steps=100" ;;
    *) echo "" ;;
  esac
}
for id in $("$CLI" list | awk 'NF {print $1}'); do
  presets=$("$CLI" help "$id" | awk '/^presets/ {on = 1; next} on && /^  [a-z]/ {print $1}')
  for preset in "" $presets; do
    # shellcheck disable=SC2046
    "$CLI" run "$id" ${preset:+--preset "$preset"} $(reduced "$id" "$preset") --seed 1 --quiet 2>/dev/null |
      grep -v '^#' >"$OUT/$id${preset:+.$preset}.csv" || echo "failed: $id $preset" >&2
  done
done
ls "$OUT" | wc -l
