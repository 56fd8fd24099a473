// Same seed, same CSV, byte for byte: every preset of every experiment (and each experiment's
// defaults), at two seeds, from the native CLI and from the wasm module (the page's runs). Slow
// presets run at reduced counts, the same --set overrides on both sides; the rest run as the page
// runs them. The CLI runs in its own process while node runs the wasm module, on the two cores.
const test = require('node:test');
const assert = require('node:assert');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');

const run = promisify(execFile);
const modulePath = process.env.ATTNLAB_NODE_MODULE;
const cliPath = process.env.ATTNLAB_CLI;
const seeds = [5, 21];

// Overrides per experiment ('*') or per preset, only where a preset takes more than ~1 s natively:
// bench/reduced_counts.json, their one home (bench/preset_tables.sh reads it too). multihead
// one_head runs whole: its SVD of 24025 x 144 constraints is the deep matrix product that once
// rounded differently in wasm (Eigen's kernel shape, see CMakeLists.txt).
const reduced = require('../../bench/reduced_counts.json');

function overrides(id, preset) {
  const r = reduced[id] || {};
  return r[preset] || r['*'] || {};
}

test('every preset of every experiment gives the CLI CSV in wasm, byte for byte', async () => {
  assert.ok(modulePath, 'ATTNLAB_NODE_MODULE must name attnlab_node.cjs');
  assert.ok(cliPath, 'ATTNLAB_CLI must name the native CLI (configure the wasm build with -DATTNLAB_NATIVE_CLI=...)');
  const lab = await require(modulePath)();
  const runs = [];
  for (const { id } of JSON.parse(lab.listExperiments())) {
    const presets = ['', ...JSON.parse(lab.describeExperiment(id)).presets.map((p) => p.name)];
    for (const preset of presets) for (const seed of seeds) runs.push({ id, preset, seed, sets: overrides(id, preset) });
  }
  assert.ok(runs.length >= 2 * 50, `${runs.length} runs: the experiments' presets went missing`);
  const differ = [];
  for (const { id, preset, seed, sets } of runs) {
    const args = ['run', id, ...(preset ? ['--preset', preset] : []),
      ...Object.entries(sets).flatMap(([k, v]) => ['--set', `${k}=${v}`]), '--seed', String(seed), '--quiet'];
    const cli = run(cliPath, args, { maxBuffer: 1 << 28 });
    const wasm = lab.runExperimentCsv(id, preset, sets, seed);
    const native = (await cli).stdout;
    assert.ok(native.split('\n').length > 2, `${id} ${preset} seed ${seed}: the CLI gave no rows`);
    if (wasm !== native) {
      const n = native.split('\n'), w = wasm.split('\n');
      const line = n.findIndex((l, i) => l !== w[i]);
      differ.push(`${id} ${preset || '(defaults)'} seed ${seed}, line ${line}:\n  native ${n[line]}\n  wasm   ${w[line]}`);
    }
  }
  assert.strictEqual(differ.length, 0, `${differ.length} of ${runs.length} differ:\n${differ.join('\n')}`);
});
