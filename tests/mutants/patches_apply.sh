#!/usr/bin/env bash
# Every seeded bug still plants: each tests/mutants/*.patch and js/*.patch applies to this tree
# (git apply --check), and each js patch's "# test:" line names a test file that exists. A patch
# that no longer applies is a seeded bug nobody can run: its test is trusted on a bug it can no
# longer be shown. Usage: patches_apply.sh REPO_ROOT. Exits 1 with one line per stale patch.
set -uo pipefail
root=$1
cd "$root" || exit 2
bad=0 count=0
for patch in tests/mutants/*.patch tests/mutants/js/*.patch; do
  count=$((count + 1))
  if ! git apply --check "$patch" 2>/dev/null; then
    echo "$patch: does not apply to this tree (git apply --check $patch): make it again against the code it plants in"
    bad=$((bad + 1))
  fi
  case "$patch" in tests/mutants/js/*)
    test_file=$(sed -n 's/^# test: *//p' "$patch" | head -1)
    if [ -z "$test_file" ] || [ ! -f "$test_file" ]; then
      echo "$patch: its '# test:' line names no file of the tree ('$test_file')"
      bad=$((bad + 1))
    fi
  esac
done
echo "$count seeded-bug patches checked, $bad problems"
[ "$bad" -eq 0 ]
