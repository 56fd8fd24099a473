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
}

export interface StartOptions extends RunOptions {
  /** Called after each slice; `record` (the partial results) at most ~10 times a second and with the last call. */
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
  /** In [0, 1]; 1 when finished. */
  fraction: number;
  record?: RunRecord;
}

export interface RunHandle {
  /** The final record; rejects with AttnLabError (bad input) or an Error named 'AbortError' (cancelled). */
  result: Promise<RunRecord>;
  /** Stops the run between slices. */
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
  /** Runs to completion (blocking). Throws AttnLabError on bad input. */
  run(id: string, options?: RunOptions): RunRecord;
  /** Runs to completion; the CSV text is byte for byte what `attnlab run ... --quiet` prints. */
  runCsv(id: string, options?: RunOptions): string;
  /** Runs in slices without blocking the page. */
  start(id: string, options?: StartOptions): RunHandle;
  /** One trial of one sweep point up close (separation.self, separation.cross). */
  inspect(id: string, options?: InspectOptions): RunRecord;
  /** The panels of a whole-paper reproduction, e.g. panels('separation'). */
  panels(name: string): ReproductionPanel[];
  /** Throughput of the benchmark workloads (blocking: about `seconds` per workload; default 1). */
  benchmarks(options?: { seconds?: number }): BenchResult[];
}

/** The raw Embind module (JSON text in and out; errors as {"error": "..."}). */
export interface EmbindModule {
  listExperiments(): string;
  describeExperiment(id: string): string;
  runExperiment(id: string, preset: string | undefined, params: Params | undefined, seed: number, data?: string): string;
  runExperimentCsv(id: string, preset: string | undefined, params: Params | undefined, seed: number): string;
  inspectExperiment(id: string, preset: string | undefined, params: Params | undefined, seed: number, point: number,
                    trial: number): string;
  reproductionPanels(name: string): string;
  benchmarks(seconds: number): string;
  Session: new (id: string, preset: string | undefined, params: Params | undefined, seed: number, data?: string) => EmbindSession;
}

export interface EmbindSession {
  error(): string;
  step(seconds: number): number;
  progress(): number;
  finished(): boolean;
  json(): string;
  csv(): string;
  delete(): void;
}
