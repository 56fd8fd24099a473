// A run survives a lost worker (docs/design.md "A lost worker"): the pool notices a worker that
// exits or falls silent, runs its units again elsewhere and starts a replacement, so a threaded run
// of the JS API finishes with the bytes of a run without the fault; a unit that is lost again and
// again ends the run with an Error naming it. Env: ATTNLAB_NODE_MODULE (attnlab_node.cjs).
// Its own file: it replaces worker_threads.Worker for the JS API (syncBuiltinESMExports).
import test from 'node:test';
import assert from 'node:assert';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createAttnLab } from '../../web/api/attnlab-api.mjs';

const require = createRequire(import.meta.url);
const workerThreads = require('node:worker_threads');
const modulePath = process.env.ATTNLAB_NODE_MODULE;
assert.ok(modulePath, 'ATTNLAB_NODE_MODULE must name attnlab_node.cjs');
const workerScript = fileURLToPath(new URL('../../web/workers/unit_worker.js', import.meta.url));

// The faults, timed by the units, not by a clock: a worker stops on the spot when it starts
// computing a unit that `kills(unit)` names (it computes its units in posting order, so that is when
// the units before it are back). `started` counts new Workers, `startedAfterKill` those started after
// a worker was stopped (replacements; a pool that grows at a run's start starts its workers before).
const OriginalWorker = workerThreads.Worker;
let kills = () => false;
let started = 0, startedAfterKill = 0, killed = 0;
let mayStart = Infinity;  // new workers cannot start beyond this count (as when the browser refuses more)
workerThreads.Worker = class FaultyWorker extends OriginalWorker {
  constructor(...args) {
    if (started >= mayStart) throw new Error('no more workers here');
    super(...args);
    started++;
    if (killed > 0) startedAfterKill++;
    this.queue = [];
    this.on('message', (m) => {
      if (!['done', 'error', 'cancelled'].includes(m.type)) return;
      this.queue = this.queue.filter((u) => u !== m.unit);
      this.killIfNamed();
    });
  }
  killIfNamed() {
    if (this.queue.length && kills(this.queue[0])) { killed++; this.terminate(); return true; }
    return false;
  }
  postMessage(msg, ...rest) {
    if (msg && msg.type === 'run') {
      this.queue.push(msg.unit);
      if (this.killIfNamed()) return undefined;
    }
    return super.postMessage(msg, ...rest);
  }
};
syncBuiltinESMExports();

const lab = await createAttnLab({ factory: require(modulePath) });
test.after(() => lab.close());
await lab.run('separation.toy', { params: { trials: 10, sweep: 'm=1:2:1' }, threads: 1 });  // loads unit_pool.js
const { AttnLabUnitPool } = globalThis;

// Eight units (about 0.2 s each on a quiet machine; nothing here depends on it).
const RUN = { id: 'separation.toy', options: { preset: 'fig3b', params: { sweep: 'm=1:8:1', trials: 20000 }, seed: 4 } };

test('a worker that exits mid-run: its unit runs again, the bytes equal a run without the fault', async () => {
  const clean = lab.runCsv(RUN.id, RUN.options);
  killed = 0, startedAfterKill = 0;
  kills = (unit) => killed === 0 && unit >= 1;  // one worker stops as it starts unit 1 or later
  const reports = [];
  const csv = await lab.runCsv(RUN.id, { ...RUN.options, threads: 2, onProgress: (p) => reports.push(p) });
  kills = () => false;
  assert.strictEqual(csv, clean);
  assert.strictEqual(killed, 1, 'one worker was stopped');
  const last = reports[reports.length - 1];
  assert.ok(last.reruns >= 1, `the progress report counts the rerun (${JSON.stringify(last)})`);
  assert.match(last.notice, /a worker stopped \(the worker exited.*\); its unit \d+ runs again/);
  assert.ok(startedAfterKill >= 1, 'a replacement worker was started after the worker stopped');
  assert.ok(lab.workers.size <= 2, `the replacement took the lost worker's place (${JSON.stringify(lab.workers)})`);
});

test('a unit whose worker is lost every time ends the run with an Error naming it', async () => {
  kills = (unit) => unit === 2;
  await assert.rejects(lab.runCsv(RUN.id, { ...RUN.options, threads: 2 }),
    (e) => /^threads: unit 2: its worker was lost 3 times \(last: the worker exited/.test(e.message));
  kills = () => false;
  // The lab still works afterwards, on new workers.
  assert.strictEqual(await lab.runCsv(RUN.id, { ...RUN.options, threads: 2 }), lab.runCsv(RUN.id, RUN.options));
});

test('when a lost worker cannot be replaced, the rest of the run is computed on this thread', async () => {
  const clean = lab.runCsv(RUN.id, RUN.options);
  await lab.close();  // no idle workers kept from the runs above: this run starts one
  const fresh = await createAttnLab({ factory: require(modulePath) });
  try {
    kills = (unit) => unit === 1;
    const before = started;
    mayStart = before + 1;  // the run's one worker, no other
    let reruns = 0;
    const csv = await fresh.runCsv(RUN.id, { ...RUN.options, threads: 1, onProgress: (p) => { reruns = p.reruns ?? reruns; } });
    assert.strictEqual(csv, clean);
    assert.strictEqual(started, before + 1, 'no replacement could start');
    assert.ok(reruns >= 1, 'the lost units were counted before the run went on here');
  } finally {
    kills = () => false;
    mayStart = Infinity;
    await fresh.close();
  }
});

// The watchdog: a worker that stays silent (its messages never reach the pool) is lost after
// WATCHDOG_FACTOR x the longest silence measured, at least WATCHDOG_FLOOR_MS. The floor is lowered
// to 0.4 s for the silent worker only: the replacement is judged by the pool's own floor, so a
// loaded machine cannot make it look lost too.
test('the pool notices a silent worker, reruns its unit on a replacement, and the partials are the same', async () => {
  const floor = AttnLabUnitPool.WATCHDOG_FLOOR_MS;
  AttnLabUnitPool.WATCHDOG_FLOOR_MS = 400;
  let spawned = 0;
  const spawn = (handlers) => {
    if (spawned === 1) AttnLabUnitPool.WATCHDOG_FLOOR_MS = floor;  // the replacement
    const w = new OriginalWorker(workerScript, { workerData: { module: modulePath } });
    const mute = spawned++ === 0;  // the first worker answers 'ready', then never again
    let ready = false;
    w.on('message', (msg) => { if (!mute || !ready) { ready = ready || msg.type === 'ready'; handlers.message(msg); } });
    w.on('error', handlers.error);
    return w;
  };
  const pool = new AttnLabUnitPool(spawn, 1);
  try {
    const spec = { id: RUN.id, params: { sweep: 'm=1:2:1', trials: '200' }, seed: 4 };
    await new Promise((resolve) => { const t = setInterval(() => { if (pool.state === 'ready') { clearInterval(t); resolve(); } }, 10); });
    const t0 = Date.now();
    assert.ok(pool.post('r', spec, 0, 1));
    const events = [];
    await new Promise((resolve, reject) => {
      const t = setInterval(() => {
        events.push(...pool.takeEvents());
        if (events.some((e) => e.type === 'done')) { clearInterval(t); resolve(); }
        if (Date.now() - t0 > 120000) { clearInterval(t); reject(new Error('no result within 120 s: ' + JSON.stringify(events))); }
      }, 20);
    });
    const rerun = events.find((e) => e.type === 'rerun');
    assert.ok(rerun, 'a rerun event');
    assert.match(rerun.message, /no answer for \d+\.\d s, the watchdog's limit 0\.4 s/);
    assert.ok(Date.now() - t0 >= 400, 'not before the watchdog limit');
    assert.strictEqual(pool.reruns, 1);
    assert.strictEqual(spawned, 2, 'one replacement');
    const raw = lab.module;
    const s = new raw.Session(spec.id, '', spec.params, spec.seed);
    try {
      assert.strictEqual(s.startUnit(0), '');
      while (!s.advanceUnit(1)) { /* to the end */ }
      assert.strictEqual(events.find((e) => e.type === 'done').partial, s.finishUnit(), 'the rerun computed the same partial');
    } finally { s.delete(); }
  } finally {
    pool.terminate();
    AttnLabUnitPool.WATCHDOG_FLOOR_MS = floor;
  }
});

// The owner's own stall (its thread starved on a loaded machine, so that neither its checks nor the
// workers' messages ran) is not a worker's silence; a worker silent while the owner checks on is
// still lost at the floor. A clock of the test's own, workers that never start a thread.
test('a stall of the owner\'s thread does not lose a worker; silence while it checks on does', () => {
  const realNow = AttnLabUnitPool.now;
  let clock = 1000, handlers = null;
  AttnLabUnitPool.now = () => clock;
  const pool = new AttnLabUnitPool((h) => { handlers = h; return { postMessage() {}, terminate() {} }; }, 1);
  try {
    pool.watch(false);
    handlers.message({ type: 'ready', memory: 0 });
    assert.ok(pool.post('r', { id: 'separation.toy' }, 0, 1));
    assert.strictEqual(pool.checkLost(), false);
    clock += AttnLabUnitPool.WATCHDOG_FLOOR_MS + 1000;  // the owner stalled past the floor
    assert.strictEqual(pool.checkLost(), false, 'a worker was lost over the owner\'s own stall');
    let checks = 0;
    while (!pool.checkLost() && checks < 100) { clock += 100; checks++; }
    assert.strictEqual(pool.reruns, 1, 'a worker silent while the owner checks on is lost');
    assert.ok(checks * 100 >= AttnLabUnitPool.WATCHDOG_FLOOR_MS && checks * 100 <= AttnLabUnitPool.WATCHDOG_FLOOR_MS + 200,
      `lost after ${checks * 100} ms of checks, not at the floor`);
  } finally {
    AttnLabUnitPool.now = realNow;
    pool.terminate();
  }
});
