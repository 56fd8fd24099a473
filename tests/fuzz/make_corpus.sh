#!/usr/bin/env bash
# Regenerates the fuzz targets' seed corpus (tests/fuzz/corpus/<target>/) from the project's own
# inputs: the CLI's links and settings for every preset, small shards of every experiment, the
# partials inside them, and the data and problem files of the tests. Run after a preset or a file
# format changes; the corpus is committed. usage: tests/fuzz/make_corpus.sh PATH/TO/attnlab
set -euo pipefail
cli=$1
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus
rm -rf "$out/fuzz_url_hash" "$out/fuzz_params" "$out/fuzz_shard" "$out/fuzz_partial"
mkdir -p "$out"/{fuzz_url_hash,fuzz_params,fuzz_shard,fuzz_partial,fuzz_problem_file,fuzz_dataset}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Story steps as the page's links (story=...&step=...), one with an embed's keys.
"$cli" stories | grep -oE '#story=[a-z]+&step=[0-9]+' | sed 's/^#//' | while read -r link; do
  printf '%s' "$link" >"$out/fuzz_url_hash/$(echo "$link" | tr '=&' '--')"
done
printf '%s' 'story=separation&step=2&embed=1&hide=params' >"$out/fuzz_url_hash/story-embed"

for e in $("$cli" list | awk '{print $1}'); do
  presets=$("$cli" help "$e" | sed -n '/^presets/,$p' | awk 'NR > 1 && /^  [a-z0-9_]+ / {print $1}')
  "$cli" link "$e" | sed 's/^#//' >"$out/fuzz_url_hash/$e"
  printf '%s\n' "$e" >"$out/fuzz_params/$e"
  for p in $presets; do
    "$cli" link "$e" --preset "$p" | sed 's/^#//' >"$out/fuzz_url_hash/$e-$p"
    { printf '%s\npreset=%s\n' "$e" "$p"
      "$cli" help "$e" | awk -v p="$p" '$1 == p {getline; sub(/^ *sets /, ""); print}' | tr ' ' '\n'
    } >"$out/fuzz_params/$e-$p"
  done
  # One small shard per experiment (its first unit of three shards), and the partials in it.
  if "$cli" run "$e" --set trials=8 --shard 1/3 --quiet --out "$tmp/$e.json" 2>/dev/null ||
     "$cli" run "$e" --shard 1/3 --quiet --out "$tmp/$e.json" 2>/dev/null; then
    if [ "$(wc -c <"$tmp/$e.json")" -lt 65536 ]; then
      cp "$tmp/$e.json" "$out/fuzz_shard/$e.json"
      python3 - "$tmp/$e.json" "$out/fuzz_partial/$e" <<'PY'
import json, sys
units = json.load(open(sys.argv[1]))["units"]
for u in units[:2]:
    open(f"{sys.argv[2]}-{u['unit']}.json", "w").write(json.dumps(u["partial"], separators=(",", ":")))
PY
    fi
  fi
done

# Hand-written links of the tests (tests/test_url_hash.cpp) and the README.
i=0
for h in 'exp=separation.toy&embed=1&hide=tau,seed,,presets&theme=light' 'exp=separation.toy&hide=tau,bogus' \
         'exp=separation.toy&embed=yes' 'exp=separation.toy&theme=pink' 'exp=separation.toy&seed=-3' \
         'exp=separation.toy&oops' 'exp=separation.toy&tau=9' 'exp=separation.toy&preset=fig3b&embed=1&hide=params,seed&run=1' \
         'exp=mirror&view=inspector&point=1&trial=2&threads=2' 'exp=separation.self&sweep=n%3D100%2C200'; do
  printf '%s' "$h" >"$out/fuzz_url_hash/test-$((i++))"
done
