#!/usr/bin/env bash
# Installs what is missing, builds the web app and serves it on http://127.0.0.1:8000/
# (--port N to change). Ctrl-C stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=8000
while [ $# -gt 0 ]; do
  case "$1" in
    --port) PORT=${2:?--port needs a number}; shift 2 ;;
    --port=*) PORT=${1#--port=}; shift ;;
    -h|--help) echo "usage: scripts/demo.sh [--port N]"; exit 0 ;;
    *) echo "demo.sh: unknown option '$1' (usage: scripts/demo.sh [--port N])" >&2; exit 2 ;;
  esac
done
scripts/setup.sh --demo
export NODE_PATH=/usr/share/nodejs
emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm --target attnlab_app -j "$(nproc)"
echo
echo "Attention Lab is at http://127.0.0.1:$PORT/  (Ctrl-C to stop)"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory build/wasm/web
