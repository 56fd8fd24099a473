// A worker that computes work units (src/lab/work_unit.hpp) for the page or the JS API: a Web
// Worker in browsers (classic script), a worker_threads worker in node. It loads the compute-only
// module (attnlab_worker.js in browsers, attnlab_node.cjs in node: the core and its Embind API, no
// SDL, no ImGui) and answers messages:
//   in:  {type: 'run', generation, runKey, spec?, unit}   spec {id, preset?, params, seed, data?}
//        the first time this worker sees runKey. The worker keeps the settings of the
//        KEPT_SESSIONS runKeys posted to it most recently, in the order the messages arrive;
//        the pool keeps the same list (unit_pool.js) to know when to send spec again.
//        {type: 'cancel', generation}: drop every unit of that generation (the page's main view
//        and its reproduction each have their own).
//   out: {type: 'ready', memory} | {type: 'failed', message}
//        {type: 'progress', generation, runKey, unit, fraction, preview}  (preview: JSON or '')
//        {type: 'done', generation, runKey, unit, partial, memory, seconds} | {type: 'cancelled', ...}
//        (seconds: the unit's computing time, slices only, without the waits between them)
//        {type: 'error', generation, runKey, unit, message}
// A unit runs in slices of SLICE seconds; between slices the worker reads its messages, so a
// cancel stops it within a slice, and it reports progress (with a preview) every REPORT ms.
'use strict';
(function () {
  const SLICE = 0.05, REPORT = 250, KEPT_SESSIONS = 6;
  const inNode = typeof process === 'object' && process.versions && process.versions.node && typeof importScripts !== 'function';
  let port, lab = null;
  const cancelled = new Set();  // generations
  // runKey -> {spec, session (made when a unit of it first runs) or null}, most recently posted
  // last. Updated when a message arrives, not when its unit runs, so that it stays the pool's
  // list (a queued unit of a cancelled generation still brings its settings).
  const runs = new Map();
  const queue = [];
  let busy = false;

  function post(msg) { port.postMessage(msg); }
  function memory() { return lab && lab.HEAP8 ? lab.HEAP8.length : 0; }
  // Lets queued messages (a cancel) in. Browsers: a message-channel hop, not setTimeout (clamped
  // to 4 ms). Node: setImmediate; there a MessageChannel hop never lets the parent's messages in
  // (node keeps delivering a port's messages while new ones arrive), so a cancel would wait for
  // the end of the unit.
  let yieldToMessages;
  if (typeof setImmediate === 'function') {
    yieldToMessages = () => new Promise((r) => setImmediate(r));
  } else {
    const channel = new MessageChannel();
    const waiting = [];
    channel.port1.onmessage = () => { const r = waiting.shift(); if (r) r(); };
    yieldToMessages = () => new Promise((r) => { waiting.push(r); channel.port2.postMessage(0); });
  }

  function remember(msg) {
    let run = runs.get(msg.runKey);
    if (run) runs.delete(msg.runKey);
    else run = { spec: null, session: null };
    if (msg.spec) run.spec = msg.spec;
    runs.set(msg.runKey, run);
    while (runs.size > KEPT_SESSIONS) {
      const [oldest, old] = runs.entries().next().value;
      if (old.session) old.session.delete();
      runs.delete(oldest);
    }
  }

  function session(msg) {
    const run = runs.get(msg.runKey);
    if (!run || !run.spec) throw new Error('run ' + msg.runKey + ' arrived without its settings');
    if (run.session) return run.session;
    const spec = run.spec;
    const s = new lab.Session(spec.id, spec.preset || '', spec.params, spec.seed, spec.data || undefined);
    const error = s.error();
    if (error) { s.delete(); throw new Error(error); }
    run.session = s;
    return s;
  }

  async function runUnit(msg) {
    const ids = { generation: msg.generation, runKey: msg.runKey, unit: msg.unit };
    let s;
    try {
      s = session(msg);
      const error = s.startUnit(msg.unit);
      if (error) throw new Error(error);
    } catch (e) {
      post({ type: 'error', ...ids, message: String(e.message || e) });
      return;
    }
    let partial, seconds = 0;
    try {
      let reported = performance.now();
      for (;;) {
        const t0 = performance.now();
        const finished = s.advanceUnit(SLICE);
        seconds += (performance.now() - t0) / 1000;
        if (finished) break;
        await yieldToMessages();
        if (cancelled.has(msg.generation)) {
          s.dropUnit();
          post({ type: 'cancelled', ...ids });
          return;
        }
        if (performance.now() - reported >= REPORT) {
          reported = performance.now();
          post({ type: 'progress', ...ids, fraction: s.unitFraction(), preview: s.unitPreview() });
        }
      }
      partial = s.finishUnit();
    } catch (e) {  // a trap in the module (out of memory, ...): report it and keep answering
      try { s.dropUnit(); } catch (ignored) { /* the module may be unusable now */ }
      post({ type: 'error', ...ids, message: String((e && e.message) || e) });
      return;
    }
    if (partial.startsWith('{"error"')) post({ type: 'error', ...ids, message: JSON.parse(partial).error });
    else post({ type: 'done', ...ids, partial, memory: memory(), seconds });
  }

  async function drain() {
    if (busy) return;
    busy = true;
    while (queue.length) {
      const msg = queue.shift();
      if (cancelled.has(msg.generation)) post({ type: 'cancelled', generation: msg.generation, runKey: msg.runKey, unit: msg.unit });
      else await runUnit(msg);
    }
    busy = false;
  }

  function onMessage(msg) {
    if (msg.type === 'cancel') cancelled.add(msg.generation);
    else if (msg.type === 'run') { remember(msg); queue.push(msg); if (lab) drain(); }
  }

  function started(module) {
    lab = module;
    post({ type: 'ready', memory: memory() });
    drain();
  }
  function failed(e) { post({ type: 'failed', message: String((e && e.message) || e) }); }

  if (inNode) {
    const { parentPort, workerData } = require('worker_threads');
    port = parentPort;
    port.on('message', onMessage);
    try { Promise.resolve(require(workerData.module)()).then(started, failed); } catch (e) { failed(e); }
  } else {
    port = self;
    self.onmessage = (e) => onMessage(e.data);
    // A worker made from a blob (a course page on another origin) is told where the lab lives.
    const base = self.attnlabBase || '';
    try {
      importScripts(base + 'attnlab_worker.js');
      createAttnLabWorker({ locateFile: (file) => base + file }).then(started, failed);
    } catch (e) { failed(e); }
  }
})();
