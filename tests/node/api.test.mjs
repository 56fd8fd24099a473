// The documented headless JS API (web/api/attnlab-api.mjs) over the node build of the module.
// Env: ATTNLAB_NODE_MODULE (attnlab_node.cjs), ATTNLAB_CLI (native CLI, for the CSV comparison).
import test from 'node:test';
import assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createAttnLab, AttnLabError, column } from '../../web/api/attnlab-api.mjs';

const require = createRequire(import.meta.url);
const modulePath = process.env.ATTNLAB_NODE_MODULE;
const cliPath = process.env.ATTNLAB_CLI;

// A quick run whose answer has a closed form: toy success at m is 1 - 2^-m (Fig. 3b).
const QUICK = { preset: 'fig3b', params: { sweep: 'm=1:6:1', trials: 2000 }, seed: 1 };
// Long enough to be cancelled: 100 sweep points of 100000 trials.
const LONG = { preset: 'fig3b', params: { trials: 100000 }, seed: 2 };

let lab, raw, live, created;
test.before(async () => {
  assert.ok(modulePath, 'ATTNLAB_NODE_MODULE must name attnlab_node.cjs');
  raw = await require(modulePath)({ noInitialRun: true });
  // The same module with every Session counted, to check that each one is freed.
  live = new Set();
  created = 0;
  const Session = function (...args) {
    const session = new raw.Session(...args);
    created++;
    live.add(session);
    const free = session.delete.bind(session);
    session.delete = () => { live.delete(session); free(); };
    return session;
  };
  lab = await createAttnLab({ module: Object.assign(Object.create(raw), { Session }) });
});

function assertAllFreed() {
  assert.strictEqual(live.size, 0, `${live.size} Embind Session(s) not deleted`);
}

test('createAttnLab({factory}) starts its own module', async () => {
  const own = await createAttnLab({ factory: require(modulePath) });
  assert.match(own.version, /^\d+\.\d+\.\d+/);
  assert.deepStrictEqual(own.list().map((e) => e.id), lab.list().map((e) => e.id));
});

test('list, describe, schema and presets have the documented shapes', () => {
  const list = lab.list();
  assert.strictEqual(list.length, JSON.parse(raw.listExperiments()).length);
  for (const e of list) {
    assert.deepStrictEqual(Object.keys(e), ['id', 'title', 'paper', 'summary']);
    for (const v of Object.values(e)) assert.ok(typeof v === 'string' && v.length > 0, JSON.stringify(e));
  }
  const toy = list.find((e) => e.id === 'separation.toy');
  assert.match(toy.paper, /Why Softmax Attention Outperforms Linear Attention/);

  const schema = lab.schema('separation.toy');
  const tau = schema.find((p) => p.key === 'tau');
  assert.deepStrictEqual(
    { type: tau.type, default: tau.default, allowed: tau.allowed, min: tau.min, max: tau.max },
    { type: 'real', default: '0.25', allowed: 'number in [0.01, 0.5]', min: 0.01, max: 0.5 });
  assert.deepStrictEqual(schema.find((p) => p.key === 'sampler').choices, ['uniform', 'two_point', 'adversarial']);
  for (const p of schema) {
    for (const k of ['key', 'label', 'type', 'default', 'allowed', 'unit', 'help']) assert.strictEqual(typeof p[k], 'string', k);
  }

  const fig3b = lab.presets('separation.toy').find((p) => p.name === 'fig3b');
  assert.deepStrictEqual(Object.keys(fig3b), ['name', 'title', 'description', 'params']);
  assert.deepStrictEqual(fig3b.params, { n: '1000', sweep: 'm=1:100:1', tau: '0.25', trials: '1000' });

  const d = lab.describe('separation.toy');
  assert.deepStrictEqual(d.schema, schema);
  assert.strictEqual(d.title, toy.title);

  // What the faces ask besides the schema: an inspector, the data selector, small settings.
  for (const { id } of list) {
    const e = lab.describe(id);
    assert.strictEqual(typeof e.inspector, 'boolean', id);
    if (e.dataSelector !== null) {
      const spec = e.schema.find((p) => p.key === e.dataSelector.key);
      assert.ok(spec && spec.choices.includes(e.dataSelector.value), `${id}: the data selector is one of its settings`);
    }
    assert.ok(Object.keys(e.smokeSettings).length > 0, id);
    if (!e.inspector) assert.throws(() => lab.inspect(id, { params: e.smokeSettings }), /has no inspector/, id);
  }
});

test('run returns the record a Session gives, with its closed form', () => {
  const record = lab.run('separation.toy', QUICK);
  const s = new raw.Session('separation.toy', 'fig3b', QUICK.params, 1);
  while (!s.finished()) s.step(1);
  const direct = JSON.parse(s.json());
  s.delete();
  assert.deepStrictEqual(record, direct);
  assert.strictEqual(record.attnlab_version, lab.version);
  assert.strictEqual(record.experiment, 'separation.toy');
  assert.strictEqual(record.preset, 'fig3b');
  assert.strictEqual(record.seed, 1);
  assert.strictEqual(record.params.trials, '2000');
  assert.strictEqual(record.complete, true);
  assert.deepStrictEqual(column(record, 'm'), [1, 2, 3, 4, 5, 6]);
  assert.deepStrictEqual(column(record, 'theory'), [1, 2, 3, 4, 5, 6].map((m) => 1 - 2 ** -m));
  column(record, 'success_rate').forEach((p, i) => assert.ok(Math.abs(p - (1 - 2 ** -(i + 1))) < 0.035, `m=${i + 1}: ${p}`));
  assert.throws(() => column(record, 'nope'), AttnLabError);
  // Defaults: seed 1, no preset.
  assert.strictEqual(lab.run('separation.toy', { params: { trials: 5, sweep: 'none' } }).seed, 1);
});

test('runCsv is the CLI output for the same seed', { skip: !cliPath && 'ATTNLAB_CLI not set' }, () => {
  const csv = lab.runCsv('separation.toy', QUICK);
  const cli = execFileSync(cliPath, ['run', 'separation.toy', '--preset', 'fig3b', '--set', 'sweep=m=1:6:1',
    '--set', 'trials=2000', '--seed', '1', '--quiet']).toString();
  assert.strictEqual(csv, cli);
  assertAllFreed();
});

test('bad input throws AttnLabError with the schema message', async () => {
  const cases = [
    [{ params: { tau: 0.7 } }, "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]"],
    [{ params: { bogus: 1 } }, /^unknown parameter 'bogus'; known parameters: n, m_rule, m,/],
    [{ seed: -1 }, "parameter 'seed': '-1' is not allowed; allowed: integer in [0, 4294967295]"],
    [{ seed: 1.5 }, "parameter 'seed': '1.5' is not allowed; allowed: integer in [0, 4294967295]"],
    [{ preset: 'fig9' }, "unknown preset 'fig9' for separation.toy; presets: fig3a, fig3b, tau_sweep"],
  ];
  const check = (message, expected) => (e) => {
    assert.ok(e instanceof AttnLabError && e instanceof Error, String(e));
    assert.strictEqual(e.name, 'AttnLabError');
    if (typeof expected === 'string') assert.strictEqual(e.message, expected);
    else assert.match(e.message, expected);
    assert.strictEqual(e.message, message, 'the module\'s own message, unchanged');
    return true;
  };
  for (const [options, expected] of cases) {
    const message = JSON.parse(raw.runExperiment('separation.toy', options.preset, options.params, options.seed ?? 1)).error;
    assert.throws(() => lab.run('separation.toy', options), check(message, expected));
    assert.throws(() => lab.runCsv('separation.toy', options), check(message, expected));
    let calls = 0;
    await assert.rejects(lab.start('separation.toy', { ...options, onProgress: () => calls++ }).result, check(message, expected));
    assert.strictEqual(calls, 0);
  }
  const unknown = JSON.parse(raw.describeExperiment('nope')).error;
  assert.match(unknown, /^unknown experiment 'nope'; experiments: separation\.toy, /);
  assert.throws(() => lab.run('nope'), check(unknown, unknown));
  assert.throws(() => lab.describe('nope'), check(unknown, unknown));
  assert.throws(() => lab.schema('nope'), check(unknown, unknown));
  await assert.rejects(lab.start('nope').result, check(unknown, unknown));
  await assert.rejects(lab.start('separation.toy', { sliceMs: 0 }).result, AttnLabError);
  assertAllFreed();
});

test('start reports growing progress and resolves to the same record as run', async () => {
  const reports = [];
  const handle = lab.start('separation.toy', { ...QUICK, sliceMs: 5, onProgress: (p) => reports.push(p) });
  assert.strictEqual(handle.progress(), 0);
  const record = await handle.result;
  assert.ok(reports.length >= 3, `only ${reports.length} progress reports`);
  for (let i = 1; i < reports.length; i++) assert.ok(reports[i].fraction > reports[i - 1].fraction, 'fractions increase');
  assert.ok(reports[0].fraction > 0 && reports.at(-2).fraction < 1);
  assert.strictEqual(reports.at(-1).fraction, 1);
  assert.strictEqual(handle.progress(), 1);
  assert.ok(reports[0].record && reports[0].record.complete === false, 'the first report carries the partial record');
  assert.deepStrictEqual(reports.at(-1).record, record);
  assert.strictEqual(JSON.stringify(record), JSON.stringify(lab.run('separation.toy', QUICK)));
  assertAllFreed();
});

test('start yields to the event loop between slices', async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  let reports = 0;
  await lab.start('separation.toy', { ...QUICK, sliceMs: 5, onProgress: () => reports++ }).result;
  clearInterval(timer);
  assert.ok(ticks >= 2 && reports >= 3, `timers ran ${ticks} times during ${reports} slices`);
});

test('cancel() stops a long run between slices', async () => {
  const before = created;
  // Counted in work, not time: the progress when cancel() was called is the progress at the end.
  let calls = 0, atCancel = -1;
  const handle = lab.start('separation.toy', {
    ...LONG,
    onProgress: () => { if (++calls === 1) { atCancel = handle.progress(); handle.cancel(); } },
  });
  await assert.rejects(handle.result, (e) => e instanceof Error && e.name === 'AbortError');
  assert.strictEqual(calls, 1, 'no slice ran after cancel()');
  assert.strictEqual(handle.progress(), atCancel, 'no work after cancel()');
  assert.ok(handle.progress() > 0 && handle.progress() < 0.5, `progress ${handle.progress()}`);
  assert.strictEqual(created, before + 1);
  assertAllFreed();
});

test('cancel() right after start() stops before any work', async () => {
  const before = created;
  let calls = 0;
  const handle = lab.start('separation.toy', { ...LONG, onProgress: () => calls++ });
  handle.cancel();
  await assert.rejects(handle.result, { name: 'AbortError' });
  assert.strictEqual(calls, 0);
  assert.strictEqual(handle.progress(), 0);
  assert.strictEqual(created, before + 1);
  assertAllFreed();
});

test('an AbortSignal stops a run; an aborted one rejects at once', async () => {
  const before = created;
  let calls = 0;
  const aborted = lab.start('separation.toy', { ...LONG, signal: AbortSignal.abort(), onProgress: () => calls++ });
  await assert.rejects(aborted.result, { name: 'AbortError' });
  assert.strictEqual(calls, 0);
  assert.strictEqual(aborted.progress(), 0);
  assert.strictEqual(created, before, 'no Session was made');

  const controller = new AbortController();
  const reason = new Error('user left the page');
  const handle = lab.start('separation.toy', {
    ...LONG, signal: controller.signal, onProgress: () => { calls++; controller.abort(reason); },
  });
  await assert.rejects(handle.result, (e) => e.name === 'AbortError' && e.cause === reason);
  assert.strictEqual(calls, 1);
  assert.ok(handle.progress() < 1);
  assertAllFreed();
});

test('an onProgress that throws ends the run and frees the session', async () => {
  const boom = new Error('boom');
  await assert.rejects(lab.start('separation.toy', { ...QUICK, onProgress: () => { throw boom; } }).result, (e) => e === boom);
  assertAllFreed();
});

test('inspect, panels and benchmarks', () => {
  const r = lab.inspect('separation.cross', { preset: 'fig7a', seed: 4, point: 3, trial: 2 });
  assert.ok(JSON.stringify(r) === JSON.stringify(JSON.parse(raw.inspectExperiment('separation.cross', 'fig7a', {}, 4, 3, 2))));
  assert.strictEqual(r.heatmaps.length, 5);
  assert.throws(() => lab.inspect('regression'), /has no inspector/);
  const toy = lab.inspect('separation.toy', { preset: 'fig3b', point: 6, trial: 3 });
  assert.strictEqual(toy.rows.length, 4);  // one row per evaluation against Lemmas 4.1 / 4.2
  assert.ok(toy.notes.some((n) => n.startsWith('Lemma 4.1, part 1 (linear, D0)')));
  assert.deepStrictEqual(lab.panels('separation')[2], { panel: 'fig4a', experiment: 'separation.self', preset: 'fig4a' });
  assert.throws(() => lab.panels('nope'), AttnLabError);
  const bench = lab.benchmarks({ seconds: 0.01 });
  assert.ok(bench.length > 0, 'no benchmarks');
  // (At 10 ms a workload whose setup takes longer, the large regression solver, may report rate 0.)
  for (const b of bench) assert.ok(b.rate >= 0 && typeof b.name === 'string' && typeof b.unit === 'string', JSON.stringify(b));
  assert.ok(bench.find((b) => b.name.startsWith('toy')).rate > 0);
  assert.throws(() => lab.benchmarks({ seconds: 0 }), AttnLabError);
});

test('listPapers: every experiment in one paper, the stories and citations from it', () => {
  const papers = lab.listPapers();
  assert.ok(papers.length > 0);
  assert.deepStrictEqual(papers.flatMap((p) => p.experiments), lab.list().map((e) => e.id));
  const stories = lab.stories();
  assert.deepStrictEqual(papers.filter((p) => p.story).map((p) => p.story), stories.map((s) => s.id));
  for (const p of papers) {
    assert.deepStrictEqual(Object.keys(p), ['id', 'title', 'authors', 'arxiv', 'docsPage', 'experiments', 'story',
      'reproduction']);
    assert.strictEqual(p.docsPage, `docs/${p.id}.md`);
    const s = stories.find((x) => x.id === p.story);
    if (s) assert.deepStrictEqual([s.paper, s.authors], [p.title, p.authors]);
    for (const id of p.experiments)
      assert.ok(lab.describe(id).paper.startsWith(`${p.authors}. ${p.title} (arXiv ${p.arxiv})`), id);
  }
});
