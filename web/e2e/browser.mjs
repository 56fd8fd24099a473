// What every browser test needs: the built page served on 127.0.0.1, one headless Chromium, a page
// opened at a link and ready, and pixel measures of a screenshot. Env: ATTNLAB_WEB_DIR (built
// index.html/attnlab.js/attnlab.wasm), NODE_PATH containing playwright-core (scripts/setup.sh).
import test from 'node:test';
import assert from 'node:assert';
import { createRequire } from 'node:module';
import { serveDirectory } from './static_server.mjs';

const require = createRequire(import.meta.url);
export const { chromium } = require('playwright-core');
export const webDir = process.env.ATTNLAB_WEB_DIR;

// docs/toolchain.md "Headless Chromium": software WebGL2 through SwiftShader, no network chatter.
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...extraArgs] });
}

// Registers before/after hooks in the calling test file; returns an object whose `base` (the
// served URL) and `browser` are set once the hooks have run.
export function useBrowser() {
  const env = { server: null, browser: null, base: '' };
  test.before(async () => {
    assert.ok(webDir, 'ATTNLAB_WEB_DIR must name the built web app');
    env.server = await serveDirectory(webDir);
    env.base = `http://127.0.0.1:${env.server.address().port}/`;
    env.browser = await launchChromium();
  });
  test.after(async () => {
    await env.browser?.close();
    env.server?.close();
  });
  return env;
}

// A new page on `url`, collecting console errors, page errors and failed requests into `errors`.
// `setup(page)` runs before the navigation (e.g. to intercept requests).
export async function openUrl(browser, url, { width = 1280, height = 800, ready = true, setup = null } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, acceptDownloads: true });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.url()}`); });
  page.on('dialog', (d) => d.dismiss());  // a clipboard fallback prompt must not block a test
  if (setup) await setup(page);
  await page.goto(url);
  if (ready) await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  return { page, errors };
}

// Resolves after `n` animation frames of the page. The App's main loop runs once a frame
// (emscripten_set_main_loop, fps 0), and a frame with input pending always draws and hands the input
// to ImGui, which takes a mouse button's press and release in two frames: so a click has been seen
// by the App some frames later, however slow the frames are. A count of frames, not a clock.
export function afterFrames(page, n = 4) {
  return page.evaluate((k) => new Promise((resolve) => {
    const tick = () => (--k <= 0 ? resolve() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), n);
}

// Screenshots until `ok(measure(rgba, width, height))` holds (the screen's state, waited for, not a
// clock) or `timeout` ms pass; returns the last measure, for the caller's assertion and message.
export async function waitForScreen(page, measure, ok, { timeout = 30000 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await screenshotMeasure(page, measure);
    if (ok(value) || Date.now() > end) return value;
    await afterFrames(page, 2);
  }
}

// The screenshot's pixel standard deviation, once it exceeds `least` (a drawn page) or `timeout` passes.
export function waitForDrawn(page, least = 10, options = {}) {
  return waitForScreen(page, standardDeviation, (sd) => sd > least, options);
}

// Takes a screenshot, decodes it in the page and returns `measure(rgba, width, height)` evaluated there.
export async function screenshotMeasure(page, measure) {
  return pngMeasure(page, await page.screenshot(), measure);
}

// Decodes the PNG bytes (a Buffer) in the page and returns `measure(rgba, width, height, arg)`
// evaluated there (`arg`: any JSON value the measure needs; the function itself cannot close over
// the test's variables).
export async function pngMeasure(page, bytes, measure, arg = null) {
  const png = bytes.toString('base64');
  return page.evaluate(async ({ data, source, arg }) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + data;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    return new Function(`return (${source})`)()(ctx.getImageData(0, 0, c.width, c.height).data, c.width, c.height, arg);
  }, { data: png, source: measure.toString(), arg });
}

function standardDeviation(d) {
  let s = 0, s2 = 0, n = 0;
  for (let i = 0; i < d.length; i += 4) { const v = (d[i] + d[i + 1] + d[i + 2]) / 3; s += v; s2 += v * v; n++; }
  return Math.sqrt(s2 / n - (s / n) ** 2);
}

export async function pixelStandardDeviation(page) {
  return screenshotMeasure(page, standardDeviation);
}

// Arrow keys on the focused canvas until its focused parameter field (appFocusedControl, the
// parameter's key or a toolbar control's name) is `name`: down the panels, then up, and left from
// an unnamed control (a slider) to the field beside it; then along the top row; one key at a time, each waited for. Tab never moves in the canvas
// (it leaves it: docs/design.md, "Keyboard and screen reader"). Returns the controls met, the last being `name` if
// it was reached. `page` may be a frame, then `keyboard` is its page's.
export async function arrowToCanvasControl(page, name, keyboard = page.keyboard) {
  const at = () => page.evaluate(() => window.attnlab.appFocusedControl());
  const met = [await at()];
  const phases = ['ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft'];  // the top row last: along it
  let vertical = phases.shift(), last = '', still = 0;
  for (let i = 0; i < 90 && met[met.length - 1] !== name; i++) {
    const was = met[met.length - 1];
    const across = vertical === 'ArrowDown' || vertical === 'ArrowUp';
    const key = across && was === '' && last !== 'ArrowLeft' && i > 0 ? 'ArrowLeft' : vertical;
    await keyboard.press(key);
    await page.waitForFunction((w) => window.attnlab.appFocusedControl() !== w, was, { timeout: 1500 }).catch(() => {});
    met.push(await at());
    last = key;
    still = key === vertical && met[met.length - 1] === was ? still + 1 : 0;
    if (still >= 2 && phases.length) vertical = phases.shift(), still = 0;  // an edge: the next way
  }
  return met;
}

// The canvas's text field `key` by the keyboard alone: arrows to it, Enter starts the editing.
export async function editCanvasField(page, key, keyboard = page.keyboard) {
  await page.focus('#canvas');
  const met = await arrowToCanvasControl(page, key, keyboard);
  assert.strictEqual(met[met.length - 1], key, `the arrows reach the field ${key} (met: ${met.join(', ')})`);
  await keyboard.press('Enter');
  await page.waitForFunction(() => window.attnlab.appTextInput(), null, { timeout: 5000 });
}

// Counts the frames the page draws: a drawn frame is a clear of the canvas (the page clears once per
// frame it draws). Installed before the page loads; the times (performance.now()) are pushed to
// window.drawnFrames.
export function countDrawnFrames(page) {
  return page.addInitScript(() => {
    window.drawnFrames = [];
    const clear = WebGL2RenderingContext.prototype.clear;
    WebGL2RenderingContext.prototype.clear = function (mask) {
      window.drawnFrames.push(performance.now());
      return clear.call(this, mask);
    };
  });
}
