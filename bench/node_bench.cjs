// The benchmark workloads on the wasm module in node: prints the same JSON as `attnlab bench`.
// usage: node node_bench.cjs PATH/attnlab_node.cjs [SECONDS]
const modulePath = require('node:path').resolve(process.argv[2]);
const seconds = Number(process.argv[3] || 1);
(async () => {
  const lab = await require(modulePath)();
  console.log(lab.benchmarks(seconds));
})();
