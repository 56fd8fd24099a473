// A worker that computes work units (src/lab/work_unit.hpp) for the page or the JS API: a Web
// Worker in browsers (classic script), a worker_threads worker in node. It loads the compute-only
// module (attnlab_worker.js in browsers, attnlab_node.cjs in node: the core and its Embind API, no
// SDL, no ImGui) and answers messages:
//   in:  {type: 'run', generation, runKey, spec?, unit}   spec {id, params, seed, data} the first
//        time this worker sees runKey; {type: 'cancel', generation}: drop every unit of that
//        generation (the page's main view and its reproduction each have their own).
//   out: {type: 'ready', memory} | {type: 'failed', message}
//        {type: 'progress', generation, runKey, unit, fraction, preview}  (preview: JSON or '')
//        {type: 'done', generation, runKey, unit, partial, memory} | {type: 'cancelled', ...}
//        {type: 'error', generation, runKey, unit, message}
// A unit runs in slices of SLICE seconds; between slices the worker reads its messages, so a
// cancel stops it within a slice, and it reports progress (with a preview) every REPORT ms.
'use strict';
(function () {
  const SLICE = 0.05, REPORT = 250, KEPT_SESSIONS = 4;
  const inNode = typeof process === 'object' && process.versions && process.versions.node && typeof importScripts !== 'function';
  let port, lab = null;
  const cancelled = new Set();  // generations
  const sessions = new Map();  // runKey -> Session, most recent last
  const queue = [];
  let busy = false;

  function post(msg) { port.postMessage(msg); }
  function memory() { return lab && lab.HEAP8 ? lab.HEAP8.length : 0; }
  // Lets queued messages (a cancel) in: a message-channel hop, not setTimeout (clamped to 4 ms).
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => { const r = waiting.shift(); if (r) r(); };
  function yieldToMessages() { return new Promise((r) => { waiting.push(r); channel.port2.postMessage(0); }); }

  function session(msg) {
    let s = sessions.get(msg.runKey);
    if (s) return s;
    const spec = msg.spec;
    if (!spec) throw new Error('run ' + msg.runKey + ' arrived without its settings');
    s = new lab.Session(spec.id, '', spec.params, spec.seed, spec.data || undefined);
    const error = s.error();
    if (error) { s.delete(); throw new Error(error); }
    sessions.set(msg.runKey, s);
    while (sessions.size > KEPT_SESSIONS) {
      const [oldest, old] = sessions.entries().next().value;
      old.delete();
      sessions.delete(oldest);
    }
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
    let reported = performance.now();
    while (!s.advanceUnit(SLICE)) {
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
    const partial = s.finishUnit();
    if (partial.startsWith('{"error"')) post({ type: 'error', ...ids, message: JSON.parse(partial).error });
    else post({ type: 'done', ...ids, partial, memory: memory() });
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
    else if (msg.type === 'run') { queue.push(msg); if (lab) drain(); }
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
