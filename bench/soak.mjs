// Soak: does memory stay flat over long runs?
//   native: the CLI in one process, its resident set (VmRSS) sampled from /proc four times a second;
//   wasm:   the node module in one process (a Session stepped in 50 ms slices), node's resident set
//           and the module's linear memory sampled after every slice;
//   page:   headless Chromium running "Reproduce the paper" again and again on Web Workers for
//           --page-minutes, sampling the JS heap, the page module's and the workers' wasm memory.
// Workloads: 10^6 mirror-descent steps (one seed, one p) and a 100k-trial separation run.
// "Flat" means: the last sample is within 5% (or 1 MB) of the sample taken after the first tenth of
// the run (the warm-up: allocators, Eigen's buffers, the JIT). Prints a table and exits 1 if a
// workload grows. usage:
//   node bench/soak.mjs [--cli build/native/attnlab] [--node-module build/wasm/attnlab_node.cjs]
//                       [--web build/wasm/web] [--page-minutes 10] [--skip-page] [--json]
// (NODE_PATH must contain playwright-core for the page part; scripts/setup.sh installs it)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const cli = path.resolve(option('--cli', 'build/native/attnlab'));
const nodeModule = path.resolve(option('--node-module', 'build/wasm/attnlab_node.cjs'));
const webDir = path.resolve(option('--web', 'build/wasm/web'));
const pageMinutes = Number(option('--page-minutes', '10'));
const MB = 1048576;

// The two workloads, as CLI arguments and as JS API settings (one list, both faces).
const WORKLOADS = [
  { name: '10^6 mirror-descent steps', id: 'mirror', preset: '',
    params: { data: 'synthetic', seeds: '1', sweep: 'none', iterations_rule: 'fixed', iterations: '1000000' } },
  { name: '100k-trial separation run (toy, n = 2000)', id: 'separation.toy', preset: '',
    params: { trials: '100000', sweep: 'n=2000' } },
];

// Growth after warm-up: samples [{t, bytes}] over a run.
function growth(samples) {
  const end = samples[samples.length - 1].t;
  const warm = samples.find((s) => s.t >= 0.1 * end) || samples[0];
  const last = samples[samples.length - 1];
  const peak = Math.max(...samples.map((s) => s.bytes));
  return { warm: warm.bytes, last: last.bytes, peak, flat: last.bytes - warm.bytes <= Math.max(0.05 * warm.bytes, MB) };
}

function runNative(w) {
  const argv = ['run', w.id, '--quiet', '--out', '/dev/null'];
  if (w.preset) argv.push('--preset', w.preset);
  for (const [k, v] of Object.entries(w.params)) argv.push(k === 'sweep' ? '--sweep' : '--set', k === 'sweep' ? v : `${k}=${v}`);
  if (w.params.sweep === 'none') argv.splice(argv.indexOf('--sweep'), 2, '--set', 'sweep=none');
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(cli, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
    const samples = [];
    const timer = setInterval(() => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) samples.push({ t: (Date.now() - t0) / 1000, bytes: Number(m[1]) * 1024 });
      } catch { /* the process has just ended */ }
    }, 250);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`${cli} ${argv.join(' ')} exited with ${code}`));
      else resolve({ seconds: (Date.now() - t0) / 1000, samples });
    });
  });
}

// In a child node process, so that each workload starts from a fresh heap.
function runWasm(w) {
  const script = `
    const m = require(${JSON.stringify(nodeModule)})();
    const w = ${JSON.stringify(w)};
    const s = new m.Session(w.id, w.preset, w.params, 1);
    const t0 = Date.now(), rss = [], heap = [];
    while (s.progress() < 1) {
      s.step(0.05);
      const t = (Date.now() - t0) / 1000;
      rss.push({ t, bytes: process.memoryUsage().rss });
      heap.push({ t, bytes: m.HEAP8.length });
    }
    const record = JSON.parse(s.json());
    s.delete();
    if (record.error) throw new Error(record.error);
    process.stdout.write(JSON.stringify({ seconds: (Date.now() - t0) / 1000, rss, heap }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`wasm soak exited with ${code}`))));
  });
}

async function runPage(minutes) {
  const require = createRequire(import.meta.url);
  require.resolve('playwright-core');
  const { serveDirectory } = await import('../web/e2e/static_server.mjs');
  const { launchChromium } = await import('../web/e2e/browser.mjs');
  const server = await serveDirectory(webDir);
  const browser = await launchChromium(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/#exp=separation.toy&threads=2`);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 60000 });
  const t0 = Date.now(), js = [], wasm = [], workers = [];
  let rounds = 0;
  while ((Date.now() - t0) / 60000 < minutes) {
    await page.evaluate(() => window.attnlab.appReproduce(true));
    await page.waitForFunction(() => JSON.parse(window.attnlab.appReproductionJson()).finished === true, null,
      { timeout: 600000, polling: 200 });
    ++rounds;
    const m = await page.evaluate(() => {
      if (window.gc) window.gc();
      const pool = window.attnlab.unitPool;
      return { js: performance.memory.usedJSHeapSize, wasm: window.attnlab.HEAP8.length,
        workers: pool ? Math.max(0, ...pool.memoryBytes) : 0 };
    });
    const t = (Date.now() - t0) / 1000;
    js.push({ t, bytes: m.js });
    wasm.push({ t, bytes: m.wasm });
    workers.push({ t, bytes: m.workers });
  }
  await browser.close();
  server.close();
  return { seconds: (Date.now() - t0) / 1000, rounds, js, wasm, workers };
}

const rows = [];
const row = (workload, where, what, seconds, samples) => rows.push({ workload, where, what, seconds, ...growth(samples) });
for (const w of WORKLOADS) {
  const n = await runNative(w);
  row(w.name, 'native CLI', 'resident set', n.seconds, n.samples);
  const m = await runWasm(w);
  row(w.name, 'wasm in node', 'resident set', m.seconds, m.rss);
  row(w.name, 'wasm in node', 'wasm memory', m.seconds, m.heap);
}
if (!args.includes('--skip-page')) {
  const p = await runPage(pageMinutes);
  const what = `reproduction x ${p.rounds} (${pageMinutes} min)`;
  row(what, 'Chromium page', 'JS heap', p.seconds, p.js);
  row(what, 'Chromium page', 'page wasm memory', p.seconds, p.wasm);
  row(what, 'Chromium page', 'worker wasm memory (max)', p.seconds, p.workers);
}

if (args.includes('--json')) {
  console.log(JSON.stringify(rows, null, 1));
} else {
  const mb = (b) => (b / MB).toFixed(1);
  console.log('| workload | where | memory | seconds | after warm-up (MB) | at the end (MB) | peak (MB) | flat |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.workload} | ${r.where} | ${r.what} | ${r.seconds.toFixed(1)} | ${mb(r.warm)} | ${mb(r.last)} | ${mb(r.peak)} | ${r.flat ? 'yes' : 'NO'} |`);
}
process.exitCode = rows.every((r) => r.flat) ? 0 : 1;
