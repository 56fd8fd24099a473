// Threaded runs of the JS API (web/api/attnlab-api.mjs, option `threads`): work units computed by
// node worker_threads running web/workers/unit_worker.js give the same bytes as one thread.
// Env: ATTNLAB_NODE_MODULE (attnlab_node.cjs).
import test from 'node:test';
import assert from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createAttnLab, AttnLabError } from '../../web/api/attnlab-api.mjs';

const require = createRequire(import.meta.url);
const modulePath = process.env.ATTNLAB_NODE_MODULE;
const apiUrl = new URL('../../web/api/attnlab-api.mjs', import.meta.url).href;
const workerScript = fileURLToPath(new URL('../../web/workers/unit_worker.js', import.meta.url));
// A unit worker in a worker_threads Worker, as AttnLabUnitPool's spawn() makes them.
const spawnNodeWorker = (handlers) => {
  const w = new Worker(workerScript, { workerData: { module: modulePath } });
  w.on('message', handlers.message);
  w.on('error', handlers.error);
  return w;
};

assert.ok(modulePath, 'ATTNLAB_NODE_MODULE must name attnlab_node.cjs');
const lab = await createAttnLab({ factory: require(modulePath) });  // the workers load the same file
const raw = lab.module;
test.after(() => lab.close());

// Every registered experiment with its small settings (smoke_settings(): several units of every
// kind it makes), and one preset with a longer sweep.
const UNIT_RUNS = [
  ...lab.list().map(({ id }, i) => ({ id, options: { params: lab.describe(id).smokeSettings, seed: i + 1 } })),
  { id: 'separation.toy', options: { preset: 'fig3b', params: { sweep: 'm=1:6:1', trials: 300 }, seed: 1 } },
];
// Long enough to be cancelled: 100 sweep points of 100000 trials.
const LONG = { preset: 'fig3b', params: { trials: 100000 }, seed: 2 };

// A record as text with the wall-clock times in its notes masked ("0.26 s", "0.0462 ms per
// iteration"): they differ between any two runs; everything else must match byte for byte.
function stable(record) {
  const notes = record.notes.map((note) => note.replace(/\d+(\.\d+)?(e[-+]?\d+)? (ms|s)\b/g, '<time>'));
  return JSON.stringify({ ...record, notes });
}

function unitCount(id, { preset, params, seed }) {
  const s = new raw.Session(id, preset, params, seed);
  try { return s.unitCount(); } finally { s.delete(); }
}

for (const [index, { id, options }] of UNIT_RUNS.entries()) {
  test(`${id} ${JSON.stringify(options)}: threads 2 gives the bytes of threads 0 and of runCsv`, async () => {
    assert.ok(unitCount(id, options) >= 2, 'the run has several units');
    const csv = lab.runCsv(id, options);
    const record = lab.run(id, options);
    assert.strictEqual(typeof csv, 'string');
    assert.strictEqual(lab.runCsv(id, { ...options, threads: 0 }), csv, 'threads 0 is the blocking run');
    assert.strictEqual(csv, raw.runExperimentCsv(id, options.preset, options.params, options.seed));

    const threaded = lab.run(id, { ...options, threads: 2 });
    assert.ok(threaded instanceof Promise, 'threads >= 1: a Promise');
    assert.strictEqual(stable(await threaded), stable(record));
    assert.strictEqual(await lab.runCsv(id, { ...options, threads: 2 }), csv);
    if (index === 0) {
      assert.strictEqual(await lab.runCsv(id, { ...options, threads: 3 }), csv);
      assert.strictEqual(await lab.runCsv(id, { ...options, threads: 1 }), csv);
    }

    const reports = [];
    const handle = lab.start(id, { ...options, threads: 2, onProgress: (p) => reports.push(p) });
    const started = await handle.result;
    assert.strictEqual(stable(started), stable(record));
    assert.ok(reports.length >= 2, `${reports.length} progress reports`);
    for (let i = 1; i < reports.length; i++) {
      assert.ok(reports[i].fraction >= reports[i - 1].fraction, 'fractions never decrease');
      assert.ok(reports[i].unitsDone >= reports[i - 1].unitsDone);
    }
    assert.strictEqual(reports.at(-1).fraction, 1);
    assert.strictEqual(reports.at(-1).unitsDone, reports.at(-1).units);
    assert.strictEqual(reports.at(-1).units, unitCount(id, options));
    assert.ok(reports.slice(0, -1).every((r) => r.fraction < 1));
    assert.strictEqual(JSON.stringify(reports.at(-1).record), JSON.stringify(started));
    assert.strictEqual(handle.progress(), 1);

    const otherSeed = { ...options, seed: options.seed + 1 };
    const other = await lab.runCsv(id, { ...otherSeed, threads: 2 });
    assert.notStrictEqual(other, csv, 'another seed differs');
    if (index === 0) assert.strictEqual(other, lab.runCsv(id, otherSeed));
    assert.strictEqual(lab.workers.busy, 0);
  });
}

test('workers are reused across runs of one lab; close() ends them and a later run starts new ones', async () => {
  const { id, options } = UNIT_RUNS[0];
  await lab.run(id, { ...options, threads: 2 });
  assert.deepStrictEqual(lab.workers, { size: 2, busy: 0 });
  await lab.run(id, { ...options, threads: 2 });
  assert.deepStrictEqual(lab.workers, { size: 2, busy: 0 }, 'the same two workers');
  await lab.close();
  assert.deepStrictEqual(lab.workers, { size: 0, busy: 0 });
  assert.strictEqual(await lab.runCsv(id, { ...options, threads: 2 }), lab.runCsv(id, options));
  assert.strictEqual(lab.workers.size, 2);
});

test('cancel() during a threaded run rejects with AbortError and leaves no worker busy', async () => {
  let calls = 0, atCancel = -1;
  const handle = lab.start('separation.toy', {
    ...LONG, threads: 2,
    onProgress: () => { if (++calls === 1) { atCancel = handle.progress(); handle.cancel(); } },
  });
  await assert.rejects(handle.result, (e) => e instanceof Error && e.name === 'AbortError');
  // Counted in work, not time: nothing counted after cancel(), no worker busy when it settles.
  assert.strictEqual(calls, 1, 'no report after cancel()');
  assert.strictEqual(lab.workers.busy, 0, 'every worker stopped');
  assert.strictEqual(handle.progress(), atCancel, 'no progress after cancel()');
  assert.ok(handle.progress() > 0 && handle.progress() < 0.5, `progress ${handle.progress()}`);
  // The pool is healthy: the next run uses it.
  const { id, options } = UNIT_RUNS[0];
  assert.strictEqual(await lab.runCsv(id, { ...options, threads: 2 }), lab.runCsv(id, options));
});

test('an AbortSignal stops a threaded run; close() cancels one in progress', async () => {
  const controller = new AbortController();
  const reason = new Error('user left the page');
  let aborted = false;  // aborted once the run has reported (not after a time it may not last)
  const run = lab.run('separation.toy', { ...LONG, threads: 2, signal: controller.signal,
    onProgress: () => { if (!aborted) { aborted = true; controller.abort(reason); } } });
  await assert.rejects(run, (e) => e.name === 'AbortError' && e.cause === reason);
  assert.strictEqual(lab.workers.busy, 0);
  await assert.rejects(lab.run('separation.toy', { ...LONG, threads: 2, signal: AbortSignal.abort() }), { name: 'AbortError' });

  let reported;
  const handle = lab.start('separation.toy', { ...LONG, threads: 2, onProgress: () => { reported?.(); } });
  await new Promise((resolve) => { reported = resolve; });
  await lab.close();
  await assert.rejects(handle.result, { name: 'AbortError' });
  assert.deepStrictEqual(lab.workers, { size: 0, busy: 0 });
});

test('concurrent threaded runs of one lab each get their own workers and the right bytes', async () => {
  const runs = UNIT_RUNS.map(({ id, options }) => lab.runCsv(id, { ...options, threads: 2 }));
  const csvs = await Promise.all(runs);
  UNIT_RUNS.forEach(({ id, options }, i) => assert.strictEqual(csvs[i], lab.runCsv(id, options), id));
  assert.strictEqual(lab.workers.busy, 0);
  assert.ok(lab.workers.size <= 2 * UNIT_RUNS.length);
});

test('the Session unit API: a worker-side Session computes units, the main one absorbs them', () => {
  const { id, options } = UNIT_RUNS[2];
  const main = new raw.Session(id, options.preset, options.params, options.seed);
  const worker = new raw.Session(id, options.preset, options.params, options.seed);
  try {
    assert.match(JSON.parse(worker.finishUnit()).error, /^no unit was started$/);
    assert.strictEqual(worker.startUnit(9999), 'unit 9999 is out of range');
    assert.strictEqual(worker.startUnit(0), '');
    assert.match(JSON.parse(worker.finishUnit()).error, /the unit is not finished/);
    const count = main.unitCount();
    // Units in reverse order: the merge does not depend on the order of arrival.
    for (let u = count - 1; u >= 0; u--) {
      assert.strictEqual(worker.startUnit(u), '');
      while (!worker.advanceUnit(0.01)) assert.ok(worker.unitFraction() >= 0 && worker.unitFraction() <= 1);
      const partial = worker.finishUnit();
      assert.ok(!partial.startsWith('{"error"'), partial);
      assert.ok(!main.unitFinished(u));
      assert.strictEqual(main.absorb(u, partial), '');
      assert.ok(main.unitFinished(u));
      assert.ok(main.unitCost(u) >= 1);
    }
    assert.ok(main.finished());
    assert.strictEqual(main.csv(), lab.runCsv(id, options));
    assert.notStrictEqual(main.absorb(0, '{"not": "a partial"'), '', 'a bad partial is refused with a message');
    assert.notStrictEqual(main.absorb(count, '{}'), '');
  } finally {
    main.delete();
    worker.delete();
  }
});

test('AttnLabUnitPool resends the settings after a worker forgot them (more runs than it keeps)', async () => {
  const { AttnLabUnitPool } = globalThis;  // loaded by the threaded runs above
  assert.strictEqual(typeof AttnLabUnitPool, 'function');
  const pool = new AttnLabUnitPool(spawnNodeWorker, 1);
  const next = () => new Promise((resolve) => {
    const check = () => { const events = pool.takeEvents().filter((e) => e.type !== 'progress'); if (events.length) { pool.onchange = null; resolve(events[0]); } };
    pool.onchange = check;
    check();
  });
  const until = (predicate) => new Promise((resolve) => {
    pool.onchange = () => { if (predicate()) { pool.onchange = null; resolve(); } };
    pool.onchange();
  });
  try {
    await until(() => pool.state !== 'starting');
    assert.strictEqual(pool.state, 'ready');
    const { id, options } = UNIT_RUNS[0];
    const spec = { id, params: options.params, seed: options.seed };
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'a', 'f', 'b'];
    for (const [i, key] of keys.entries()) {
      assert.ok(pool.post(key, spec, i % 3, 1), 'the worker is idle');
      assert.strictEqual(pool.idleCount, 0);
      const event = await next();
      assert.strictEqual(event.type, 'done', `${key}: ${event.message}`);
      assert.strictEqual(event.runKey, key);
    }
    // A preset in the settings is applied (the record's params need none).
    assert.ok(pool.post('p', { id, preset: 'fig3b', params: { sweep: 'm=1:2:1', trials: 64 }, seed: 1 }, 0, 2));
    assert.strictEqual((await next()).type, 'done');
    // A unit's error arrives as an event with the module's message.
    assert.ok(pool.post('bad', { id, params: { tau: 0.7 }, seed: 1 }, 0, 3));
    const bad = await next();
    assert.deepStrictEqual([bad.type, bad.message], ['error', "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]"]);
  } finally {
    pool.terminate();
  }
});

test('AttnLabUnitPool gives a worker up to DEPTH units, so it never waits for the owner between them', async () => {
  const { AttnLabUnitPool } = globalThis;
  const pool = new AttnLabUnitPool(spawnNodeWorker, 1);
  try {
    await new Promise((resolve) => { pool.onchange = () => { if (pool.state !== 'starting') resolve(); }; });
    const { id, options } = UNIT_RUNS[0];
    const spec = { id, params: options.params, seed: options.seed };
    assert.ok(AttnLabUnitPool.DEPTH >= 2);
    for (let u = 0; u < AttnLabUnitPool.DEPTH; ++u) assert.ok(pool.post('r', spec, u, 1), `unit ${u} is taken`);
    assert.strictEqual(pool.post('r', spec, AttnLabUnitPool.DEPTH, 1), false, 'the worker is full');
    const done = [];
    await new Promise((resolve) => {
      pool.onchange = () => {
        for (const e of pool.takeEvents()) if (e.type === 'done') done.push(e.unit);
        if (done.length === AttnLabUnitPool.DEPTH) resolve();
      };
    });
    assert.deepStrictEqual(done, [...Array(AttnLabUnitPool.DEPTH).keys()], 'in posting order');
    assert.strictEqual(pool.busyCount, 0);
  } finally {
    pool.terminate();
  }
});

test('bad threads and bad parameters throw AttnLabError before any worker starts', async () => {
  const fresh = await createAttnLab({ factory: require(modulePath) });
  const threadsMessage = (v) => `parameter 'threads': '${v}' is not allowed; allowed: integer in [0, 64]`;
  for (const [value, shown] of [[-1, '-1'], [1.5, '1.5'], [65, '65'], ['2', '2'], [null, 'null'], [NaN, 'NaN'], [true, 'true']]) {
    const options = { params: { trials: 5, sweep: 'none' }, threads: value };
    const check = (e) => e instanceof AttnLabError && e.message === threadsMessage(shown);
    assert.throws(() => fresh.run('separation.toy', options), check);
    assert.throws(() => fresh.runCsv('separation.toy', options), check);
    await assert.rejects(fresh.start('separation.toy', options).result, check);
  }
  const tau = "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]";
  await assert.rejects(fresh.run('separation.toy', { params: { tau: 0.7 }, threads: 2 }), (e) => e instanceof AttnLabError && e.message === tau);
  await assert.rejects(fresh.start('separation.toy', { params: { tau: 0.7 }, threads: 2 }).result, { name: 'AttnLabError', message: tau });
  await assert.rejects(fresh.runCsv('nope', { threads: 2 }), /^AttnLabError: unknown experiment 'nope'/);
  assert.deepStrictEqual(fresh.workers, { size: 0, busy: 0 }, 'no worker was started');
});

test('workers that cannot start reject the run with an Error (no hang)', async () => {
  const broken = await createAttnLab({ factory: require(modulePath), workerModule: '/nonexistent/attnlab_node.cjs' });
  await assert.rejects(broken.run('separation.toy', { ...UNIT_RUNS[0].options, threads: 2 }),
    (e) => !(e instanceof AttnLabError) && /workers could not start|worker failed/.test(e.message) && /nonexistent/.test(e.message));
  await broken.close();
  const noScript = await createAttnLab({ factory: require(modulePath), workerScript: '/nonexistent/unit_worker.js' });
  await assert.rejects(noScript.run('separation.toy', { ...UNIT_RUNS[0].options, threads: 2 }), /unit_worker\.js not found/);
});

test('node exits when a script ends after threaded runs, without close()', () => {
  const script = `
    import { createRequire } from 'node:module';
    import { createAttnLab } from ${JSON.stringify(apiUrl)};
    const lab = await createAttnLab({ factory: createRequire(import.meta.url)(${JSON.stringify(modulePath)}) });
    const csv = await lab.runCsv('separation.toy', { params: { n: 200, sweep: 'm=1:4:1', trials: 40 }, seed: 3, threads: 2 });
    console.log(csv === lab.runCsv('separation.toy', { params: { n: 200, sweep: 'm=1:4:1', trials: 40 }, seed: 3 }) ? 'same' : 'differs');
  `;
  const started = Date.now();
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 60000, cwd: fileURLToPath(new URL('.', import.meta.url)) });
  assert.strictEqual(out.error, undefined, `the script did not exit: ${out.error}`);
  assert.strictEqual(out.status, 0, out.stderr);
  assert.strictEqual(out.stdout.trim(), 'same');
  assert.ok(Date.now() - started < 60000);
});
