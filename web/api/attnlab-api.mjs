// Attention Lab without the UI: the experiments as plain JavaScript calls, for course pages and
// scripts. One wasm module (the page's own attnlab.js + attnlab.wasm, started without its UI, or
// any factory such as the node build attnlab_node.cjs) behind a small promise-based API.
// Types: attnlab-api.d.ts beside this file.
//
//   import { createAttnLab } from './attnlab-api.mjs';
//   const lab = await createAttnLab();
//   const record = lab.run('separation.toy', { preset: 'fig3b', params: { trials: 200 }, seed: 1 });

/** Bad input (unknown experiment, preset or parameter, out-of-range value, bad seed): the message is
 * exactly the schema's, e.g. "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]". */
export class AttnLabError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'AttnLabError';
  }
}

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

/**
 * Loads and starts the wasm module (without its UI) and returns the lab.
 * @param {object} [options]
 * @param {Function} [options.factory] module factory to call instead of loading attnlab.js, e.g.
 *   require('attnlab_node.cjs') in node
 * @param {string} [options.baseUrl] folder holding attnlab.js and attnlab.wasm (relative to the page);
 *   default: the folder of this file
 * @param {object} [options.module] an already started module to wrap (nothing is loaded)
 * @param {object} [options.moduleArg] extra settings for the module factory (print, printErr, ...)
 * @returns {Promise<object>} the lab (see attnlab-api.d.ts, interface AttnLab)
 */
export async function createAttnLab(options = {}) {
  let module = options.module;
  if (!module) {
    const settings = { noInitialRun: true, ...options.moduleArg };
    let factory = options.factory;
    if (!factory || options.baseUrl !== undefined) {
      const here = typeof document !== 'undefined' ? document.baseURI : import.meta.url;
      let base = options.baseUrl === undefined ? new URL('./', import.meta.url).href : new URL(options.baseUrl, here).href;
      if (!base.endsWith('/')) base += '/';
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
  return makeLab(module);
}

function makeLab(m) {
  let version;

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

    /** Runs to completion (blocking) and returns the result record. Throws AttnLabError on bad input. */
    run(id, { preset, params, seed = 1, data } = {}) {
      return parse(m.runExperiment(id, preset, params, seed, data));
    },

    /** Runs to completion and returns the CSV text, byte for byte what `attnlab run ... --quiet` prints. */
    runCsv(id, options = {}) {
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
     * Runs in time slices of sliceMs, yielding to the event loop between them, and calls
     * onProgress({fraction, record?}) after each slice (record: the partial results, at most ~10
     * times a second, and always with the last call). cancel() or an aborted signal stops the run
     * between slices: `result` then rejects with an Error named 'AbortError'.
     */
    start(id, { preset, params, seed = 1, data, onProgress, sliceMs = 20, signal } = {}) {
      let fraction = 0;
      let cancelled = false;
      const stopped = () => cancelled || Boolean(signal?.aborted);
      const result = (async () => {
        if (stopped()) throw abortError(signal?.reason);
        if (!(sliceMs > 0 && sliceMs <= 10000)) throw new AttnLabError(`sliceMs must be in (0, 10000]; got ${sliceMs}`);
        const session = openSession(id, { preset, params, seed, data });
        try {
          let lastRecord = -Infinity;
          for (;;) {
            await yieldToEventLoop();  // first of all: start() returns before any work is done
            if (stopped()) throw abortError(cancelled ? undefined : signal.reason);
            const progress = session.step(sliceMs / 1000);
            throwIfFailed(session);
            const done = session.finished();
            fraction = done ? 1 : Math.min(progress, 1);
            if (onProgress) {
              const now = Date.now();
              const report = { fraction };
              if (done || now - lastRecord >= 100) {
                report.record = JSON.parse(session.json());
                lastRecord = now;
              }
              onProgress(report);
            }
            if (done) return JSON.parse(session.json());
          }
        } finally {
          session.delete();
        }
      })();
      return { result, cancel() { cancelled = true; }, progress: () => fraction };
    },

    /** One trial of one sweep point up close (separation.self / .cross): the per-token table and heatmaps. */
    inspect(id, { preset, params, seed = 1, point = 0, trial = 0 } = {}) {
      return parse(m.inspectExperiment(id, preset, params, seed, point, trial));
    },

    /** The panels of a whole-paper reproduction, e.g. panels('separation'): [{panel, experiment, preset}]. */
    panels: (name) => parse(m.reproductionPanels(name)),

    /** Throughput of the benchmark workloads (blocking: about `seconds` per workload). */
    benchmarks({ seconds = 1 } = {}) {
      return parse(m.benchmarks(seconds));
    },
  };
}
