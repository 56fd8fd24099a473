// One small API over the two other engines of the browser tests (engines.test.mjs): Firefox ESR,
// driven by puppeteer-core over WebDriver BiDi, and WebKitGTK (MiniBrowser --automation through
// WebKitWebDriver), driven by selenium-webdriver. Both run under one Xvfb (Mesa's software GL gives
// them WebGL2; in headless Firefox the page finds none here). Chromium keeps playwright-core
// (web/e2e/browser.mjs).
//   const x = await startXvfb();            // a free display, killed by x.close()
//   const engine = await launchEngine('firefox' | 'webkit', x.display, downloadDir);
//   const page = await engine.open(url, { width, height });   // one page at a time
//   await page.eval(fn, arg); await page.waitFor(fn, arg, timeoutMs); await page.screenshot(file);
//   await page.resize(width, height);        // the viewport, the page kept
//   await page.frameEval(urlPrefix, fn, arg);  // in the iframe whose address starts with urlPrefix
//   await page.close(); await engine.close();
// Env: NODE_PATH containing puppeteer-core and selenium-webdriver (scripts/setup.sh), FIREFOX and
// MINIBROWSER to override the Debian paths.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
export const MINIBROWSER = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const ENGINES = ['firefox', 'webkit'];

// The engines ATTNLAB_ENGINES names (comma-separated; default both). A list that names none ("," or
// a typo) would run no test and pass: it is refused.
export function enginesFromEnv() {
  const engines = (process.env.ATTNLAB_ENGINES ?? ENGINES.join(',')).split(',').filter(Boolean);
  const unknown = engines.filter((e) => !ENGINES.includes(e));
  if (engines.length === 0 || unknown.length > 0)
    throw new Error(`ATTNLAB_ENGINES='${process.env.ATTNLAB_ENGINES}' names no engine to test` +
                    (unknown.length ? ` (unknown: ${unknown.join(', ')})` : '') + `; allowed: ${ENGINES.join(', ')}`);
  return engines;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Xvfb on a display it picks itself (-displayfd: the first free number, written to a pipe).
export function startXvfb() {
  return new Promise((resolve, reject) => {
    const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let log = '', number = '';
    proc.stderr.on('data', (d) => { log += d; });
    proc.on('error', reject);
    proc.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready: ${log.slice(-400)}`)));
    proc.stdio[3].on('data', (d) => {
      number += d;
      if (!number.includes('\n')) return;
      proc.removeAllListeners('exit');
      resolve({ display: ':' + number.trim(), close: () => { proc.kill(); } });
    });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

async function waitForPort(port, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const ok = await new Promise((r) => {
      const c = net.connect(port, '127.0.0.1', () => { c.end(); r(true); });
      c.on('error', () => r(false));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
}

// Polls `fn(arg)` in the page until it returns something truthy; returns that value.
async function poll(evaluate, fn, arg, timeoutMs, what) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try { last = await evaluate(fn, arg); } catch (e) { last = e; }
    if (last && !(last instanceof Error)) return last;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what || fn.toString()}` +
      (last instanceof Error ? ` (last error: ${last.message})` : ''));
    await sleep(150);
  }
}

// Collects what the page reports as an error. Served first in every page's <head> (ERROR_HOOK_TAG,
// static_server.mjs's inject), it sees load-time errors too and marks itself early; open() installs
// it again after the load for a page served without it (it then marks itself late).
const ERROR_HOOK = () => {
  if (window.__engineErrors) return;
  window.__engineErrors = [];
  window.__engineHookEarly = document.readyState === 'loading';
  const push = (s) => window.__engineErrors.push(String(s));
  const consoleError = console.error.bind(console);
  console.error = (...a) => { push(a.join(' ')); consoleError(...a); };
  window.addEventListener('error', (e) => push(e.message));
  window.addEventListener('unhandledrejection', (e) => push(e.reason));
};

export const ERROR_HOOK_TAG = `<script>(${ERROR_HOOK.toString()})();</script>`;

// ---- Firefox (puppeteer-core, WebDriver BiDi) ---------------------------------------------------
async function launchFirefox(display, downloadDir) {
  const puppeteer = require('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: false, env: { ...process.env, DISPLAY: display },
    extraPrefsFirefox: {
      'browser.download.folderList': 2, 'browser.download.dir': downloadDir, 'browser.download.useDownloadDir': true,
      'browser.download.always_ask_before_handling_new_types': false, 'browser.download.start_downloads_in_tmp_dir': false,
    },
  });
  return {
    name: 'firefox',
    version: (await browser.version()).replace('firefox/', 'Firefox '),
    async open(url, { width = 1280, height = 800 } = {}) {
      const page = await browser.newPage();
      const errors = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.url()}`); });
      page.on('dialog', (d) => d.dismiss().catch(() => {}));
      await page.setViewport({ width, height });
      await page.goto(url);
      await page.evaluate(ERROR_HOOK);
      const evaluate = (fn, arg) => page.evaluate(fn, arg);
      return {
        errors,
        eval: evaluate,
        waitFor: (fn, arg, timeoutMs = 30000, what = '') => poll(evaluate, fn, arg, timeoutMs, what),
        async frameEval(prefix, fn, arg) {
          const frame = page.frames().find((f) => f.url().startsWith(prefix));
          if (!frame) throw new Error(`no frame at ${prefix}`);
          return frame.evaluate(fn, arg);
        },
        resize: (width, height) => page.setViewport({ width, height }),
        screenshot: (file) => page.screenshot(file ? { path: file } : {}),
        close: () => page.close(),
      };
    },
    close: () => browser.close(),
  };
}

// ---- WebKitGTK (selenium-webdriver, WebKitWebDriver + MiniBrowser) -------------------------------
// One session, one window: a page is that window, navigated through about:blank so that a link that
// differs from the last only in its hash loads afresh. MiniBrowser gets a configuration folder of its
// own: a GTK style sheet that shrinks its toolbar (whose buttons and address field otherwise keep the
// window at least 447 px wide, too wide for a 390 px phone) and a download folder (GLib's
// user-dirs.dirs; without one, downloads land in $HOME). The toolbar's height is measured once and
// added to the window's, so that the page gets the asked viewport.
const GTK_CSS = '* { font-size: 1px; padding: 0; margin: 0; min-width: 0; min-height: 0; border-width: 0; }\n';

async function launchWebKit(display, downloadDir) {
  const { Builder } = require('selenium-webdriver');
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-webkit-'));
  fs.mkdirSync(path.join(config, 'gtk-3.0'));
  fs.writeFileSync(path.join(config, 'gtk-3.0', 'gtk.css'), GTK_CSS);
  fs.writeFileSync(path.join(config, 'user-dirs.dirs'), `XDG_DOWNLOAD_DIR="${downloadDir}"\n`);
  const port = await freePort();
  const env = { ...process.env, DISPLAY: display, XDG_CONFIG_HOME: config };
  const driverProc = spawn('WebKitWebDriver', [`--port=${port}`], { env, stdio: 'ignore' });
  const killDriver = () => driverProc.kill();
  process.on('exit', killDriver);
  await waitForPort(port, 10000);
  const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities({
    browserName: 'MiniBrowser', unhandledPromptBehavior: 'dismiss',
    'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
  }).build();
  const caps = await driver.getCapabilities();
  // executeScript runs a function body: the function goes in as text, its argument as arguments[0].
  const evaluate = (fn, arg) => driver.executeScript(`return (${fn.toString()})(arguments[0]);`, arg === undefined ? null : arg);
  let open = false;
  let chrome = [0, 0];  // the window's size beyond its viewport (the toolbar), as last measured
  // The window follows setRect a moment later: the viewport is read until it is the one asked for
  // (up to a second), and the window corrected by what is missing.
  async function resize(width, height) {
    let inner = [0, 0];
    for (let attempt = 0; attempt < 3; ++attempt) {
      await driver.manage().window().setRect({ width: width + chrome[0], height: height + chrome[1] });
      const end = Date.now() + 1000;
      do {
        inner = await evaluate(() => [window.innerWidth, window.innerHeight]);
        if (inner[0] === width && inner[1] === height) return;
        await sleep(100);
      } while (Date.now() < end);
      chrome = [Math.max(0, chrome[0] + width - inner[0]), Math.max(0, chrome[1] + height - inner[1])];
    }
    throw new Error(`MiniBrowser's viewport is ${inner[0]} x ${inner[1]}, not ${width} x ${height}`);
  }
  return {
    name: 'webkit',
    version: `WebKitGTK ${caps.get('browserVersion')} (MiniBrowser)`,
    async open(url, { width = 1280, height = 800 } = {}) {
      if (open) throw new Error('engines.mjs: WebKitGTK has one page at a time; close the last one first');
      open = true;
      await driver.get('about:blank');
      await resize(width, height);
      await driver.get(url);
      await evaluate(ERROR_HOOK);
      return {
        // Console and page errors come only through eval(() => window.__engineErrors); answers >= 400
        // only from the server's own list (static_server.mjs's failures: WebDriver reports no responses).
        errors: [],
        eval: evaluate,
        waitFor: (fn, arg, timeoutMs = 30000, what = '') => poll(evaluate, fn, arg, timeoutMs, what),
        async frameEval(prefix, fn, arg) {
          const frames = await driver.findElements({ css: 'iframe' });
          for (const f of frames) {
            if (!(await f.getAttribute('src') || '').startsWith(prefix)) continue;
            await driver.switchTo().frame(f);
            try { return await evaluate(fn, arg); } finally { await driver.switchTo().defaultContent(); }
          }
          throw new Error(`no frame at ${prefix}`);
        },
        resize,
        async screenshot(file) {
          const png = Buffer.from(await driver.takeScreenshot(), 'base64');
          if (file) fs.writeFileSync(file, png);
          return png;
        },
        async close() { open = false; await driver.get('about:blank'); },
      };
    },
    async close() {
      await driver.quit().catch(() => {});
      killDriver();
      process.off('exit', killDriver);
      fs.rmSync(config, { recursive: true, force: true });
    },
  };
}

export async function launchEngine(name, display, downloadDir) {
  fs.mkdirSync(downloadDir, { recursive: true });
  if (name === 'firefox') return launchFirefox(display, path.resolve(downloadDir));
  if (name === 'webkit') return launchWebKit(display, path.resolve(downloadDir));
  throw new Error(`engines.mjs: unknown engine '${name}'; allowed: ${ENGINES.join(', ')}`);
}

// Waits for a file named `name` in `folder` (a download), complete (no .part beside it); its text.
export async function waitForFile(folder, name, timeoutMs = 10000) {
  const file = path.join(folder, name);
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (fs.existsSync(file) && !fs.existsSync(file + '.part') && fs.statSync(file).size > 0) return fs.readFileSync(file, 'utf8');
    await sleep(100);
  }
  const seen = fs.existsSync(folder) ? fs.readdirSync(folder).join(', ') : 'no folder';
  throw new Error(`no download ${name} in ${folder} after ${timeoutMs} ms (there: ${seen || 'nothing'})`);
}

// The standard deviation of the screenshot's grey levels (a blank canvas gives about 0), decoded
// in the page itself.
export async function pixelStandardDeviation(page, png) {
  return page.eval(async (data) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + data;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let s = 0, s2 = 0, n = 0;
    for (let i = 0; i < d.length; i += 4) { const v = (d[i] + d[i + 1] + d[i + 2]) / 3; s += v; s2 += v * v; n++; }
    return Math.sqrt(s2 / n - (s / n) ** 2);
  }, (png || await page.screenshot()).toString('base64'));
}

// Resolves after `n` animation frames of the page (the App draws in its frames): a count, not a clock.
export function frames(page, n = 4) {
  return page.eval((k) => new Promise((resolve) => {
    const tick = () => (--k <= 0 ? resolve(true) : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), n);
}

// Screenshots (each saved to `file`) until one is not blank (its grey levels' standard deviation
// above `least`) or `timeoutMs` pass: the screen's state waited for. Returns the last deviation.
export async function drawnScreenshot(page, file, least = 10, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const sd = await pixelStandardDeviation(page, await page.screenshot(file));
    if (sd > least || Date.now() > end) return sd;
    await frames(page, 2);
  }
}
