// How the work units scale (docs/design.md "The run: prepare, units, merge, results"), in one run on this machine:
//   the whole-paper reproduction (19 panels, the paper's trial counts) and the mirror-descent
//   synthetic figure (3 x 100 seeds), each timed
//   - natively: attnlab reproduce/run with --jobs 1 and --jobs 2,
//   - in headless Chromium: the page with 1 and 2 Web Workers (threads=1, threads=2),
// with the ratios, and the page's frame rate during the reproduction on workers (median and 5th
// percentile of requestAnimationFrame rates). usage: node bench/parallel.mjs WEB_DIR CLI [--json]
// (NODE_PATH must contain playwright-core; scripts/setup.sh installs it)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDirectory } from '../web/e2e/static_server.mjs';
import { launchChromium } from '../web/e2e/browser.mjs';

const [webDir, cli] = [path.resolve(process.argv[2] || 'build/wasm/web'), path.resolve(process.argv[3] || 'build/native/attnlab')];
const asJson = process.argv.includes('--json');

function timeCli(args) {
  const t0 = process.hrtime.bigint();
  execFileSync(cli, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const server = await serveDirectory(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();

// Opens the page at `hash`, starts the work with `start` (in the page) and waits until `done`
// (in the page) holds; returns seconds from start to done and the frame rates meanwhile.
async function timePage(hash, start, done) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(base + '#' + hash);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 60000 });
  await page.waitForTimeout(300);
  const seconds = await page.evaluate(async ({ start, done }) => {
    const startFn = new Function(`return (${start})`)(), doneFn = new Function(`return (${done})`)();
    const intervals = [];
    let last = performance.now(), running = true;
    const frame = (t) => { intervals.push(t - last); last = t; if (running) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
    const t0 = performance.now();
    startFn();
    // Workers need a moment to start: wait until they are up (or the run is done) before timing.
    while (!doneFn()) await new Promise((r) => setTimeout(r, 20));
    running = false;
    window.benchIntervals = intervals;
    return (performance.now() - t0) / 1000;
  }, { start: start.toString(), done: done.toString() });
  const intervals = await page.evaluate(() => window.benchIntervals);
  await page.close();
  const fps = intervals.slice(5).map((ms) => 1000 / ms).sort((a, b) => a - b);
  const at = (q) => fps.length ? fps[Math.floor(q * (fps.length - 1))] : NaN;
  return { seconds, fpsMedian: at(0.5), fps5: at(0.05) };
}

const rows = [];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-'));
for (const jobs of [1, 2]) {
  rows.push({ workload: 'whole paper (19 panels)', where: `native --jobs ${jobs}`, threads: jobs,
    seconds: timeCli(['reproduce', 'separation', '--paper-trials', '--out', tmp, '--jobs', String(jobs), '--quiet']) });
  rows.push({ workload: 'mirror synthetic figure', where: `native --jobs ${jobs}`, threads: jobs,
    seconds: timeCli(['run', 'mirror', '--preset', 'synthetic_figure', '--jobs', String(jobs), '--quiet']) });
}
rmSync(tmp, { recursive: true, force: true });
for (const threads of [1, 2]) {
  const paper = await timePage(`exp=separation.toy&threads=${threads}`,
    () => window.attnlab.appReproduce(true),
    () => JSON.parse(window.attnlab.appReproductionJson()).finished === true);
  rows.push({ workload: 'whole paper (19 panels)', where: `Chromium, ${threads} worker${threads > 1 ? 's' : ''}`, threads, ...paper });
  const mirror = await timePage(`exp=mirror&preset=synthetic_figure&threads=${threads}`,
    () => window.attnlab.appRun(), () => window.attnlab.appState() === 'done');
  rows.push({ workload: 'mirror synthetic figure', where: `Chromium, ${threads} worker${threads > 1 ? 's' : ''}`, threads, ...mirror });
}
await browser.close();
server.close();

const find = (workload, prefix, threads) => rows.find((r) => r.workload === workload && r.where.startsWith(prefix) && r.threads === threads);
for (const r of rows) {
  const one = find(r.workload, r.where.split(',')[0].split(' ')[0], 1);
  r.speedup = one.seconds / r.seconds;
  if (r.where.startsWith('Chromium')) r.vsNative = r.seconds / find(r.workload, 'native', r.threads).seconds;
}
if (asJson) {
  console.log(JSON.stringify({ cores: os.cpus().length, rows }, null, 1));
} else {
  console.log(`${os.cpus().length} cores. speedup: against the same face with 1 thread; page/native: the page's time over the CLI's with as many threads.`);
  console.log('workload                  where                 seconds  speedup  page/native  fps median  fps p5');
  for (const r of rows)
    console.log(`${r.workload.padEnd(25)} ${r.where.padEnd(21)} ${r.seconds.toFixed(2).padStart(7)}  ${r.speedup.toFixed(2).padStart(7)}` +
      `  ${r.vsNative ? r.vsNative.toFixed(2).padStart(11) : ''.padStart(11)}  ${r.fpsMedian ? r.fpsMedian.toFixed(0).padStart(10) : ''.padStart(10)}` +
      `  ${r.fps5 ? r.fps5.toFixed(0).padStart(6) : ''}`);
}
