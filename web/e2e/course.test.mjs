// The example course page (web/examples/course.html) in headless Chromium: the embedded lab in an
// iframe and the headless JS API (attnlab-api.mjs) computing a number on the page.
// Env: ATTNLAB_WEB_DIR (the built web folder), ATTNLAB_CLI (native CLI, optional here),
// ATTNLAB_NODE_MODULE (default: attnlab_node.cjs beside the web folder), NODE_PATH with playwright-core.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { openUrl, useBrowser, webDir } from './browser.mjs';

const require = createRequire(import.meta.url);
const cli = process.env.ATTNLAB_CLI;
// What the course page computes (keep in step with web/examples/course.html).
const EXPERIMENT = 'separation.toy';
const OPTIONS = { preset: 'fig3b', params: { sweep: 'm=1:6:1', trials: 2000 }, seed: 1 };

test.before(() => {
  for (const f of ['attnlab-api.mjs', 'attnlab-api.d.ts', 'examples/course.html'])
    assert.ok(fs.existsSync(path.join(webDir, f)), `${f} is missing from ${webDir} (build the attnlab_app target)`);
});
const env = useBrowser();
const openCourse = (setup) =>
  openUrl(env.browser, env.base + 'examples/course.html', { width: 1100, height: 1600, ready: false, setup });

// The same API call in node, through the served attnlab-api.mjs and the node build of the module.
async function successAtThreeInNode() {
  const modulePath = process.env.ATTNLAB_NODE_MODULE || path.resolve(webDir, '..', 'attnlab_node.cjs');
  assert.ok(fs.existsSync(modulePath), `${modulePath} is missing (set ATTNLAB_NODE_MODULE)`);
  const { createAttnLab, column } = await import(pathToFileURL(path.join(webDir, 'attnlab-api.mjs')).href);
  const lab = await createAttnLab({ factory: require(modulePath) });
  const record = lab.run(EXPERIMENT, OPTIONS);
  return column(record, 'success_rate')[column(record, 'm').indexOf(3)];
}

test('the course page computes the number headless and embeds the lab', async () => {
  const { page, errors } = await openCourse();
  await page.waitForSelector('#api-result[data-done="1"], #api-result[data-failed="1"]', { timeout: 30000 });
  const shown = await page.evaluate(() => {
    const out = document.getElementById('api-result');
    return { done: out.dataset.done, value: out.dataset.value, text: out.textContent, ms: out.dataset.ms,
      error: document.getElementById('api-error').textContent, bar: document.getElementById('api-progress').value,
      rows: document.querySelectorAll('#api-table tbody tr').length };
  });
  assert.strictEqual(shown.done, '1', `the page reports: ${shown.error}`);
  const value = Number(shown.value);
  assert.strictEqual(value, await successAtThreeInNode(), 'same number as the same API call in node');
  assert.ok(Math.abs(value - (1 - 2 ** -3)) < 0.03, `success at m = 3 is ${value}, theory 0.875`);
  assert.strictEqual(shown.text, value.toFixed(4));
  assert.strictEqual(shown.bar, 1);
  assert.strictEqual(shown.rows, 6);
  if (cli) {
    const csv = execFileSync(cli, ['run', EXPERIMENT, '--preset', 'fig3b', '--set', 'sweep=m=1:6:1', '--set', 'trials=2000',
      '--seed', '1', '--quiet']).toString().split('\n').filter((l) => l && !l.startsWith('#'));
    const columns = csv[0].split(',');
    const row = csv.slice(1).map((l) => l.split(',')).find((r) => r[columns.indexOf('m')] === '3');
    assert.strictEqual(Number(row[columns.indexOf('success_rate')]), value, 'same number as the native CLI');
  }
  console.log(`course page: headless start() took ${shown.ms} ms in Chromium`);

  // The iframe: the lab itself, embedded (no experiment picker), seed hidden, and its run=1 finishes.
  const frame = await (await page.$('#lab-frame')).contentFrame();
  await frame.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  const embed = JSON.parse(await frame.evaluate(() => window.attnlab.appEmbedJson()));
  assert.strictEqual(embed.embed, true);
  assert.ok(embed.hidden.includes('seed'), JSON.stringify(embed));
  assert.strictEqual(embed.theme, 'light');
  await frame.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  assert.match(await frame.evaluate(() => window.attnlab.appCsv()), /# preset=fig3b/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('the API in the browser: schema errors, cancel, and no UI', async () => {
  const { page, errors } = await openCourse();
  await page.waitForSelector('#api-result[data-done="1"]', { timeout: 30000 });
  const frame = await (await page.$('#lab-frame')).contentFrame();
  await frame.waitForFunction(() => window.attnlab?.appState?.() === 'done', null, { timeout: 60000 });
  const out = await page.evaluate(async (options) => {
    const { createAttnLab, AttnLabError } = await import('/attnlab-api.mjs');
    const lab = await createAttnLab();
    let error;
    try { lab.run('separation.toy', { params: { tau: 0.7 } }); } catch (e) { error = e; }
    const reports = [];
    const handle = lab.start('separation.toy', {
      preset: 'fig3b', params: { trials: 100000 }, onProgress: (p) => { reports.push(p.fraction); handle.cancel(); },
    });
    let aborted;
    try { await handle.result; } catch (e) { aborted = e.name; }
    // Timings with the embedded lab idle: the course page's run, blocking and in slices.
    let t = performance.now();
    lab.run('separation.toy', options);
    const runMs = performance.now() - t;
    t = performance.now();
    await lab.start('separation.toy', options).result;
    const startMs = performance.now() - t;
    return { runMs, startMs, isApiError: error instanceof AttnLabError, name: error.name, message: error.message, reports, aborted,
      version: lab.version, experiments: lab.list().length, canvases: document.querySelectorAll('canvas').length };
  }, OPTIONS);
  console.log(`course page, embed idle: run() ${out.runMs.toFixed(0)} ms, start() ${out.startMs.toFixed(0)} ms in Chromium`);
  assert.deepStrictEqual(out.isApiError, true);
  assert.strictEqual(out.name, 'AttnLabError');
  assert.strictEqual(out.message, "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]");
  assert.strictEqual(out.aborted, 'AbortError');
  assert.strictEqual(out.reports.length, 1);
  assert.ok(out.reports[0] > 0 && out.reports[0] < 1);
  assert.match(out.version, /^\d+\.\d+\.\d+/);
  assert.ok(out.experiments >= 9);
  assert.strictEqual(out.canvases, 0, 'the headless module draws nothing on the course page');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('the course page shows an error when the API cannot load', async () => {
  const { page } = await openCourse((p) => p.route('**/attnlab-api.mjs', (route) => route.fulfill({ status: 404, body: 'gone' })));
  await page.waitForSelector('#api-result[data-failed="1"]', { timeout: 30000 });
  assert.ok(await page.isVisible('#api-error'));
  assert.match(await page.textContent('#api-error'), /The headless run failed: .*attnlab-api\.mjs/);
  await page.close();
});
