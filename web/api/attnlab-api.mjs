// Attention Lab without the UI: the experiments as plain JavaScript calls, for course pages and
// scripts. One wasm module (the page's own attnlab.js + attnlab.wasm, started without its UI, or
// any factory such as the node build attnlab_node.cjs) behind a small promise-based API.
// Types: attnlab-api.d.ts beside this file.
//
//   import { createAttnLab } from './attnlab-api.mjs';
//   const lab = await createAttnLab();
//   const record = lab.run('separation.toy', { preset: 'fig3b', params: { trials: 200 }, seed: 1 });
//   const same = await lab.run('separation.toy', { preset: 'fig3b', params: { trials: 200 }, seed: 1, threads: 2 });
//
// Threads: with {threads: N >= 1} a run's work units (docs/design.md "The run: prepare, units, merge, results") are computed
// by N workers (Web Workers in browsers, worker_threads in node) that load the compute-only module
// and run web/workers/unit_worker.js; this thread only prepares the run and absorbs the units'
// partial results, so the record is byte for byte the one-thread record. Workers stay for the next
// run of the same lab (idle node workers do not keep the process alive) until lab.close().
// Where the workers come from:
//   browsers: unit_pool.js, unit_worker.js and attnlab_worker.js/.wasm in options.baseUrl (default:
//     the folder of this file), as the build serves them beside attnlab.js;
//   node: options.workerModule (the path of attnlab_node.cjs; default: the file options.factory was
//     required from, else a loaded attnlab_node.cjs, else attnlab_node.cjs beside this file) and
//     options.workerScript (the path of unit_worker.js; default: the first that exists of
//     unit_worker.js and web/unit_worker.js beside the module, unit_worker.js beside this file
//     (the served build) and ../workers/unit_worker.js from this file (the source tree)).

/** Bad input (unknown experiment, preset or parameter, out-of-range value, bad seed): the message is
 * exactly the schema's, e.g. "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]". */
export class AttnLabError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'AttnLabError';
  }
}

/** The most workers one run may use. */
const MAX_THREADS = 64;

/** The `threads` option: undefined or an integer in [0, MAX_THREADS], else an AttnLabError. */
function threadsArg(threads) {
  if (threads === undefined) return 0;
  if (!(Number.isInteger(threads) && threads >= 0 && threads <= MAX_THREADS))
    throw new AttnLabError(`parameter 'threads': '${String(threads)}' is not allowed; allowed: integer in [0, ${MAX_THREADS}]`);
  return threads;
}

const inNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

/** The error a cancelled start() rejects with: an Error named 'AbortError' (cause: the signal's reason). */
function abortError(reason) {
  const error = new Error('the run was cancelled');
  error.name = 'AbortError';
  if (reason !== undefined) error.cause = reason;
  return error;
}

/** Parses the module's JSON text; {"error": message} becomes a thrown AttnLabError. */
function parse(text) {
  const value = JSON.parse(text);
  if (value && !Array.isArray(value) && typeof value.error === 'string') throw new AttnLabError(value.error);
  return value;
}

/** The values of one column of a result record, e.g. column(record, 'success_rate'). */
export function column(record, name) {
  const i = record.columns.indexOf(name);
  if (i < 0) throw new AttnLabError(`no column '${name}'; columns: ${record.columns.join(', ')}`);
  return record.rows.map((row) => row[i]);
}

// Lets the event loop run between slices (input, rendering, cancel()): setImmediate in node,
// a MessageChannel in browsers (setTimeout(0) is clamped to 4 ms there), setTimeout otherwise.
let yieldToEventLoop;
if (typeof setImmediate === 'function') {
  yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));
} else if (typeof MessageChannel === 'function') {
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  yieldToEventLoop = () => new Promise((resolve) => { waiting.push(resolve); channel.port2.postMessage(0); });
} else {
  yieldToEventLoop = () => new Promise((resolve) => setTimeout(resolve, 0));
}

const scripts = new Map();  // url -> Promise, so that two createAttnLab() calls load attnlab.js once

function loadScript(url) {
  if (!scripts.has(url)) {
    scripts.set(url, new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.onload = resolve;
      script.onerror = () => { scripts.delete(url); reject(new Error(`could not load ${url}`)); };
      document.head.appendChild(script);
    }));
  }
  return scripts.get(url);
}

// ---- workers ---------------------------------------------------------------------------------

/** The file a CommonJS module factory was required from (node), or undefined. */
function requiredFrom(require, factory) {
  if (typeof factory !== 'function') return undefined;
  for (const [file, entry] of Object.entries(require.cache)) if (entry?.exports === factory) return file;
  return undefined;
}

/** node: {Pool, spawn} for AttnLabUnitPool, workers from worker_threads (see the header). */
async function nodeWorkers(where) {
  const [{ Worker }, fs, path, url, { createRequire }] = await Promise.all([
    import('node:worker_threads'), import('node:fs'), import('node:path'), import('node:url'), import('node:module')]);
  const require = createRequire(import.meta.url);
  const apiDir = path.dirname(url.fileURLToPath(import.meta.url));
  const loaded = () => Object.keys(require.cache).filter((f) => path.basename(f) === 'attnlab_node.cjs');
  const modulePath = path.resolve(where.workerModule ?? requiredFrom(require, where.factory) ??
    (loaded().length === 1 ? loaded()[0] : path.join(apiDir, 'attnlab_node.cjs')));
  const moduleDir = path.dirname(modulePath);
  const candidates = where.workerScript !== undefined ? [path.resolve(where.workerScript)] : [
    path.join(moduleDir, 'unit_worker.js'), path.join(moduleDir, 'web', 'unit_worker.js'),
    path.join(apiDir, 'unit_worker.js'), path.join(apiDir, '..', 'workers', 'unit_worker.js')];
  const script = candidates.find((f) => fs.existsSync(f));
  if (!script) throw new Error(`threads: unit_worker.js not found (looked for ${candidates.join(', ')}); pass createAttnLab({workerScript})`);
  if (!globalThis.AttnLabUnitPool) await import(url.pathToFileURL(path.join(path.dirname(script), 'unit_pool.js')).href);
  const spawn = (handlers) => {
    const worker = new Worker(script, { workerData: { module: modulePath } });
    let ended = false;
    worker.on('message', handlers.message);
    worker.on('error', (e) => { if (!ended) handlers.error(e); });
    worker.on('exit', (code) => { if (!ended) handlers.error(`the worker exited (code ${code})`); ended = true; });
    return {
      postMessage: (msg) => worker.postMessage(msg),
      terminate: () => { ended = true; return worker.terminate(); },
      ref: () => worker.ref(),
      unref: () => worker.unref(),
    };
  };
  return { Pool: globalThis.AttnLabUnitPool, spawn };
}

/** Browsers: {Pool, spawn} with Web Workers from `base` (see the header). */
async function browserWorkers(base) {
  if (typeof Worker !== 'function') throw new Error('threads: this environment has no Web Workers');
  if (typeof globalThis.AttnLabUnitPool !== 'function') await import(new URL('unit_pool.js', base).href);
  return { Pool: globalThis.AttnLabUnitPool, spawn: globalThis.AttnLabUnitPool.browserSpawner(base) };
}

/** Resolves once no worker of `pool` is busy (true), or false after `ms`. */
function whenQuiet(pool, ms) {
  return new Promise((resolve) => {
    if (pool.busyCount === 0) { resolve(true); return; }
    const done = (quiet) => { clearTimeout(timer); pool.onchange = null; resolve(quiet); };
    const timer = setTimeout(() => done(false), ms);
    pool.onchange = () => { if (pool.busyCount === 0) done(true); };
  });
}

/**
 * Loads and starts the wasm module (without its UI) and returns the lab.
 * @param {object} [options]
 * @param {Function} [options.factory] module factory to call instead of loading attnlab.js, e.g.
 *   require('attnlab_node.cjs') in node
 * @param {string} [options.baseUrl] folder holding attnlab.js and attnlab.wasm (relative to the page);
 *   default: the folder of this file
 * @param {object} [options.module] an already started module to wrap (nothing is loaded)
 * @param {object} [options.moduleArg] extra settings for the module factory (print, printErr, ...)
 * @param {string} [options.workerModule] node: path of attnlab_node.cjs for the workers of threaded runs
 * @param {string} [options.workerScript] node: path of unit_worker.js (see the header for the defaults)
 * @returns {Promise<object>} the lab (see attnlab-api.d.ts, interface AttnLab)
 */
export async function createAttnLab(options = {}) {
  let module = options.module;
  const here = typeof document !== 'undefined' ? document.baseURI : import.meta.url;
  let base = options.baseUrl === undefined ? new URL('./', import.meta.url).href : new URL(options.baseUrl, here).href;
  if (!base.endsWith('/')) base += '/';
  if (!module) {
    const settings = { noInitialRun: true, ...options.moduleArg };
    let factory = options.factory;
    if (!factory || options.baseUrl !== undefined) {
      settings.locateFile ??= (path) => base + path;
      if (!factory) {
        if (typeof globalThis.attnlabModule !== 'function') {
          if (typeof document === 'undefined')
            throw new Error('createAttnLab: no document to load attnlab.js into; pass options.factory');
          await loadScript(base + 'attnlab.js');
        }
        factory = globalThis.attnlabModule;
      }
    }
    module = await factory(settings);
  }
  const where = { base, factory: options.factory, workerModule: options.workerModule, workerScript: options.workerScript };
  return makeLab(module, where);
}

function makeLab(m, where) {
  let version;

  // ---- the workers of threaded runs: pools of AttnLabUnitPool, one per run in progress; a pool
  // whose run ended waits (unref'd in node) for the next run. close() ends them all: the runs
  // started before it (epoch) terminate their pools instead of keeping them.
  let workers;  // Promise of {Pool, spawn}, made on the first threaded run
  const idlePools = [], livePools = new Set(), runsInProgress = new Set();
  let lastGeneration = 0, epoch = 0;

  function setRef(pool, on) {
    for (const w of pool.workers) (on ? w.handle.ref : w.handle.unref)?.call(w.handle);
  }

  async function acquirePool(size) {
    if (!workers) {
      workers = inNode ? nodeWorkers(where) : browserWorkers(where.base);
      workers.catch(() => { workers = undefined; });  // a later run tries again
    }
    const { Pool, spawn } = await workers;
    let pool = idlePools.pop();
    if (!pool) {
      pool = new Pool(spawn, 0);
      livePools.add(pool);
    }
    pool.dropFailed();
    pool.resize(size);
    setRef(pool, true);
    return pool;
  }

  function releasePool(pool, reusable) {
    pool.onchange = null;
    if (!reusable) {
      pool.terminate();
      livePools.delete(pool);
      return;
    }
    setRef(pool, false);
    idlePools.push(pool);
  }

  /**
   * Computes the units of the prepared `session` on `threads` workers and absorbs them.
   * run: {stopped(), reason(), onWake(fn), onProgress?, setFraction(f), epoch}.
   */
  async function computeOnWorkers(session, threads, spec, run) {
    // Returns {allIn: true} when every unit is in; {allIn: false, reruns, notice} when every worker
    // was lost mid-run and none can start again: the caller then computes the rest on this thread
    // (docs/design.md "A lost worker").
    // The rules of what goes out and what a message means are the page's (lab/unit_ledger.hpp,
    // through src/web/scheduler_bindings.cpp); this loop only moves messages.
    const count = session.unitCount();
    const pool = await acquirePool(Math.max(1, Math.min(threads, count)));
    const generation = ++lastGeneration;
    const ledger = new m.UnitLedger();
    let totalCost = 0;
    for (let u = 0; u < count; u++) totalCost += session.unitCost(u);
    ledger.start(generation, totalCost, 0);
    for (let u = 0; u < count; u++) ledger.add(u, session.unitCost(u));
    const runKey = ledger.runKey();
    let dirty = true, wakeUp = null;
    const wake = () => {
      dirty = true;
      if (wakeUp) { const resolve = wakeUp; wakeUp = null; resolve(); }
    };
    pool.onchange = wake;
    run.onWake(wake);
    let done = 0, lastRecord = -Infinity, reusable = true, notice = '';
    const check = (error) => { if (error) throw new AttnLabError(error); };
    try {
      for (;;) {
        if (run.stopped()) throw abortError(run.reason());
        dirty = false;
        let changed = false;
        for (const ev of pool.takeEvents()) {
          const act = ledger.accept(ev.type, ev.generation, ev.runKey, ev.unit, ev.fraction || 0);
          if (act === 'drop') continue;
          if (act === 'refused') throw new Error(`threads: ${ledger.error()}`);
          if (act === 'absorb') {
            check(session.absorb(ev.unit, ev.partial));
            done++;
          } else if (act === 'preview') {
            if (ev.preview) check(session.absorbPreview(ev.unit, ev.preview));
          } else if (act === 'rerun') {
            notice = ev.message;
          } else if (ev.lost) {
            throw new Error(`threads: unit ${ev.unit}: ${ev.message}`);
          } else {
            const workerFailed = pool.failure !== '' && ev.message === pool.failure;
            throw workerFailed ? new Error(`a worker failed: ${ev.message}`) : new AttnLabError(ev.message);
          }
          changed = true;
        }
        const reruns = ledger.reruns();
        if (done < count && pool.state === 'failed') {
          if (reruns > 0) { reusable = false; return { allIn: false, reruns, notice }; }  // no new worker starts
          throw new Error(`threads: the workers could not start: ${pool.failure}`);
        }
        while (ledger.hasNext() && pool.post(runKey, spec, ledger.nextUnit(), generation)) ledger.posted();
        if (changed || done === count) {
          const fraction = done === count ? 1 : Math.min(ledger.progress(), 1 - 1e-9);
          run.setFraction(fraction);
          if (run.onProgress) {
            const report = { fraction, unitsDone: done, units: count, reruns };
            if (notice) report.notice = notice;
            const now = Date.now();
            if (done === count || now - lastRecord >= 100) {
              report.record = JSON.parse(session.json());
              lastRecord = now;
            }
            run.onProgress(report);
          }
        }
        if (done === count) return { allIn: true };
        if (!dirty) await new Promise((resolve) => { wakeUp = resolve; });
      }
    } catch (e) {
      pool.cancel(generation);
      reusable = await whenQuiet(pool, 2000);
      throw e;
    } finally {
      ledger.delete();
      releasePool(pool, reusable && run.epoch === epoch);
    }
  }

  /**
   * A run in time slices on this thread (threads 0) or on workers; resolves to finish(session).
   * Bad input (the schema's message) rejects before any worker starts.
   */
  function launch(id, { preset, params, seed = 1, data, onProgress, sliceMs = 20, signal, threads } = {}, finish) {
    let fraction = 0;
    let cancelled = false;
    let wake = () => {};
    const stopped = () => cancelled || Boolean(signal?.aborted);
    const reason = () => (cancelled ? undefined : signal?.reason);
    const onAbort = () => wake();
    const startedIn = epoch;
    let handle;
    const result = (async () => {
      if (stopped()) throw abortError(signal?.reason);
      if (!(sliceMs > 0 && sliceMs <= 10000)) throw new AttnLabError(`sliceMs must be in (0, 10000]; got ${sliceMs}`);
      const n = threadsArg(threads);
      const session = openSession(id, { preset, params, seed, data });
      let lost = null;  // what computeOnWorkers says when its workers were lost
      try {
        if (n > 0) {
          signal?.addEventListener('abort', onAbort);
          await yieldToEventLoop();  // start() returns before any work is done
          runsInProgress.add(handle);  // for close()
          if (startedIn !== epoch) cancelled = true;  // close() came first
          // Every parameter as text (the record's), so the workers need no preset.
          const spec = { id, params: JSON.parse(session.json()).params, seed, data };
          lost = await computeOnWorkers(session, n, spec, {
            stopped, reason, onProgress, onWake: (fn) => { wake = fn; }, setFraction: (f) => { fraction = f; },
            epoch: startedIn,
          });
          throwIfFailed(session);
          if (lost.allIn) return finish(session);
          // else: the workers were lost; the units not absorbed yet run below, on this thread
        }
        const count = session.unitCount();
        let unitsDone = 0;
        let lastRecord = -Infinity;
        for (;;) {
          await yieldToEventLoop();  // first of all: start() returns before any work is done
          if (stopped()) throw abortError(reason());
          const progress = session.step(sliceMs / 1000);
          throwIfFailed(session);
          const done = session.finished();
          fraction = done ? 1 : Math.min(progress, 1);
          if (onProgress) {
            while (unitsDone < count && session.unitFinished(unitsDone)) unitsDone++;  // in unit order here
            const now = Date.now();
            const report = { fraction, unitsDone, units: count };
            if (lost) Object.assign(report, { reruns: lost.reruns, notice: lost.notice });
            if (done || now - lastRecord >= 100) {
              report.record = JSON.parse(session.json());
              lastRecord = now;
            }
            onProgress(report);
          }
          if (done) return finish(session);
        }
      } finally {
        signal?.removeEventListener('abort', onAbort);
        session.delete();
      }
    })();
    handle = { result, cancel() { cancelled = true; wake(); }, progress: () => fraction };
    const forget = () => runsInProgress.delete(handle);
    result.then(forget, forget);
    return handle;
  }

  const asRecord = (session) => JSON.parse(session.json());
  const asCsv = (session) => session.csv();

  /** Opens an Embind Session or throws the schema's AttnLabError (nothing is left to free then). */
  function openSession(id, { preset, params, seed = 1, data } = {}) {
    const session = new m.Session(id, preset, params, seed, data);
    const error = session.error();
    if (error) {
      session.delete();
      throw new AttnLabError(error);
    }
    return session;
  }

  function throwIfFailed(session) {
    const error = session.error();
    if (error) throw new AttnLabError(error);
  }

  function describe(id) {
    const d = parse(m.describeExperiment(id));
    return {
      id: d.id, title: d.title, paper: d.paper, summary: d.summary, schema: d.params,
      presets: d.presets.map(({ values, ...preset }) => ({ ...preset, params: values })),
      inspector: d.inspector, dataSelector: d.data_selector, smokeSettings: d.smoke_settings,
    };
  }

  return {
    /** The underlying Embind module (listExperiments, Session, ...), for what this API leaves out. */
    module: m,

    /** The build version written into every record ("0.1.0"). */
    get version() {
      if (version === undefined) {
        const session = openSession(parse(m.listExperiments())[0].id);
        try { version = JSON.parse(session.json()).attnlab_version; } finally { session.delete(); }
      }
      return version;
    },

    /** Every experiment: [{id, title, paper, summary}]. */
    list() {
      return parse(m.listExperiments()).map(({ id }) => {
        const { title, paper, summary } = describe(id);
        return { id, title, paper, summary };
      });
    },

    /** One experiment: {id, title, paper, summary, schema, presets}. Throws AttnLabError if unknown. */
    describe,
    /** The parameters: [{key, label, type, default, allowed, unit, help, min?, max?, choices?}]. */
    schema: (id) => describe(id).schema,
    /** The named parameter sets: [{name, title, description, params}]. */
    presets: (id) => describe(id).presets,

    /**
     * Runs to completion and returns the result record: blocking when `threads` is 0 or absent
     * (throws AttnLabError on bad input); with threads >= 1 a Promise (rejects with AttnLabError;
     * `signal` cancels it). `await lab.run(...)` works either way. A bad `threads` value throws.
     */
    run(id, options = {}) {
      if (threadsArg(options.threads) > 0) return launch(id, options, asRecord).result;
      const { preset, params, seed = 1, data } = options;
      return parse(m.runExperiment(id, preset, params, seed, data));
    },

    /**
     * Runs to completion and returns the CSV text, byte for byte what `attnlab run ... --quiet`
     * prints: blocking when `threads` is 0 or absent, else a Promise (as run()).
     */
    runCsv(id, options = {}) {
      if (threadsArg(options.threads) > 0) return launch(id, options, asCsv).result;
      const session = openSession(id, options);
      try {
        while (!session.finished()) session.step(1);
        throwIfFailed(session);
        return session.csv();
      } finally {
        session.delete();
      }
    },

    /**
     * Runs without blocking and calls onProgress({fraction, unitsDone, units, record?}) as it goes
     * (record: the partial results, at most ~10 times a second, and always with the last call).
     * threads 0 (default): in time slices of sliceMs on this thread, yielding to the event loop
     * between them. threads N >= 1: the run's units on N workers (see the header); `fraction`
     * counts the units done and the share done of those in flight. cancel() or an aborted signal
     * stops the run (between slices; workers within a slice): `result` then rejects with an Error
     * named 'AbortError', once no worker is busy with it any more.
     */
    start(id, options = {}) {
      return launch(id, options, asRecord);
    },

    /**
     * Cancels the threaded runs in progress (they reject with AbortError) and terminates every
     * worker. The lab stays usable: a later threaded run starts new workers.
     */
    async close() {
      epoch++;
      for (const pool of idlePools.splice(0)) releasePool(pool, false);
      const running = [...runsInProgress];
      for (const handle of running) handle.cancel();
      await Promise.allSettled(running.map((handle) => handle.result));
    },

    /** The workers of this lab's threaded runs: {size: how many are alive, busy: how many compute}. */
    get workers() {
      let size = 0, busy = 0;
      for (const pool of livePools) { size += pool.size; busy += pool.busyCount; }
      return { size, busy };
    },

    /** One trial of one sweep point up close (separation.self / .cross): the per-token table and heatmaps. */
    inspect(id, { preset, params, seed = 1, point = 0, trial = 0 } = {}) {
      return parse(m.inspectExperiment(id, preset, params, seed, point, trial));
    },

    /** The panels of a whole-paper reproduction, e.g. panels('separation'): [{panel, experiment, preset}]. */
    panels: (name) => parse(m.reproductionPanels(name)),

    /** The guided stories, one per paper: [{id, paper, authors, result, steps: [{title, text, question, link, ...}]}]. */
    stories: () => parse(m.listStories()),

    /** Every paper: [{id, title, authors, arxiv, docsPage, experiments: [ids], story, reproduction}]. */
    listPapers: () => parse(m.listPapers()),

    /** Throughput of the benchmark workloads (blocking: about `seconds` per workload); the node build
     * only, as the page's module leaves the workloads out to load faster. */
    benchmarks({ seconds = 1 } = {}) {
      if (typeof m.benchmarks !== 'function') {
        throw new AttnLabError("benchmarks: only the node build has them (createAttnLab({ factory: " +
          "require('./build/wasm/attnlab_node.cjs') })); the page's module leaves them out to load faster");
      }
      return parse(m.benchmarks(seconds));
    },
  };
}
