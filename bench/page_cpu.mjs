// Where the CPU goes while the page runs an experiment (docs/design.md "Frames on demand"), in
// headless Chromium at 1280 x 800: the mirror-descent synthetic figure (3 x 100 seeds) with 1 and
// with 2 workers, run twice in one page, the second run (warm workers) measured: its wall time and
// the CPU seconds of the workers, the page's main thread, the renderer's other threads and the GPU
// process (software WebGL here) over it. Nobody touches the page.
// CPU from /proc/PID/task/*/stat of the browser's processes (Linux only).
// usage: node bench/page_cpu.mjs WEB_DIR [--json]   (NODE_PATH with playwright-core)
import os from 'node:os';
import path from 'node:path';
import { serveDirectory } from '../web/e2e/static_server.mjs';
import { launchChromium } from '../web/e2e/browser.mjs';
import { cpuSeconds, descendants, snapshot } from './proc_cpu.mjs';

const webDir = path.resolve(process.argv[2] || 'build/wasm/web');
const asJson = process.argv.includes('--json');

const server = await serveDirectory(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();
const rows = [];
for (const threads of [1, 2]) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(base + `#exp=mirror&preset=synthetic_figure&threads=${threads}`);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 60000 });
  for (const warm of [false, true]) {
    const procs = descendants();
    const a = snapshot(procs), t0 = process.hrtime.bigint();
    await page.evaluate(() => window.attnlab.appRun());
    await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 300000, polling: 50 });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    if (warm) rows.push({ threads, wall, cpu: cpuSeconds(procs, a, snapshot(procs)) });
  }
  await page.close();
}
await browser.close();
server.close();

if (asJson) {
  console.log(JSON.stringify({ cores: os.cpus().length, rows }, null, 1));
} else {
  console.log(`${os.cpus().length} cores; the mirror synthetic figure's second run in one page, 1280 x 800; CPU seconds over it`);
  console.log('workers  wall s   workers  page main  renderer other  GPU process  browser');
  for (const r of rows)
    console.log(`${String(r.threads).padStart(7)} ${r.wall.toFixed(2).padStart(7)} ${r.cpu.workers.toFixed(2).padStart(9)}` +
      ` ${r.cpu.main.toFixed(2).padStart(10)} ${r.cpu.rendererOther.toFixed(2).padStart(15)} ${r.cpu.gpu.toFixed(2).padStart(12)}` +
      ` ${r.cpu.browser.toFixed(2).padStart(8)}`);
}
