// The page computes on Web Workers (web/workers, src/ui/unit_scheduler): the same bytes as the CLI
// with 2 workers, nothing left busy after Reset, and workers inside an iframe on another origin
// that sends no COOP/COEP headers (as a course site would).
import test from 'node:test';
import assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { afterFrames, openUrl, useBrowser } from './browser.mjs';

const cli = process.env.ATTNLAB_CLI;
const env = useBrowser();
const compute = (page) => page.evaluate(() => JSON.parse(window.attnlab.appComputeJson()));

test('with 2 workers a run gives the CLI bytes, and the status says where it computed', async () => {
  const settings = [['n', '400'], ['sweep', 'm=1:8:1'], ['trials', '300'], ['tau', '0.2']];
  const hash = 'exp=separation.toy&seed=23&' + settings.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&') +
    '&threads=2&run=1';
  const { page, errors } = await openUrl(env.browser, env.base + '#' + hash);
  let sawStatus = '';
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  const info = await compute(page);
  assert.strictEqual(info.threads, 2);
  assert.strictEqual(info.workers, true);
  const csv = await page.evaluate(() => window.attnlab.appCsv());
  const expected = execFileSync(cli, ['run', 'separation.toy', '--seed', '23', '--quiet',
    ...settings.flatMap(([k, v]) => ['--set', `${k}=${v}`])]).toString();
  assert.strictEqual(csv, expected);
  assert.match(await page.evaluate(() => window.attnlab.appHash()), /threads=2/);
  sawStatus = await page.evaluate(() => document.getElementById('status').textContent);
  assert.doesNotMatch(sawStatus, /main thread/);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('Reset during a run on workers leaves no worker busy', async () => {
  const { page, errors } = await openUrl(env.browser, env.base +
    '#exp=separation.toy&preset=fig3b&seed=3&threads=2&run=1');
  await page.waitForFunction(() => JSON.parse(window.attnlab.appComputeJson()).busy > 0, null, { timeout: 30000 });
  await page.evaluate(() => window.attnlab.appLoadHash('exp=separation.toy&preset=fig3b&seed=4&threads=2'));
  await page.waitForFunction(() => JSON.parse(window.attnlab.appComputeJson()).busy === 0, null, { timeout: 5000 });
  assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'ready');
  await afterFrames(page, 6);  // frames in which the App could post units again: it posts none
  assert.strictEqual((await compute(page)).busy, 0);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('threads=0 computes on the main thread, with the same bytes', async () => {
  const hash = 'exp=separation.self&preset=fig4a&seed=5&trials=20';
  const { page } = await openUrl(env.browser, env.base + '#' + hash + '&threads=0&run=1');
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  assert.strictEqual((await compute(page)).workers, false);
  const expected = execFileSync(cli, ['run', 'separation.self', '--preset', 'fig4a', '--seed', '5', '--set',
    'trials=20', '--quiet']).toString();
  assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), expected);
  await page.close();
});

test('where workers cannot start, the page computes on its main thread and says so', async () => {
  const hash = 'exp=separation.toy&seed=8&n=300&trials=120&sweep=m%3D1%3A5%3A1&threads=2&run=1';
  const { page } = await openUrl(env.browser, env.base + '#' + hash, {
    setup: (p) => p.route('**/unit_worker.js', (route) => route.abort()) });
  await page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 60000 });
  assert.strictEqual((await compute(page)).workers, false);
  const expected = execFileSync(cli, ['run', 'separation.toy', '--seed', '8', '--quiet', '--set', 'n=300', '--set',
    'trials=120', '--sweep', 'm=1:5:1']).toString();
  assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), expected);
  // The status line named the fallback while the run went on (a second run shows it again).
  await page.evaluate(() => window.attnlab.appLoadHash('exp=separation.toy&preset=fig3b&seed=8&threads=2&run=1'));
  await page.waitForFunction(() => /main thread: Web Workers could not start/.test(document.getElementById('status').textContent),
    null, { timeout: 10000 });
  await page.close();
});

test('a bad threads= value is refused with the allowed range', async () => {
  const { page } = await openUrl(env.browser, env.base);
  const error = await page.evaluate(() => window.attnlab.appLoadHash('exp=separation.toy&threads=99'));
  assert.strictEqual(error, "link: 'threads=99' is not allowed; allowed: integer in [0, 16] (0 computes on the page's main thread)");
  await page.close();
});

test('an iframe on another origin without COOP/COEP runs on workers', async () => {
  // The course page: another origin (127.0.0.2 vs 127.0.0.1: both loopback, and no name to
  // resolve, which a fresh machine's /etc/hosts may lack), plain headers.
  const lab = new URL(env.base);
  const course = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><title>course</title><iframe id="lab" width="900" height="600"
      src="http://127.0.0.1:${lab.port}/#exp=separation.toy&n=300&trials=200&sweep=m%3D1%3A6%3A1&threads=2&run=1&embed=1"></iframe>`);
  });
  await new Promise((r) => course.listen(0, '127.0.0.2', r));
  const page = await env.browser.newPage();
  await page.goto(`http://127.0.0.2:${course.address().port}/`);
  const frame = page.frames().find((f) => f.url().startsWith(`http://127.0.0.1:${lab.port}/`));
  assert.ok(frame, 'the lab frame loaded');
  await frame.waitForFunction(() => window.attnlab && window.attnlab.appState && window.attnlab.appState() === 'done',
    null, { timeout: 60000 });
  const info = await frame.evaluate(() => JSON.parse(window.attnlab.appComputeJson()));
  assert.strictEqual(info.workers, true);
  assert.strictEqual(await frame.evaluate(() => self.crossOriginIsolated), false);
  await page.close();
  course.close();
});
