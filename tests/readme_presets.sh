#!/usr/bin/env bash
# README.md's experiment tables list every preset the CLI offers: for each
# experiment, its table row (the line starting "| `EXPERIMENT` |") names each preset in backticks,
# or in a range of final letters such as `fig4a`..`fig4f`.
# usage: tests/readme_presets.sh PATH/TO/attnlab PATH/TO/README.md
set -euo pipefail
cli=$1
readme=$2
status=0
experiments=$("$cli" list | awk 'NF {print $1}')
# A CLI that lists nothing (or fails) would check nothing: that is a failure of its own.
if [ -z "$experiments" ]; then echo "FAILED: '$cli list' printed no experiment" >&2; exit 1; fi
checked=0
for experiment in $experiments; do
  checked=$((checked + 1))
  row=$(grep -F "| \`$experiment\` |" "$readme" || true)
  if [ -z "$row" ]; then echo "FAILED: README.md has no table row for $experiment" >&2; status=1; continue; fi
  # Expand `fig4a`..`fig4f` into `fig4a` `fig4b` ... `fig4f`.
  for range in $(grep -oE '`[a-z0-9_]+[a-z]`\.\.`[a-z0-9_]+[a-z]`' <<<"$row" || true); do
    first=${range%%\`..*}; first=${first#\`}; last=${range##*..\`}; last=${last%\`}
    for letter in $(eval "echo {${first: -1}..${last: -1}}"); do row+=" \`${first%?}$letter\`"; done
  done
  for preset in $("$cli" help "$experiment" | sed -n '/^presets/,$p' | grep -E '^  [a-z0-9_]+ ' | awk '{print $1}'); do
    case "$row" in
      *"\`$preset\`"*) ;;
      *) echo "FAILED: README.md's row for $experiment does not list the preset $preset" >&2; status=1 ;;
    esac
  done
done
echo "README.md lists the presets of $checked experiments" >&2
exit $status
