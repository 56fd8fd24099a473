// A run survives a lost worker (docs/design.md "A lost worker"). The fault is injected the way a
// browser loses a worker without a word: the test wraps window.Worker before the page loads and
// terminates a worker mid-run, which fires no event. The pool's watchdog notices, the unit runs
// again on a replacement, and the run's CSV equals the CLI's; a unit that is lost every time ends
// the run with a message naming it, and what was computed stays exportable.
import test from 'node:test';
import assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { openUrl, useBrowser } from './browser.mjs';

const cli = process.env.ATTNLAB_CLI;
const env = useBrowser();

// Before any page script: every Worker the page makes is kept in window.__workers, and
// window.__fault(worker, message) sees each message posted to one (the test sets it).
function wrapWorkers() {
  const Original = window.Worker;
  window.__workers = [];
  window.__killsUnit = -1;  // a worker that starts computing this unit stops on the spot
  window.__refuseNew = false;  // no new worker can start (a browser that refuses more)
  window.__onlyOne = false;    // after the first worker, __refuseNew
  window.Worker = class extends Original {
    constructor(...args) {
      if (window.__refuseNew) throw new Error('no more workers here');
      super(...args);
      window.__workers.push(this);
      if (window.__onlyOne) window.__refuseNew = true;
      this.__queue = [];  // the units posted to it and not back, in order: the first is computing
      this.addEventListener('message', (e) => {
        const m = e.data;
        if (!['done', 'error', 'cancelled'].includes(m.type)) return;
        this.__queue = this.__queue.filter((u) => u !== m.unit);
        if (this.__queue[0] === window.__killsUnit) this.terminate();
      });
    }
    postMessage(msg, ...rest) {
      if (msg && msg.type === 'run') {
        this.__queue.push(msg.unit);
        if (this.__queue[0] === window.__killsUnit) { this.terminate(); return undefined; }
      }
      return super.postMessage(msg, ...rest);
    }
  };
}

async function faultedRun(t, { hash, cliArgs, threads }) {
  const { page, errors } = await openUrl(env.browser, env.base + '#' + hash + `&threads=${threads}`,
    { setup: (p) => p.addInitScript(wrapWorkers) });
  const t0 = Date.now();
  await page.evaluate((h) => window.attnlab.appLoadHash(h), hash + `&threads=${threads}&run=1`);
  // 1.5 s into the run (or a quarter of the way through it, on a fast machine), the first worker is
  // terminated: no error event, no message, nothing.
  await page.waitForFunction(() => window.attnlab.appState() === 'running' && window.__workers.length > 0);
  const started = Date.now();
  await page.waitForFunction((t0) => Date.now() - t0 >= 1500 || window.attnlab.appProgress() >= 0.25, started,
    { polling: 50, timeout: 10000 });
  const stopped = await page.evaluate(() => {
    if (window.attnlab.appState() !== 'running') return false;
    window.__workers[0].terminate();
    return true;
  });
  const lostAt = Date.now() - t0;
  assert.ok(stopped, 'the run was still going when the worker was terminated (make it longer)');
  await page.waitForFunction(() => ['done', 'failed'].includes(window.attnlab.appState()), null, { timeout: 90000 });
  const seconds = (Date.now() - t0) / 1000;
  const status = await page.evaluate(() => document.getElementById('status').textContent);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'done', status);
  assert.match(status, /A worker stopped; its unit ran again|Workers stopped; \d+ units ran again/);
  const expected = execFileSync(cli, ['run', ...cliArgs, '--quiet']).toString();
  assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), expected);
  assert.deepStrictEqual(errors, []);
  await page.close();
  // The same run without the fault, for the time it costs.
  const clean = await openUrl(env.browser, env.base + '#' + hash + `&threads=${threads}`);
  const c0 = Date.now();
  await clean.page.evaluate((h) => window.attnlab.appLoadHash(h), hash + `&threads=${threads}&run=1`);
  await clean.page.waitForFunction(() => window.attnlab.appState() === 'done', null, { timeout: 90000 });
  const cleanSeconds = (Date.now() - c0) / 1000;
  await clean.page.close();
  t.diagnostic(`${hash} threads=${threads}: ${seconds.toFixed(1)} s with a worker lost after ${(lostAt / 1000).toFixed(1)} s, ` +
    `${cleanSeconds.toFixed(1)} s without`);
}

const MIRROR = { hash: 'exp=mirror&preset=synthetic_figure&seed=4&seeds=12',
  cliArgs: ['mirror', '--preset', 'synthetic_figure', '--seed', '4', '--set', 'seeds=12'] };
const TOY = { hash: 'exp=separation.toy&preset=fig3b&seed=6&trials=20000',
  cliArgs: ['separation.toy', '--preset', 'fig3b', '--seed', '6', '--set', 'trials=20000'] };

test('mirror, 1 worker: a worker lost mid-run, the run finishes with the CLI bytes', (t) => faultedRun(t, { ...MIRROR, threads: 1 }));
test('mirror, 2 workers: a worker lost mid-run, the run finishes with the CLI bytes', (t) => faultedRun(t, { ...MIRROR, threads: 2 }));
test('toy model, 2 workers: a worker lost mid-run, the run finishes with the CLI bytes', (t) => faultedRun(t, { ...TOY, threads: 2 }));

test('a unit whose worker is lost every time ends the run with a message naming it; the rest stays', async () => {
  const hash = 'exp=separation.toy&preset=fig3b&seed=6&trials=200';
  const { page, errors } = await openUrl(env.browser, env.base + '#' + hash + '&threads=2',
    { setup: (p) => p.addInitScript(wrapWorkers) });
  await page.evaluate(() => {
    window.AttnLabUnitPool.WATCHDOG_FLOOR_MS = 1000;  // the test need not wait 3 x 5 s
    window.__killsUnit = 3;  // a unit that kills every worker that computes it
  });
  await page.evaluate((h) => window.attnlab.appLoadHash(h), hash + '&threads=2&run=1');
  await page.waitForFunction(() => ['done', 'failed'].includes(window.attnlab.appState()), null, { timeout: 60000 });
  const status = await page.evaluate(() => document.getElementById('status').textContent);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'failed', status);
  assert.match(status, /Error: separation\.toy, unit 3: its worker was lost 3 times \(last: no answer for [\d.]+ s/);
  // What came back before stays: the CSV has the rows of the units that finished.
  const csv = await page.evaluate(() => window.attnlab.appCsv());
  const rows = csv.split('\n').filter((line) => /^\d/.test(line));
  assert.ok(rows.length >= 3, `rows kept: ${rows.length}`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('when no new worker can start, the page computes the rest on its main thread, same bytes', async () => {
  const hash = 'exp=separation.toy&preset=fig3b&seed=7&trials=300';
  const { page, errors } = await openUrl(env.browser, env.base + '#' + hash + '&threads=1',
    { setup: (p) => p.addInitScript(wrapWorkers) });
  await page.evaluate(() => {
    window.__killsUnit = 5;
    window.__onlyOne = true;  // the run's one worker starts, no other
  });
  await page.evaluate((h) => window.attnlab.appLoadHash(h), hash + '&threads=1&run=1');
  await page.waitForFunction(() => ['done', 'failed'].includes(window.attnlab.appState()), null, { timeout: 60000 });
  const status = await page.evaluate(() => document.getElementById('status').textContent);
  assert.strictEqual(await page.evaluate(() => window.attnlab.appState()), 'done', status);
  assert.match(status, /ran again/);
  const expected = execFileSync(cli, ['run', 'separation.toy', '--preset', 'fig3b', '--seed', '7', '--set',
    'trials=300', '--quiet']).toString();
  assert.strictEqual(await page.evaluate(() => window.attnlab.appCsv()), expected);
  assert.deepStrictEqual(errors, []);
  await page.close();
});
