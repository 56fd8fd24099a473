// A pool of unit workers (unit_worker.js) on the main thread of a page, or in node: posts work
// units to workers, keeps what comes back as events for its owner to take, and cancels. Each
// worker holds up to DEPTH units (the one it computes and the next), so it never waits for the
// owner's next poll between two units.
// Used by the page (the C++ app polls it each frame, src/web/worker_pool.cpp) and by the JS API
// (attnlab-api.mjs, start({threads})). Workers exchange messages only: no SharedArrayBuffer, so
// no COOP/COEP headers, and the lab keeps working inside any course site's iframe.
//
//   const pool = new AttnLabUnitPool(spawn, size);  // spawn(): a Worker-like object (see below)
//   pool.post(runKey, spec, unit, generation) -> false when every worker holds DEPTH units
//   pool.takeEvents() -> [{type: 'done' | 'progress' | 'error', runKey, unit, partial | fraction
//                          | message, ...}] since the last call (cancelled generations dropped)
//   pool.cancel(generation): every unit of that generation stops within a slice
//   pool.onchange = () => {...}: optional, called after anything arrives from a worker (an event,
//                   a worker ready, idle again or failed), for owners that wait instead of polling
//   pool.dropFailed(): terminates the workers that failed (resize() then starts new ones)
// Assigns globalThis.AttnLabUnitPool (a classic script in pages, also importable as a module).
'use strict';
(function () {
  class AttnLabUnitPool {
    // spawn(): {postMessage(msg), terminate(), and calls handlers.message(msg) / handlers.error(e)};
    // the pool passes the handlers: spawn(handlers).
    constructor(spawn, size) {
      this.spawn = spawn;
      this.workers = [];
      this.events = [];
      this.cancelled = new Set();  // generations
      this.failure = '';
      this.onchange = null;
      this.resize(size);
    }
    resize(size) {
      while (this.workers.length > size) this.workers.pop().handle.terminate();
      while (this.workers.length < size) this.add();
    }
    add() {
      // runKeys: the runs whose settings the worker keeps, most recently posted last: the same
      // list as the worker's own (unit_worker.js, KEPT_SESSIONS), so spec is sent when it has none.
      // assigned: the units posted to it and not yet back, in posting order.
      const w = { handle: null, ready: false, failed: false, assigned: [], runKeys: [], memory: 0 };
      const handlers = { message: (msg) => this.onMessage(w, msg), error: (e) => this.onFailure(w, e) };
      try {
        w.handle = this.spawn(handlers);
      } catch (e) {
        w.handle = { postMessage() {}, terminate() {} };
        this.onFailure(w, e);
      }
      this.workers.push(w);
    }
    changed() {
      if (typeof this.onchange === 'function') this.onchange();
    }
    onFailure(w, e) {
      this.fail(w, e);
      this.changed();
    }
    fail(w, e) {
      w.failed = true;
      w.ready = false;
      this.failure = String((e && e.message) || e || 'the worker could not start');
      for (const { runKey, unit, generation } of w.assigned)
        if (!this.cancelled.has(generation)) this.events.push({ type: 'error', runKey, unit, generation, message: this.failure });
      w.assigned = [];
    }
    onMessage(w, msg) {
      this.receive(w, msg);
      this.changed();
    }
    receive(w, msg) {
      if (msg.type === 'ready') { w.ready = true; w.memory = msg.memory; return; }
      if (msg.type === 'failed') { this.fail(w, msg.message); return; }
      if (msg.type === 'done' || msg.type === 'error' || msg.type === 'cancelled') {
        const i = w.assigned.findIndex((a) => a.runKey === msg.runKey && a.unit === msg.unit);
        if (i >= 0) w.assigned.splice(i, 1);
        if (msg.memory) w.memory = msg.memory;
      }
      if (msg.type === 'cancelled' || this.cancelled.has(msg.generation)) return;
      this.events.push(msg);
    }
    // 'starting' until a worker is ready; 'failed' when none can start; else 'ready'.
    get state() {
      if (this.workers.length && this.workers.every((w) => w.failed)) return 'failed';
      return this.workers.some((w) => w.ready) ? 'ready' : 'starting';
    }
    get size() { return this.workers.length; }
    get idleCount() { return this.workers.filter((w) => w.ready && !w.assigned.length).length; }
    get busyCount() { return this.workers.filter((w) => w.assigned.length).length; }
    get memoryBytes() { return this.workers.map((w) => w.memory); }
    post(runKey, spec, unit, generation) {
      // The least loaded worker; among those, one that already holds this run's settings (it need
      // not prepare the run again).
      const open = this.workers.filter((w) => w.ready && w.assigned.length < AttnLabUnitPool.DEPTH);
      if (!open.length) return false;
      const least = Math.min(...open.map((w) => w.assigned.length));
      const candidates = open.filter((w) => w.assigned.length === least);
      const w = candidates.find((x) => x.runKeys.includes(runKey)) || candidates[0];
      const msg = { type: 'run', generation, runKey, unit };
      const known = w.runKeys.indexOf(runKey);
      if (known >= 0) w.runKeys.splice(known, 1);
      else msg.spec = spec;
      w.runKeys.push(runKey);
      if (w.runKeys.length > AttnLabUnitPool.KEPT_SESSIONS) w.runKeys.shift();
      w.assigned.push({ runKey, unit, generation });
      w.handle.postMessage(msg);
      return true;
    }
    cancel(generation) {
      this.cancelled.add(generation);
      this.events = this.events.filter((e) => e.generation !== generation);
      for (const w of this.workers) if (!w.failed) w.handle.postMessage({ type: 'cancel', generation });
    }
    dropFailed() {
      for (const w of this.workers.filter((x) => x.failed)) w.handle.terminate();
      this.workers = this.workers.filter((x) => !x.failed);
    }
    takeEvents() {
      const out = this.events;
      this.events = [];
      return out;
    }
    terminate() { this.resize(0); }
  }

  AttnLabUnitPool.KEPT_SESSIONS = 4;  // as unit_worker.js; at least DEPTH, so a queued unit's settings stay
  AttnLabUnitPool.DEPTH = 2;

  // Browser workers: same-origin script by URL, or (for a page on another origin) a blob that
  // imports the lab's script from `base` (attnlab-api.mjs passes its own URL's folder).
  AttnLabUnitPool.browserSpawner = function (base) {
    return (handlers) => {
      let url = base + 'unit_worker.js';
      const sameOrigin = new URL(url, location.href).origin === location.origin;
      if (!sameOrigin) {
        const absolute = new URL(base, location.href).href;
        const prelude = 'self.attnlabBase = ' + JSON.stringify(absolute) + '; importScripts(' +
          JSON.stringify(absolute + 'unit_worker.js') + ');';
        url = URL.createObjectURL(new Blob([prelude], { type: 'text/javascript' }));
      }
      const worker = new Worker(url);
      worker.onmessage = (e) => handlers.message(e.data);
      worker.onerror = (e) => { e.preventDefault(); handlers.error(e.message || 'the worker script failed to load'); };
      return worker;
    };
  };

  globalThis.AttnLabUnitPool = AttnLabUnitPool;
})();
