// The headless JS API (attnlab-api.mjs) with {threads} in headless Chromium: units computed by Web
// Workers (unit_pool.js + unit_worker.js + attnlab_worker.js, loaded from the API's folder) give
// the bytes of a run on the page's main thread; cancel() leaves no worker busy.
// Env: ATTNLAB_WEB_DIR (the built web folder), NODE_PATH with playwright-core.
import test from 'node:test';
import assert from 'node:assert';
import { openUrl, useBrowser } from './browser.mjs';

const env = useBrowser();

// A page of the lab's origin that is not the app: the API is imported by the test itself.
async function openBlank() {
  const { page, errors } = await openUrl(env.browser, env.base + 'api-threads-blank.html', {
    ready: false,
    setup: (p) => p.route('**/api-threads-blank.html', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title><body></body>' })),
  });
  return { page, errors };
}

test('runCsv with threads 2 on Web Workers gives the bytes of the main thread; another seed differs', async () => {
  const { page, errors } = await openBlank();
  const out = await page.evaluate(async () => {
    const { createAttnLab } = await import('/attnlab-api.mjs');
    const lab = await createAttnLab();
    const runs = [
      ['separation.toy', { params: { n: 200, sweep: 'm=1:4:1', trials: 40 }, seed: 3 }],
      ['separation.self', { params: { n: 60, sweep: 'm=1:4:1', trials: 40 }, seed: 5 }],
    ];
    const results = [];
    for (const [id, options] of runs) {
      const main = lab.runCsv(id, options);
      const threaded = await lab.runCsv(id, { ...options, threads: 2 });
      const other = await lab.runCsv(id, { ...options, seed: options.seed + 1, threads: 2 });
      results.push({ id, same: main === threaded, otherDiffers: other !== main, lines: main.split('\n').length });
    }
    const workers = lab.workers;
    await lab.close();
    return { results, workers, after: lab.workers, pool: typeof globalThis.AttnLabUnitPool };
  });
  for (const r of out.results) {
    assert.ok(r.same, `${r.id}: threads 2 differs from the main thread`);
    assert.ok(r.otherDiffers, `${r.id}: another seed gives the same CSV`);
    assert.ok(r.lines > 3);
  }
  assert.deepStrictEqual(out.workers, { size: 2, busy: 0 });
  assert.deepStrictEqual(out.after, { size: 0, busy: 0 });
  assert.strictEqual(out.pool, 'function', 'unit_pool.js was loaded from the API folder');
  assert.deepStrictEqual(errors, []);
  await page.close();
});

test('cancel() of a threaded run rejects with AbortError within a worker slice and leaves no worker busy', async () => {
  const { page, errors } = await openBlank();
  const out = await page.evaluate(async () => {
    const { createAttnLab } = await import('/attnlab-api.mjs');
    const lab = await createAttnLab();
    let atCancel = -1, calls = 0;
    const handle = lab.start('separation.toy', {
      preset: 'fig3b', params: { trials: 100000 }, seed: 2, threads: 2,
      onProgress: () => { if (++calls === 1) { atCancel = handle.progress(); handle.cancel(); } },
    });
    let name = '';
    try { await handle.result; } catch (e) { name = e.name; }
    const busy = lab.workers.busy, progress = handle.progress();
    await lab.close();
    return { name, busy, calls, atCancel, progress };
  });
  // Counted in work, not time: nothing reported or counted after cancel(), no worker busy when the
  // promise settles, and the run far from its end (it was cancelled, not finished).
  assert.strictEqual(out.name, 'AbortError');
  assert.strictEqual(out.calls, 1);
  assert.strictEqual(out.busy, 0);
  assert.strictEqual(out.progress, out.atCancel, 'no progress after cancel()');
  assert.ok(out.progress < 0.5, `progress ${out.progress}`);
  assert.deepStrictEqual(errors, []);
  await page.close();
});
