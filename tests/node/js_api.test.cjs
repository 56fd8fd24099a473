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
  let steps = 0;
  while (!s.finished()) {
    const p = s.step(0.001);
    assert.ok(p >= 0 && p <= 1);
    steps++;
  }
  const r = JSON.parse(s.json());
  assert.strictEqual(r.complete, true);
  assert.strictEqual(r.rows.length, 5);
  s.delete();
});

test('same seed, same CSV from the native CLI and from the wasm module', { skip: !cliPath && 'ATTNLAB_CLI not set' }, () => {
  const args = [['n', '500'], ['sweep', 'm=1:6:1'], ['trials', '400'], ['sampler', 'uniform']];
  const cli = execFileSync(cliPath, ['run', 'separation.toy', '--seed', '17', '--quiet',
    ...args.flatMap(([k, v]) => ['--set', `${k}=${v}`])]).toString();
  const wasm = lab.runExperimentCsv('separation.toy', '', Object.fromEntries(args), 17);
  assert.strictEqual(wasm, cli);
  // And for a preset (with a smaller trial count to stay quick).
  const cli2 = execFileSync(cliPath, ['run', 'separation.toy', '--preset', 'tau_sweep', '--set', 'trials=50', '--seed', '5', '--quiet']).toString();
  assert.strictEqual(lab.runExperimentCsv('separation.toy', 'tau_sweep', { trials: 50 }, 5), cli2);
});
