// Types for attnlab-api.mjs: Attention Lab's experiments as plain JavaScript calls, without the UI.

/** Bad input; the message is exactly the schema's, e.g.
 * "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]". */
export declare class AttnLabError extends Error {
  constructor(message: string);
  readonly name: 'AttnLabError';
}

export interface CreateOptions {
  /** Module factory to call instead of loading attnlab.js, e.g. `require('.../attnlab_node.cjs')` in node. */
  factory?: (moduleArg: object) => Promise<EmbindModule>;
  /** Folder holding attnlab.js and attnlab.wasm (relative to the page). Default: the folder of attnlab-api.mjs. */
  baseUrl?: string;
  /** An already started module to wrap; nothing is loaded. */
  module?: EmbindModule;
  /** Extra settings for the module factory (print, printErr, ...). */
  moduleArg?: Record<string, unknown>;
  /**
   * Node, threaded runs: path of attnlab_node.cjs for the workers (relative to the working
   * directory). Default: the file `factory` was required from, else the one attnlab_node.cjs
   * already loaded, else attnlab_node.cjs beside attnlab-api.mjs.
   */
  workerModule?: string;
  /**
   * Node, threaded runs: path of unit_worker.js (unit_pool.js is read from the same folder).
   * Default: the first that exists of unit_worker.js and web/unit_worker.js beside the worker
   * module, unit_worker.js beside attnlab-api.mjs (the built site) and ../workers/unit_worker.js
   * from it (the source tree). Browsers take both from `baseUrl` (unit_pool.js, unit_worker.js,
   * attnlab_worker.js and attnlab_worker.wasm).
   */
  workerScript?: string;
}

/** Loads and starts the wasm module (without its UI) and returns the lab. */
export declare function createAttnLab(options?: CreateOptions): Promise<AttnLab>;

/** The values of one column of a record, e.g. `column(record, 'success_rate')`. Throws AttnLabError if absent. */
export declare function column(record: RunRecord, name: string): Array<number | null>;

/** A parameter value as given: numbers and booleans are turned into text and checked by the schema. */
export type ParamValue = string | number | boolean;
export type Params = Record<string, ParamValue>;

export interface RunOptions {
  /** A preset name such as "fig3b"; `params` override its values. */
  preset?: string;
  params?: Params;
  /** Integer in [0, 4294967295]; default 1 (as the CLI). */
  seed?: number;
  /** JSON text for experiments that read data (a regression problem file, a mirror data file). */
  data?: string;
  /**
   * Workers computing the run's units: an integer in [0, 64]; 0 (default) computes on this
   * thread. With N >= 1, N Web Workers (browsers) or worker_threads (node) compute the units and
   * this thread only prepares the run and merges their partial results: the record is byte for
   * byte the same as with 0. Workers are kept for the lab's next runs until close().
   * Any other value throws AttnLabError "parameter 'threads': '<value>' is not allowed; allowed:
   * integer in [0, 64]".
   */
  threads?: number;
}

/** Options of a run on workers: run() and runCsv() then return a Promise. */
export interface ThreadedRunOptions extends RunOptions {
  threads: number;
  /** Aborting it stops the run: the Promise rejects with an Error named 'AbortError'. */
  signal?: AbortSignal;
}

export interface StartOptions extends RunOptions {
  /**
   * Called after each slice (threads 0) or when workers report (a unit done, or every ~250 ms of
   * a unit in flight); `record` (the partial results) at most ~10 times a second and with the last call.
   */
  onProgress?: (progress: Progress) => void;
  /** Work per slice in milliseconds, in (0, 10000]; default 20. */
  sliceMs?: number;
  /** Aborting it stops the run between slices, like cancel(). */
  signal?: AbortSignal;
}

export interface InspectOptions extends RunOptions {
  /** Sweep point index; default 0. */
  point?: number;
  /** Trial index; default 0. */
  trial?: number;
}

export interface Progress {
  /** In [0, 1]; 1 when finished. With threads: the units done and the share done of those in flight, by cost. */
  fraction: number;
  /** Work units finished so far, and how many the run has (docs/design.md "The run: prepare, units, merge, results"). */
  unitsDone: number;
  units: number;
  /** With threads: units that ran again because their worker was lost, and why the last one was. */
  reruns?: number;
  notice?: string;
  record?: RunRecord;
}

export interface RunHandle {
  /**
   * The final record; rejects with AttnLabError (bad input, including a bad `threads`; always
   * before any worker starts) or an Error named 'AbortError' (cancelled: with threads, once no
   * worker computes for this run any more), or an Error if the workers could not start or one unit's
   * worker was lost again and again (docs/design.md "A lost worker"). A run whose workers are all lost
   * mid-run finishes on this thread.
   */
  result: Promise<RunRecord>;
  /** Stops the run between slices (with threads: every worker stops within a slice). */
  cancel(): void;
  /** The fraction done so far, in [0, 1]. */
  progress(): number;
}

export interface ExperimentInfo {
  id: string;
  title: string;
  paper: string;
  summary: string;
}

export interface ParamSpec {
  key: string;
  label: string;
  type: 'integer' | 'real' | 'boolean' | 'choice' | 'sweep';
  /** The default as text, as the CLI and the URL take it. */
  default: string;
  /** What is allowed, in words: "number in [0.01, 0.5]". */
  allowed: string;
  unit: string;
  help: string;
  /** integer and real only. */
  min?: number;
  max?: number;
  /** choice only. */
  choices?: string[];
}

export interface Preset {
  name: string;
  title: string;
  description: string;
  /** The values the preset sets, as text. */
  params: Record<string, string>;
}

export interface ExperimentDescription extends ExperimentInfo {
  schema: ParamSpec[];
  presets: Preset[];
  /** Whether inspect() works for this experiment. */
  inspector: boolean;
  /** The setting that makes a run use the `data` option (e.g. {key: 'source', value: 'data'}); null: it takes no data. */
  dataSelector: { key: string; value: string } | null;
  /** Small settings for a quick run (well under a second natively) that still has several work units. */
  smokeSettings: Params;
}

export interface Heatmap {
  title: string;
  x_label: string;
  y_label: string;
  rows: number;
  cols: number;
  low: number | null;
  high: number | null;
  note: string;
  /** rows * cols values, row-major; NaN is null. */
  values: Array<number | null>;
}

/** A run's results with everything needed to reproduce them (same JSON as `attnlab run --format json`). */
export interface RunRecord {
  attnlab_version: string;
  experiment: string;
  preset: string | null;
  seed: number;
  /** Every parameter, as text. */
  params: Record<string, string>;
  /** Inspector records: the point and trial. */
  context?: Record<string, string>;
  complete: boolean;
  progress: number;
  columns: string[];
  /** Each column's meaning in words, by column name ("exp_d1_low": "share of trials in which softmax fires on D1; lower end of its Wilson 95% range"). */
  column_key: Record<string, string>;
  /** One row per sweep point (or token, for inspect); NaN is null. */
  rows: Array<Array<number | null>>;
  notes: string[];
  heatmaps?: Heatmap[];
}

export interface ReproductionPanel {
  panel: string;
  experiment: string;
  preset: string;
}

/** One step of a guided story: what it says and what it opens. */
export interface StoryStep {
  title: string;
  text: string;
  /** One question for the student. */
  question: string;
  /** The step's link hash, e.g. "story=mirror&step=3". */
  link: string;
  experiment: string;
  preset: string;
  params: Record<string, string>;
  seed: number;
  /** The parameter keys the step shows; the others keep the step's values. */
  shows: string[];
  /** Starts running when the step opens. */
  run: boolean;
  /** A prediction asked before the run, if any. */
  prediction: { question: string; choices: string[] } | null;
}

/** A paper the lab reproduces. */
export interface Paper {
  id: string;
  title: string;
  authors: string;
  /** The arXiv id, e.g. "2310.11685". */
  arxiv: string;
  /** Its page in the repository, e.g. "docs/separation.md". */
  docsPage: string;
  /** The ids of its experiments. */
  experiments: string[];
  /** Its guided story's id ("" when there is none). */
  story: string;
  /** Its whole-paper reproduction's name ("" when there is none). */
  reproduction: string;
}

export interface Story {
  id: string;
  paper: string;
  authors: string;
  /** The paper's result in one sentence. */
  result: string;
  figureCaption: string;
  steps: StoryStep[];
}

export interface BenchResult {
  name: string;
  unit: string;
  rate: number;
  seconds: number;
  units: number;
}

export interface AttnLab {
  /** The underlying Embind module, for what this API leaves out. */
  readonly module: EmbindModule;
  /** The build version written into every record, e.g. "0.1.0". */
  readonly version: string;
  list(): ExperimentInfo[];
  describe(id: string): ExperimentDescription;
  schema(id: string): ParamSpec[];
  presets(id: string): Preset[];
  /**
   * Runs to completion. threads 0 or absent: blocking; throws AttnLabError on bad input.
   * threads >= 1: returns a Promise (computed on workers; rejects with AttnLabError on bad input).
   * `await lab.run(...)` works for any `threads`. A bad `threads` value throws AttnLabError.
   */
  run(id: string, options?: RunOptions & { threads?: 0 }): RunRecord;
  run(id: string, options: ThreadedRunOptions): RunRecord | Promise<RunRecord>;
  /** As run(); the CSV text is byte for byte what `attnlab run ... --quiet` prints. */
  runCsv(id: string, options?: RunOptions & { threads?: 0 }): string;
  runCsv(id: string, options: ThreadedRunOptions): string | Promise<string>;
  /** Runs without blocking the page: in slices on this thread, or on `threads` workers. */
  start(id: string, options?: StartOptions): RunHandle;
  /**
   * Cancels the threaded runs in progress (they reject with AbortError) and terminates every
   * worker of this lab. The lab stays usable; a later threaded run starts new workers. (In node
   * idle workers never keep the process alive, so close() is optional there.)
   */
  close(): Promise<void>;
  /** The workers of this lab's threaded runs: how many are alive and how many are computing. */
  readonly workers: { size: number; busy: number };
  /** One trial of one sweep point up close (separation.self, separation.cross). */
  inspect(id: string, options?: InspectOptions): RunRecord;
  /** The panels of a whole-paper reproduction, e.g. panels('separation'). */
  panels(name: string): ReproductionPanel[];
  /** The guided stories, one per paper, with every step's text and link (`#story=ID&step=N`). */
  stories(): Story[];
  /** Every paper of the lab, declared once (src/experiments/papers.cpp), in the start page's order. */
  listPapers(): Paper[];
  /** Throughput of the benchmark workloads (blocking: about `seconds` per workload; default 1). The
   * node build only (attnlab_node.cjs): with the page's module it throws an AttnLabError. */
  benchmarks(options?: { seconds?: number }): BenchResult[];
}

/** The raw Embind module (JSON text in and out; errors as {"error": "..."}). */
export interface EmbindModule {
  listExperiments(): string;
  listStories(): string;
  listPapers(): string;
  describeExperiment(id: string): string;
  runExperiment(id: string, preset: string | undefined, params: Params | undefined, seed: number, data?: string): string;
  runExperimentCsv(id: string, preset: string | undefined, params: Params | undefined, seed: number): string;
  inspectExperiment(id: string, preset: string | undefined, params: Params | undefined, seed: number, point: number,
                    trial: number): string;
  reproductionPanels(name: string): string;
  /** The node module only (src/web/bench_bindings.cpp); absent from the page's and the workers'. */
  benchmarks?(seconds: number): string;
  Session: new (id: string, preset: string | undefined, params: Params | undefined, seed: number, data?: string) => EmbindSession;
}

export interface EmbindSession {
  error(): string;
  step(seconds: number): number;
  progress(): number;
  finished(): boolean;
  json(): string;
  csv(): string;
  /** Work units (threaded runs): the worker side computes, the main side absorbs. */
  unitCount(): number;
  unitCost(unit: number): number;
  unitFinished(unit: number): boolean;
  /** "" or the error. */
  startUnit(unit: number): string;
  /** Works about `seconds` on the started unit; true once it is finished (or failed). */
  advanceUnit(seconds: number): boolean;
  unitFraction(): number;
  /** A provisional partial (JSON text) of the started unit, or "". */
  unitPreview(): string;
  /** The finished unit's partial as JSON text, or {"error": ...}. */
  finishUnit(): string;
  dropUnit(): void;
  /** "" or the error. */
  absorb(unit: number, partial: string): string;
  absorbPreview(unit: number, partial: string): string;
  delete(): void;
}
