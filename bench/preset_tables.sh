#!/usr/bin/env bash
# Every preset of every experiment (and the defaults) at seed 1, slow presets at reduced counts, run
# by one CLI, one CSV per run in OUT_DIR with the comment lines (version, notes with times) removed:
# the tables that must stay byte for byte when a change "changes no number". Compare two CLIs with
#   bench/preset_tables.sh OLD_CLI old/ && bench/preset_tables.sh NEW_CLI new/ && diff -r old new
# The reduced counts are bench/reduced_counts.json's (their one home; cli_equal.test.cjs reads it too).
set -euo pipefail
CLI=${1:?usage: preset_tables.sh ATTNLAB_CLI OUT_DIR}
OUT=${2:?usage: preset_tables.sh ATTNLAB_CLI OUT_DIR}
mkdir -p "$OUT"
COUNTS=$(cd "$(dirname "$0")" && pwd)/reduced_counts.json
reduced() {  # reduced EXPERIMENT PRESET -> --set arguments
  python3 - "$COUNTS" "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])).get(sys.argv[2], {})
sets = r.get(sys.argv[3], r.get("*", {}))
print(" ".join(f"--set {k}={v}" for k, v in sets.items()))
PY
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
