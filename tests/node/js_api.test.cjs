// The JS API in node (the wasm module built for node), and native CLI == wasm for the same seed.
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');

const modulePath = process.env.ATTNLAB_NODE_MODULE;
const cliPath = process.env.ATTNLAB_CLI;
let lab;
test.before(async () => {
  assert.ok(modulePath, 'ATTNLAB_NODE_MODULE must name attnlab_node.cjs');
  lab = await require(modulePath)();
});

test('lists the experiments', () => {
  const list = JSON.parse(lab.listExperiments());
  assert.ok(list.some((e) => e.id === 'separation.toy'));
});

test('describes the schema with ranges and presets', () => {
  const d = JSON.parse(lab.describeExperiment('separation.toy'));
  const tau = d.params.find((p) => p.key === 'tau');
  assert.strictEqual(tau.min, 0.01);
  assert.strictEqual(tau.max, 0.5);
  assert.ok(d.presets.some((p) => p.name === 'fig3b'));
});

test('bad parameters give the schema messages', () => {
  const r = JSON.parse(lab.runExperiment('separation.toy', '', { tau: 0.7 }, 1));
  assert.strictEqual(r.error, "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]");
  assert.match(JSON.parse(lab.runExperiment('nope', '', {}, 1)).error, /unknown experiment 'nope'/);
  assert.match(JSON.parse(lab.runExperiment('separation.toy', 'fig9', {}, 1)).error, /unknown preset 'fig9'/);
  assert.match(JSON.parse(lab.runExperiment('separation.toy', '', {}, -1)).error, /parameter 'seed'/);
  assert.match(JSON.parse(lab.describeExperiment('nope')).error, /unknown experiment/);
});

test('a session runs in slices and reports progress', () => {
  const s = new lab.Session('separation.toy', '', { n: 200, sweep: 'm=1:5:1', trials: 200 }, 3);
  assert.strictEqual(s.error(), '');
  let steps = 0, last = 0;
  while (!s.finished()) {
    // CPU time, not the clock: on a loaded machine a step waits for a core, but it computes ~1 ms.
    const t0 = process.cpuUsage();
    const p = s.step(0.001);
    const used = process.cpuUsage(t0), ms = (used.user + used.system) / 1000;
    assert.ok(ms < 50, `one 1 ms step took ${ms} ms of CPU`);
    assert.ok(p >= last && p <= 1, 'progress only grows');
    last = p;
    steps++;
  }
  assert.ok(steps > 1, 'a 1000-trial run is done in more than one 1 ms step');
  const r = JSON.parse(s.json());
  assert.strictEqual(r.complete, true);
  assert.strictEqual(r.rows.length, 5);
  s.delete();
});

test('bad calls return messages, not crashes', () => {
  assert.match(JSON.parse(lab.runExperiment(42, '', {}, 1)).error, /experiment id must be a string/);
  assert.match(JSON.parse(lab.runExperiment('separation.toy', '', [1, 2], 1)).error, /plain object/);
  assert.match(JSON.parse(lab.runExperiment('separation.toy', '', {}, '7')).error, /parameter 'seed': '7'/);
  assert.match(JSON.parse(lab.runExperiment('separation.toy', '', { n: '0x10' }, 1)).error, /'0x10' is not a number/);
  const s = new lab.Session('separation.toy', '', { trials: 10 }, 1);
  assert.strictEqual(s.step(NaN), 1);
  assert.match(s.error(), /step: seconds must be in \(0, 10\]/);
  s.delete();
  assert.match(JSON.parse(lab.benchmarks(0)).error, /seconds must be in \(0, 600\]/);
});

test('same seed, same CSV from the native CLI and from the wasm module', () => {
  assert.ok(cliPath, 'ATTNLAB_CLI must name the native CLI (configure the wasm build with -DATTNLAB_NATIVE_CLI=...)');
  const cases = [
    [['n', '500'], ['sweep', 'm=1:6:1'], ['trials', '400'], ['sampler', 'uniform']],
    [['n', '300'], ['sweep', 'tau=0.02,0.05,0.1'], ['trials', '300'], ['sampler', 'two_point']],
    [['sweep', 'n=50,200,1000'], ['trials', '200'], ['sampler', 'adversarial'], ['shared_readout', 'false']],
  ];
  for (const args of cases) {
    const cli = execFileSync(cliPath, ['run', 'separation.toy', '--seed', '17', '--quiet',
      ...args.flatMap(([k, v]) => ['--set', `${k}=${v}`])]).toString();
    const wasm = lab.runExperimentCsv('separation.toy', '', Object.fromEntries(args), 17);
    assert.strictEqual(wasm, cli);
  }
  // And for a preset (with a smaller trial count to stay quick).
  const cli2 = execFileSync(cliPath, ['run', 'separation.toy', '--preset', 'tau_sweep', '--set', 'trials=50', '--seed', '5', '--quiet']).toString();
  assert.strictEqual(lab.runExperimentCsv('separation.toy', 'tau_sweep', { trials: 50 }, 5), cli2);
});

test('the inspector gives the same matrices in wasm as the native CLI', () => {
  const cli = execFileSync(cliPath, ['inspect', 'separation.cross', '--preset', 'fig7a', '--point', '3', '--trial', '2',
    '--seed', '4', '--format', 'json'], { maxBuffer: 1 << 27 }).toString().trim();
  const wasm = lab.inspectExperiment('separation.cross', 'fig7a', {}, 4, 3, 2);
  assert.strictEqual(wasm, cli);
  const r = JSON.parse(wasm);
  assert.strictEqual(r.heatmaps.length, 5);
  assert.strictEqual(r.rows.length, 230);  // n = 200 + 3 * 10 tokens
  assert.match(JSON.parse(lab.inspectExperiment('separation.cross', 'fig7a', {}, 4, 81, 0)).error,
    /inspector point 81 is out of range; allowed: 0 to 80/);
  assert.match(JSON.parse(lab.inspectExperiment('regression', '', {}, 4, 0, 0)).error, /has no inspector/);
  // The toy model's inspector (Lemmas 4.1 / 4.2, with its Monte Carlo over sign vectors): the same bytes.
  const toyCli = execFileSync(cliPath, ['inspect', 'separation.toy', '--preset', 'fig3b', '--point', '6', '--trial', '3',
    '--seed', '4', '--format', 'json']).toString().trim();
  assert.strictEqual(lab.inspectExperiment('separation.toy', 'fig3b', {}, 4, 6, 3), toyCli);
  assert.match(JSON.parse(lab.inspectExperiment('separation.self', '', {}, 4, -1, 0)).error, /point must be an integer/);
});

test('the reproduction lists the paper panels', () => {
  const panels = JSON.parse(lab.reproductionPanels('separation'));
  assert.strictEqual(panels.length, 19);
  assert.deepStrictEqual(panels[2], { panel: 'fig4a', experiment: 'separation.self', preset: 'fig4a' });
  assert.match(JSON.parse(lab.reproductionPanels('nope')).error, /^unknown reproduction 'nope'; reproductions: \w/);
});

// (Every preset's CSV, native CLI == wasm: cli_equal.test.cjs.)
test('problem files load', () => {
  const file = JSON.stringify({ A: [[1, 0], [0, 1], [1, 1]], b: [0.1, 0.2, 0.3], w: 1 });
  const run = JSON.parse(lab.runExperiment('regression', '', { source: 'data', max_iterations: 20 }, 1, file));
  assert.ok(run.rows.length > 1);
  assert.ok(run.notes.some((n) => n.startsWith('Loaded problem: exp, n = 3, d = 2')));
  assert.strictEqual(JSON.parse(lab.runExperiment('regression', '', { source: 'data' }, 1, '{"A": 3}')).error,
    'problem file: A must be an array of rows or a sparse object');
  assert.match(JSON.parse(lab.runExperiment('regression', '', { source: 'data' }, 1)).error,
    /parameter 'source': 'data' needs a problem file/);
});

test('mirror data files load', () => {
  const file = JSON.stringify({ X: [[[1, 0], [0, 1], [0.5, 0.5]], [[0, 1], [1, 0], [0.2, 0.9]]], Y: [1, -1] });
  const run = JSON.parse(lab.runExperiment('mirror', '', { data: 'file', seeds: 1, sweep: 'none', iterations_rule: 'fixed', iterations: 50 }, 1, file));
  assert.ok(run.rows.length > 2, JSON.stringify(run).slice(0, 200));
  assert.strictEqual(JSON.parse(lab.runExperiment('mirror', '', { data: 'file' }, 1, '{"X": [[[1, 2]]], "Y": [1]}')).error,
    'data file: sequences need T >= 2 tokens (attention selects among them); X[0] has 1');
});

