#!/usr/bin/env bash
# Builds the web app and writes a self-contained static site to dist/ (or --out DIR): the page,
# its module (attnlab.js + attnlab.wasm), the headless JS API (attnlab-api.mjs + .d.ts), the
# example course page, and MIME hints for common hosts. Prints the sizes (raw and gzip) and fails
# when attnlab.wasm + attnlab.js exceed the 1 MB gzip budget. With --measure it also serves dist/
# and reports the time to the first frame in headless Chromium (bench/first_frame.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=dist
MEASURE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --out=*) OUT=${1#--out=}; shift ;;
    --measure) MEASURE=1; shift ;;
    -h|--help) echo "usage: scripts/build-site.sh [--out DIR] [--measure]"; exit 0 ;;
    *) echo "build-site.sh: unknown option '$1' (usage: scripts/build-site.sh [--out DIR] [--measure])" >&2; exit 2 ;;
  esac
done
CACHE=${ATTNLAB_CACHE:-${HOME:-/root}/.cache/attnlab}
scripts/setup.sh
export NODE_PATH=/usr/share/nodejs   # emcc's link step needs Debian's acorn (TOOLCHAIN.md pitfall 1)
emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNLAB_CACHE="$CACHE" >/dev/null
cmake --build build/wasm --target attnlab_app -j "$(nproc)"

rm -rf "$OUT"
mkdir -p "$OUT"
cp -r build/wasm/web/. "$OUT/"
# Hosts that read these files serve .wasm with its MIME type (needed for streaming compilation);
# every other host just needs application/wasm configured for .wasm (see README "Hosting").
printf '/*.wasm\n  Content-Type: application/wasm\n/*.mjs\n  Content-Type: text/javascript\n' > "$OUT/_headers"
printf 'AddType application/wasm .wasm\nAddType text/javascript .mjs\n' > "$OUT/.htaccess"

gz() { gzip -9 -c "$1" | wc -c; }
total_raw=0 total_gz=0
printf '\n%-28s %10s %10s\n' "file" "bytes" "gzip -9"
while IFS= read -r f; do
  raw=$(wc -c < "$f") z=$(gz "$f")
  printf '%-28s %10d %10d\n' "${f#"$OUT"/}" "$raw" "$z"
  total_raw=$((total_raw + raw)) total_gz=$((total_gz + z))
done < <(find "$OUT" -type f | sort)
printf '%-28s %10d %10d\n' "all of $OUT" "$total_raw" "$total_gz"
module_gz=$(( $(gz "$OUT/attnlab.wasm") + $(gz "$OUT/attnlab.js") ))
budget=$((1024 * 1024))
echo "attnlab.wasm + attnlab.js: $module_gz bytes gzip (budget $budget)"
if [ "$module_gz" -gt "$budget" ]; then
  echo "build-site.sh: the module is over the 1 MB gzip budget" >&2
  exit 1
fi
if [ "$MEASURE" = 1 ]; then
  NODE_PATH="$CACHE/npm/node_modules" node bench/first_frame.mjs "$OUT"
fi
echo "The site is in $OUT/: serve it from any static host (README \"Hosting\")."
