#!/usr/bin/env bash
# Builds the web app and writes a self-contained static site to dist/ (or --out DIR): the page,
# its module (attnlab.js + attnlab.wasm), the headless JS API (attnlab-api.mjs + .d.ts), the
# example course page, the oEmbed files that course sites read (scripts/oembed.mjs, for the address
# given with --url, default http://127.0.0.1:8000/), a SCORM package per story and version in
# scorm/ (web/scorm/package.mjs), content hashes on the module files' addresses and a service worker
# for offline reopening (web/offline/version_refs.mjs, sw.js), and MIME hints for common hosts.
# Prints the sizes (raw and gzip) and fails when attnlab.wasm + attnlab.js exceed the gzip budget
# (budget_kb below). With --measure it also serves dist/
# and reports the time to the first frame in headless Chromium (bench/first_frame.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=dist
MEASURE=0
URL=http://127.0.0.1:8000/
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --out=*) OUT=${1#--out=}; shift ;;
    --measure) MEASURE=1; shift ;;
    --url) URL=${2:?--url needs an address}; shift 2 ;;
    --url=*) URL=${1#--url=}; shift ;;
    -h|--help) echo "usage: scripts/build-site.sh [--out DIR] [--url https://HOST/PATH/] [--measure]"; exit 0 ;;
    *) echo "build-site.sh: unknown option '$1' (usage: scripts/build-site.sh [--out DIR] [--url URL] [--measure])" >&2; exit 2 ;;
  esac
done
CACHE=${ATTNLAB_CACHE:-${HOME:-/root}/.cache/attnlab}
scripts/setup.sh
export NODE_PATH=/usr/share/nodejs   # emcc's link step needs Debian's acorn (docs/toolchain.md, "Pitfall 1")
emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNLAB_CACHE="$CACHE" >/dev/null
cmake --build build/wasm --target attnlab_app attnlab_node -j "$(nproc)"

# The folder is replaced, so it must be one this script made (it leaves a marker) or a new/empty
# one; never the repository or a folder above it.
MARKER=.attnlab-site
if [ -e "$OUT" ]; then
  out_abs=$(cd "$OUT" && pwd -P)
  case "$(pwd -P)/" in
    "$out_abs"/*) echo "build-site.sh: --out $OUT is the repository or a folder above it" >&2; exit 2 ;;
  esac
  if [ -n "$(ls -A "$OUT")" ] && [ ! -e "$OUT/$MARKER" ]; then
    echo "build-site.sh: $OUT is not empty and was not made by this script; choose another --out" >&2
    exit 2
  fi
fi
rm -rf "$OUT"
mkdir -p "$OUT"
cp -r build/wasm/web/. "$OUT/"
rm -f "$OUT"/*.symbols  # the page's symbol map is for profiles (bench/page_profile.mjs), not for hosting
touch "$OUT/$MARKER"
# oEmbed: one JSON per story, story step and preset, and the page to paste for each (README "Hosting").
node scripts/oembed.mjs "$OUT" "$URL" build/wasm/attnlab_node.cjs
# SCORM: two packages per story (1.2 and 2004) for learning management systems (README "In your LMS").
node web/scorm/package.mjs "$OUT" build/wasm/attnlab_node.cjs
# Content hashes and offline (web/offline/version_refs.mjs, docs/design.md "Content hashes"): every
# reference among the page's module files gets ?v=HASH of the file's contents, and sw.js (from
# web/offline/sw.js: keeps the page and both modules, at those addresses) is written and registered
# by the site's index.html only (after the SCORM packages above, which keep their own plain copies).
node web/offline/version_refs.mjs "$OUT"
# MIME types and CORS for hosts that read these files (Netlify/Cloudflare Pages: _headers; Apache:
# .htaccess, with mod_headers for CORS): the JS API module may be imported by course pages on
# other sites, which needs Access-Control-Allow-Origin on the module, attnlab.js and attnlab.wasm.
cat > "$OUT/_headers" <<'HEADERS'
/*.wasm
  Content-Type: application/wasm
  Access-Control-Allow-Origin: *
/*.mjs
  Content-Type: text/javascript
  Access-Control-Allow-Origin: *
/*.js
  Access-Control-Allow-Origin: *
HEADERS
cat > "$OUT/.htaccess" <<'HTACCESS'
AddType application/wasm .wasm
AddType text/javascript .mjs
<IfModule mod_headers.c>
  <FilesMatch "\.(wasm|mjs|js)$">
    Header set Access-Control-Allow-Origin "*"
  </FilesMatch>
</IfModule>
HTACCESS

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
budget_kb=900  # the page's first load, gzip -9 (the one home of this number; BENCHMARKS.md "The page")
budget=$((budget_kb * 1024))
echo "attnlab.wasm + attnlab.js: $module_gz bytes gzip (budget $budget, $budget_kb KB)"
if [ "$module_gz" -gt "$budget" ]; then
  echo "build-site.sh: the module is over the $budget_kb KB gzip budget ($module_gz > $budget bytes)" >&2
  exit 1
fi
if [ "$MEASURE" = 1 ]; then
  NODE_PATH="$CACHE/npm/node_modules" node bench/first_frame.mjs "$OUT"
fi
echo "The site is in $OUT/: serve it from any static host (README \"Hosting\")."
