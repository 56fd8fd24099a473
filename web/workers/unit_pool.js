// A pool of unit workers (unit_worker.js) on the main thread of a page, or in node: posts work
// units to workers, keeps what comes back as events for its owner to take, and cancels. Each
// worker holds up to DEPTH units (the one it computes and the next five), so it does not wait for
// the owner's next poll between units: the page polls once a frame, and a reproduction's small
// units take a millisecond or two each (with 2 units a worker sat idle 2.6 s of the whole paper's
// 10.7 s, with 6 units 0.9 s; BENCHMARKS.md "Every core and Web Workers").
// Used by the page (the C++ app polls it each frame, src/web/worker_pool.cpp) and by the JS API
// (attnlab-api.mjs, start({threads})). Workers exchange messages only: no SharedArrayBuffer, so
// no COOP/COEP headers, and the lab keeps working inside any course site's iframe.
//
//   const pool = new AttnLabUnitPool(spawn, size);  // spawn(): a Worker-like object (see below)
//   pool.post(runKey, spec, unit, generation) -> false when every worker holds DEPTH units
//   pool.takeEvents() -> [{type: 'done' | 'progress' | 'error' | 'rerun', runKey, unit, partial
//                          | fraction | message, ...}] since the last call (cancelled generations
//                          dropped); 'rerun' says a unit's worker was lost and the unit runs again
//   pool.reruns: units run again so far; pool.lastLoss: why the last worker was lost
//   pool.cancel(generation): every unit of that generation stops within a slice
//   pool.onchange = () => {...}: optional, called after anything arrives from a worker (an event,
//                   a worker ready, idle again or failed), for owners that wait instead of polling
//   pool.dropFailed(): terminates the workers that failed (resize() then starts new ones)
// A lost worker (docs/design.md "A lost worker"): one that was ready and then fails (error,
// message error, exit) or stays silent while it holds a unit for longer than the watchdog allows
// (WATCHDOG_FACTOR x the longest silence measured so far from any busy worker, at least
// WATCHDOG_FLOOR_MS: a computing worker reports every 250 ms). Its units run again on another
// worker (units are deterministic, so the numbers do not change) and a new worker replaces it; a
// unit whose worker is lost while computing it MAX_ATTEMPTS times ends as an 'error' event naming the unit and the cause. A worker
// that fails before it was ever ready is not replaced (the owner falls back to its own thread
// when every worker failed: state 'failed').
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
      this.retry = [];         // units of lost workers, to post again before anything new
      this.reruns = 0;
      this.lastLoss = '';
      this.longestSilence = 0;  // ms, the longest measured gap between messages of a busy worker
      this.lastCheck = 0;       // when checkLost last ran (the owner's own liveness)
      this.target = 0;
      this.timer = null;
      this.resize(size);
    }
    resize(size) {
      this.target = size;
      while (this.workers.length > size) this.workers.pop().handle.terminate();
      while (this.workers.length < size) this.add();
      this.watch(size > 0);
    }
    // The watchdog's clock for owners that do not poll takeEvents() (the JS API): once a second.
    watch(on) {
      if (on && !this.timer && typeof setInterval === 'function') {
        this.timer = setInterval(() => { if (this.checkLost()) this.changed(); }, 1000);
        if (this.timer && typeof this.timer.unref === 'function') this.timer.unref();
      } else if (!on && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    }
    get watchdogMs() {
      return Math.max(AttnLabUnitPool.WATCHDOG_FLOOR_MS, AttnLabUnitPool.WATCHDOG_FACTOR * this.longestSilence);
    }
    add() {
      // runKeys: the runs whose settings the worker keeps, most recently posted last: the same
      // list as the worker's own (unit_worker.js, KEPT_SESSIONS), so spec is sent when it has none.
      // assigned: the units posted to it and not yet back, in posting order.
      // heard: when the worker last spoke (or was given work while idle), for the watchdog.
      const w = { handle: null, ready: false, failed: false, assigned: [], runKeys: [], memory: 0, heard: 0 };
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
      if (w.ready) this.lose(w, String((e && e.message) || e || 'the worker failed'));
      else this.fail(w, e);
      this.changed();
    }
    // A worker that was working is gone: its units run again elsewhere, a new worker takes its place.
    lose(w, cause) {
      if (!this.workers.includes(w)) return;
      this.workers.splice(this.workers.indexOf(w), 1);
      w.failed = true;
      try { w.handle.terminate(); } catch (ignored) { /* already gone */ }
      this.lastLoss = cause;
      // The unit it was computing is the first it holds (a worker runs its units in posting order):
      // only that one counts the loss against itself; the one queued behind it was not to blame.
      for (const [i, a] of w.assigned.entries()) {
        if (this.cancelled.has(a.generation)) continue;
        if (i === 0) a.attempts += 1;
        const ids = { runKey: a.runKey, unit: a.unit, generation: a.generation };
        if (a.attempts >= AttnLabUnitPool.MAX_ATTEMPTS) {
          this.events.push({ type: 'error', ...ids, lost: true, message: `its worker was lost ${a.attempts} times (last: ${cause}): ` +
            'one part of the run took too long or ran out of memory; smaller settings (fewer samples or steps) ' +
            'make each part shorter' });
        } else {
          this.retry.push(a);
          this.reruns += 1;
          this.events.push({ type: 'rerun', ...ids, message: `a worker stopped (${cause}); its unit ${a.unit} runs again` });
        }
      }
      w.assigned = [];
      if (this.workers.length < this.target) this.add();
      this.postRetries();
    }
    // Workers that hold a unit and have been silent longer than the watchdog allows are lost. A gap
    // in the owner's own checks longer than OWNER_STALL_MS is not the workers' silence: the owner's
    // thread was starved (walk 22: a page on a loaded machine lost the worker of a healthy run so),
    // and their messages may be waiting behind the stall, so their clocks move on by the gap.
    checkLost() {
      const now = AttnLabUnitPool.now(), limit = this.watchdogMs;
      const gap = this.lastCheck ? now - this.lastCheck : 0;
      this.lastCheck = now;
      if (gap > AttnLabUnitPool.OWNER_STALL_MS)
        for (const w of this.workers) if (w.heard) w.heard = Math.min(now, w.heard + gap);
      const silent = this.workers.filter((w) => w.ready && !w.failed && w.assigned.length && now - w.heard > limit);
      for (const w of silent)
        this.lose(w, `no answer for ${((now - w.heard) / 1000).toFixed(1)} s, the watchdog's limit ${(limit / 1000).toFixed(1)} s`);
      return silent.length > 0;
    }
    postRetries() {
      while (this.retry.length) {
        const a = this.retry[0];
        if (this.cancelled.has(a.generation)) { this.retry.shift(); continue; }
        const w = this.openWorker(a.runKey);
        if (!w) return;
        this.retry.shift();
        this.send(w, a);
      }
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
      const now = AttnLabUnitPool.now();
      if (w.assigned.length && w.heard) this.longestSilence = Math.max(this.longestSilence, now - w.heard);
      w.heard = now;
      if (msg.type === 'ready') { w.ready = true; w.memory = msg.memory; this.postRetries(); return; }
      if (msg.type === 'failed') { this.fail(w, msg.message); return; }
      if (msg.type === 'done' || msg.type === 'error' || msg.type === 'cancelled') {
        const i = w.assigned.findIndex((a) => a.runKey === msg.runKey && a.unit === msg.unit);
        if (i >= 0) w.assigned.splice(i, 1);
        if (msg.memory) w.memory = msg.memory;
        this.postRetries();
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
      this.postRetries();
      if (this.retry.length) return false;  // lost units go first
      const w = this.openWorker(runKey);
      if (!w) return false;
      this.send(w, { runKey, spec, unit, generation, attempts: 0 });
      return true;
    }
    // The least loaded ready worker with room; among those, one that already holds this run's
    // settings (it need not prepare the run again). Null when every worker is full.
    openWorker(runKey) {
      const open = this.workers.filter((w) => w.ready && !w.failed && w.assigned.length < AttnLabUnitPool.DEPTH);
      if (!open.length) return null;
      const least = Math.min(...open.map((w) => w.assigned.length));
      const candidates = open.filter((w) => w.assigned.length === least);
      return candidates.find((x) => x.runKeys.includes(runKey)) || candidates[0];
    }
    send(w, a) {
      const msg = { type: 'run', generation: a.generation, runKey: a.runKey, unit: a.unit };
      const known = w.runKeys.indexOf(a.runKey);
      if (known >= 0) w.runKeys.splice(known, 1);
      else msg.spec = a.spec;
      w.runKeys.push(a.runKey);
      if (w.runKeys.length > AttnLabUnitPool.KEPT_SESSIONS) w.runKeys.shift();
      if (!w.assigned.length) w.heard = AttnLabUnitPool.now();  // the watchdog counts from here
      w.assigned.push(a);
      w.handle.postMessage(msg);
    }
    cancel(generation) {
      this.cancelled.add(generation);
      this.events = this.events.filter((e) => e.generation !== generation);
      this.retry = this.retry.filter((a) => a.generation !== generation);
      for (const w of this.workers) if (!w.failed) w.handle.postMessage({ type: 'cancel', generation });
    }
    dropFailed() {
      for (const w of this.workers.filter((x) => x.failed)) w.handle.terminate();
      this.workers = this.workers.filter((x) => !x.failed);
    }
    takeEvents() {
      this.checkLost();
      const out = this.events;
      this.events = [];
      return out;
    }
    terminate() { this.resize(0); this.retry = []; }
  }

  AttnLabUnitPool.KEPT_SESSIONS = 6;  // as unit_worker.js; at least DEPTH, so a queued unit's settings stay
  AttnLabUnitPool.DEPTH = 6;
  AttnLabUnitPool.MAX_ATTEMPTS = 3;        // a unit lost this often ends the run with an error
  AttnLabUnitPool.WATCHDOG_FACTOR = 8;     // x the longest silence measured from a busy worker
  AttnLabUnitPool.WATCHDOG_FLOOR_MS = 5000;
  AttnLabUnitPool.OWNER_STALL_MS = 2000;  // above the JS API's once-a-second check
  AttnLabUnitPool.now = () => (typeof performance === 'object' ? performance.now() : Date.now());

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
      worker.onmessageerror = () => handlers.error('a message from the worker could not be read');
      return worker;
    };
  };

  globalThis.AttnLabUnitPool = AttnLabUnitPool;
})();
