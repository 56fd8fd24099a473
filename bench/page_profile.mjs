// The page's main-thread profile over one run (the second of two in one page: warm workers), in
// headless Chromium at 1280 x 800, with functions named from emscripten's symbol map
// (attnlab.js.symbols, written next to the page's module): the top functions by self time and by
// inclusive time. What the page's own thread does while the workers compute (docs/design.md
// "Frames on demand"); the workers' kernels are profiled in node (bench/wasm_profile.sh).
// usage: node bench/page_profile.mjs WEB_DIR [HASH] [TOP]
//   e.g. node bench/page_profile.mjs build/wasm/web 'exp=mirror&preset=synthetic_figure&threads=1' 25
// (NODE_PATH with playwright-core; c++filt from binutils demangles the names)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveDirectory } from '../web/e2e/static_server.mjs';
import { launchChromium } from '../web/e2e/browser.mjs';

const webDir = path.resolve(process.argv[2] || 'build/wasm/web');
const hash = process.argv[3] || 'exp=mirror&preset=synthetic_figure&threads=1';
const top = Number(process.argv[4] || 25);

const server = await serveDirectory(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(base + '#' + hash);
await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 60000 });
const run = async () => {
  await page.evaluate(() => window.attnlab.appRun());
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 300000, polling: 50 });
};
await run();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
await cdp.send('Profiler.start');
const t0 = Date.now();
await run();
const { profile } = await cdp.send('Profiler.stop');
const wall = (Date.now() - t0) / 1000;
await browser.close();
server.close();

// wasm-function[N] -> its C++ name (demangled in one call).
const symbols = new Map();
const symbolFile = path.join(webDir, 'attnlab.js.symbols');
if (existsSync(symbolFile)) {
  const lines = readFileSync(symbolFile, 'utf8').split('\n').filter(Boolean);
  const mangled = lines.map((l) => l.slice(l.indexOf(':') + 1).replace(/\\([0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))));
  let demangled = mangled;
  try { demangled = execFileSync('c++filt', { input: mangled.join('\n') }).toString().split('\n'); } catch { /* mangled names */ }
  lines.forEach((l, i) => symbols.set(l.slice(0, l.indexOf(':')), demangled[i].replace(/\((?!anonymous namespace\)).*$/, '')));
}
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
const name = (id) => {
  const f = nodes.get(id).callFrame;
  const m = /^wasm-function\[(\d+)\]$/.exec(f.functionName);
  if (m) return symbols.get(m[1]) || f.functionName;
  if (!f.functionName) return f.url ? `(anonymous) ${path.basename(f.url)}:${f.lineNumber + 1}` : '(idle, program, gc)';
  return f.url ? `${f.functionName} ${path.basename(f.url)}` : f.functionName;
};
const self = new Map(), inclusive = new Map();
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] / 1e6;
  const own = name(id);
  self.set(own, (self.get(own) || 0) + dt);
  const seen = new Set();
  for (let x = id; x !== undefined; x = parent.get(x)) {
    const n = name(x);
    if (!seen.has(n)) seen.add(n), inclusive.set(n, (inclusive.get(n) || 0) + dt);
  }
});
const list = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([n, s]) => `${s.toFixed(2).padStart(7)} s  ${n.slice(0, 110)}`);
console.log(`${hash}: the second run ${wall.toFixed(2)} s; the page's main thread, sampled every 0.5 ms`);
console.log('by self time:\n' + list(self).join('\n'));
console.log('by inclusive time (a function and what it calls):\n' + list(inclusive).join('\n'));
