// What the page costs while a run computes on workers (docs/design.md "Frames on demand"), in
// headless Chromium at 1280 x 800: the whole-paper reproduction on 1 worker, then
//   - idle: the student does nothing for IDLE seconds: frames drawn per second, CPU seconds per
//     second of the renderer's main thread, its worker threads and the GPU process;
//   - mouse: the mouse moves over the figures for MOUSE seconds: the drawn frame rate (median and
//     5th percentile of 1 / the interval between drawn frames), and the same CPU figures.
// A drawn frame is one clear of the WebGL canvas (the page clears once per frame it draws), counted
// by a wrapper installed before the page loads, so the script measures any build, old or new.
// CPU from /proc/PID/task/*/stat of the browser's processes (Linux only).
// usage: node bench/frames.mjs WEB_DIR [--idle S] [--mouse S] [--json]   (NODE_PATH with playwright-core)
import os from 'node:os';
import path from 'node:path';
import { serveDirectory } from '../web/e2e/static_server.mjs';
import { countDrawnFrames, launchChromium } from '../web/e2e/browser.mjs';
import { cpuSeconds, descendants, snapshot } from './proc_cpu.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const webDir = path.resolve(args[0] || 'build/wasm/web');
const idleSeconds = option('--idle', 5), mouseSeconds = option('--mouse', 5);
const asJson = args.includes('--json');

// CPU seconds per second over [a, b], by group (proc_cpu.mjs's cpuSeconds).
function cpuBetween(procs, a, b, seconds) {
  const c = cpuSeconds(procs, a, b);
  return { main: c.main / seconds, workers: c.workers / seconds, rendererOther: c.rendererOther / seconds, gpu: c.gpu / seconds };
}

const server = await serveDirectory(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await countDrawnFrames(page);
await page.goto(base + '#exp=separation.toy&threads=1');
await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 60000 });
await page.evaluate(() => window.attnlab.appReproduce(true));
// Workers up and computing: a unit's result has come back (progress above 0).
await page.waitForFunction(() => JSON.parse(window.attnlab.appReproductionJson()).panels.some((p) => p.done > 0),
  null, { timeout: 120000 });
const procs = descendants();

async function phase(seconds, action) {
  const t0 = await page.evaluate(() => performance.now());
  const a = snapshot(procs), wall0 = process.hrtime.bigint();
  await action(seconds);
  const b = snapshot(procs), wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const t1 = await page.evaluate(() => performance.now());
  const frames = await page.evaluate(([from, to]) => window.drawnFrames.filter((t) => t >= from && t <= to), [t0, t1]);
  const fps = frames.slice(1).map((t, i) => 1000 / (t - frames[i])).sort((x, y) => x - y);
  const at = (q) => (fps.length ? fps[Math.floor(q * (fps.length - 1))] : 0);
  const finished = await page.evaluate(() => JSON.parse(window.attnlab.appReproductionJson()).finished === true);
  return { seconds: wall, framesPerSecond: frames.length / wall, fpsMedian: at(0.5), fps5: at(0.05),
    cpu: cpuBetween(procs, a, b, wall), finishedDuring: finished };
}

const idle = await phase(idleSeconds, (s) => new Promise((r) => setTimeout(r, s * 1000)));
const mouse = await phase(mouseSeconds, async (s) => {
  const end = Date.now() + s * 1000;
  for (let k = 0; Date.now() < end; ++k) {
    const angle = k / 10;
    await page.mouse.move(640 + 250 * Math.cos(angle), 420 + 150 * Math.sin(angle));
    await new Promise((r) => setTimeout(r, 8));
  }
});
await browser.close();
server.close();

const rows = { cores: os.cpus().length, loadAverage: os.loadavg()[0], idle, mouse };
if (asJson) {
  console.log(JSON.stringify(rows, null, 1));
} else {
  console.log(`${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}; whole paper on 1 worker, 1280 x 800`);
  console.log('phase   seconds  drawn/s  fps median  fps p5   CPU s/s: main  workers  renderer other  GPU process');
  for (const [name, r] of Object.entries({ idle, mouse }))
    console.log(`${name.padEnd(6)} ${r.seconds.toFixed(1).padStart(8)} ${r.framesPerSecond.toFixed(1).padStart(8)}` +
      ` ${r.fpsMedian.toFixed(0).padStart(11)} ${r.fps5.toFixed(0).padStart(7)} ${r.cpu.main.toFixed(2).padStart(14)}` +
      ` ${r.cpu.workers.toFixed(2).padStart(8)} ${r.cpu.rendererOther.toFixed(2).padStart(15)} ${r.cpu.gpu.toFixed(2).padStart(12)}` +
      (r.finishedDuring ? '  (the run finished during this phase)' : ''));
}
