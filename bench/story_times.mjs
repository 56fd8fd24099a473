// Every story step's run time in the page, on ONE Web Worker (the link's threads=1), in headless
// Chromium at 1280 x 800: each step is opened by its link, predicted (the first choice, or the
// number field's least value), and Run is pressed; the time is from Run to the answer shown (the
// run done and the step's answer filled in). A benchmark, not a test: it asserts nothing about time;
// the budget it is read against is kStoryStepSecondsMax (src/lab/story.hpp).
// usage: node bench/story_times.mjs [WEB_DIR] [--json]   (NODE_PATH with playwright-core)
import os from 'node:os';
import path from 'node:path';
import { serveDirectory } from '../web/e2e/static_server.mjs';
import { launchChromium } from '../web/e2e/browser.mjs';

const args = process.argv.slice(2);
const webDir = path.resolve(args.find((a) => !a.startsWith('--')) || 'build/wasm/web');
const asJson = args.includes('--json');
const BUDGET_S = 10;  // kStoryStepSecondsMax, for the table's last column only

const server = await serveDirectory(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();
const open = async (hash) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base + hash);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 60000 });
  return { page, errors };
};

const load0 = os.loadavg()[0];
const rows = [];
try {
  const first = await open('');
  const stories = JSON.parse(await first.page.evaluate(() => window.attnlab.listStories()));
  await first.page.close();
  for (const s of stories) {
    for (let k = 1; k <= s.steps.length; k++) {
      const { page, errors } = await open(`#story=${s.id}&step=${k}&threads=1`);
      await page.waitForFunction((n) => JSON.parse(window.attnlab.appPageJson()).story?.step === n, k);
      // From Run (or from opening, for a step that runs by itself) to the answer shown, timed in
      // the page, checked once per animation frame.
      const r = await page.evaluate(() => new Promise((resolve) => {
        const a = window.attnlab;
        const story = () => JSON.parse(a.appPageJson()).story;
        const st = story();
        const selfRun = ['running', 'done'].includes(a.appState());
        if (st.prediction) a.appPredict(st.prediction.choices.length ? 0 : (st.prediction.min ?? 1));
        const t0 = performance.now();
        if (!selfRun) a.appRunControl('run');
        const workers = JSON.parse(a.appComputeJson());
        const tick = () => {
          if (a.appState() === 'done' && story().answer) {
            resolve({ seconds: (performance.now() - t0) / 1000, selfRun, workers });
          } else if (performance.now() - t0 > 600000) {
            resolve({ seconds: NaN, selfRun, workers, state: a.appState() });
          } else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }));
      rows.push({ story: s.id, step: k, title: s.steps[k - 1].title, seconds: r.seconds, selfRun: r.selfRun,
        compute: r.workers, errors });
      if (!asJson) process.stderr.write(`${s.id} ${k}: ${r.seconds.toFixed(2)} s\n`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
const load1 = os.loadavg()[0];
if (asJson) {
  console.log(JSON.stringify({ load: [load0, load1], rows }, null, 1));
} else {
  const worst = rows.reduce((m, r) => (r.seconds > m.seconds ? r : m), rows[0]);
  console.log(`Load average (1 min) ${load0.toFixed(2)} at the start, ${load1.toFixed(2)} at the end; ${os.cpus().length} cores.`);
  console.log('Compute of the first step: ' + JSON.stringify(rows[0].compute));
  console.log('\n| story | step | title | seconds (1 worker) |\n|---|---|---|---|');
  for (const r of rows) {
    const flag = !(r.seconds <= BUDGET_S) ? ' **over 10 s**' : '';
    console.log(`| ${r.story} | ${r.step} | ${r.title} | ${r.seconds.toFixed(2)}${flag} |`);
  }
  console.log(`\nSlowest: ${worst.story} step ${worst.step}, ${worst.seconds.toFixed(2)} s; ` +
    `${rows.filter((r) => !(r.seconds <= BUDGET_S)).length} of ${rows.length} steps over ${BUDGET_S} s.`);
  const bad = rows.filter((r) => r.errors.length || r.selfRun);
  for (const r of bad) console.log(`${r.story} ${r.step}: ${r.selfRun ? 'ran by itself; ' : ''}${r.errors.join('; ')}`);
}
