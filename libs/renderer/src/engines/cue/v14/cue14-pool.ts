import { availableParallelism } from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Clock } from '#kube-core';
import { WorkerPool } from '../../worker-pool.js';
import type { EvalScope } from '../../engine.js';
import { CUE14_WORKER_FILE, EARLY_WORKER_MEMORY_LIMIT_BYTES, takeEarlyCueWorker } from './early-worker.js';

/**
 * CUE v0.14.1 (KubeVela's version, our own WebAssembly build in
 * libs/renderer/cue-wasm) in worker threads, with the pool's per-task
 * deadline and worker replacement. Each worker compiles a template once and
 * keeps it. The CUE engine (../cue-engine.ts) is built on it.
 */
/**
 * The parts of `context` a template reads: paths of keys (`null`: every key; a last `false`:
 * only whether it exists); null: all of it.
 */
export type ContextReads = (string | null | false)[][] | null;

export type Cue14Task =
  | { op: 'version' }
  | { op: 'render'; source: string; parameter: unknown; context: unknown }
  | { op: 'evaluate'; source: string; parameter: unknown; context: unknown; fields: string[] }
  | { op: 'vet'; source: string; properties: unknown }
  | { op: 'schema'; source: string }
  | { op: 'openapi'; source: string }
  | { op: 'comments'; source: string }
  | { op: 'reads'; source: string }
  | { op: 'memory' }
  | { op: 'panic' }
  | { op: 'crash' };

/** One CUE error: its field path (`parameter.ports.0.port`), its message, the template line. */
export interface Cue14Error {
  path: string;
  /** The path as CUE's selectors (`"app.oam.dev/name"` quoted), when CUE gave one. */
  segments?: string[];
  message: string;
  line?: number;
}

/** What KubeVela reads from an evaluated template; `outputs` in the template's own order. */
export interface Cue14Render {
  output?: Record<string, unknown>;
  outputs: Record<string, Record<string, unknown>>;
  patch?: Record<string, unknown>;
  /** KubeVela's `errs`: the template's own verdict on the properties. */
  errs?: unknown;
  /** With a `patch`: its `+patchKey=`/`+patchStrategy=` markers, read from the evaluated fields' comments. */
  patchMarks?: { path: string; kind: 'patchKey' | 'patchStrategy'; value: string }[];
  /** With a `patch`: the paths of its lists written `[...X]` (evaluated as `[X]`: X applies to every item). */
  each?: string[];
}

/** Properties unified with `parameter`: every error, or the result with defaults applied. */
export interface Cue14Vet {
  valid: boolean;
  errors: Cue14Error[];
  parameter?: Record<string, unknown>;
  /**
   * When valid: every field given is one `parameter` names where it stands (or a pattern of
   * its admits), so the JSON Schema would find no unknown field either. False means "look".
   */
  declared?: boolean;
}

/** A `// +name=value` marker on a field: path with "[]" for list items, "[string]" for patterns. */
export interface Cue14Annotation {
  path: string[];
  line: number;
  marks: Record<string, string>;
}

export interface Cue14PoolOptions {
  /** Wall-clock backstop for one task, in milliseconds. */
  timeoutMs: number;
  /** Most CPU time one task may use, in milliseconds (default: none). */
  cpuLimitMs?: number;
  /** Each worker's WebAssembly memory cap, in bytes (default: none but the module's own). */
  memoryLimitBytes?: number;
  /** Worker threads; default: the number of CPUs, at most 2. */
  size?: number;
  clock?: Clock;
  /** Passed to each Worker (tests capture its stdout/stderr). */
  workerOptions?: WorkerOptions;
  /** Called with each worker started (tests read its captured streams). */
  onWorker?: (worker: Worker) => void;
  /**
   * The process renders for long (a controller, the API server): V8 may optimise the CUE
   * module's hot code, which costs CPU at first and saves about 30% per render after.
   * Process-wide, and fixed by the first CUE worker the process starts.
   */
  longRunning?: boolean;
}

export { CUE14_WORKER_FILE };

export interface Cue14Pool {
  version(): Promise<{ cue: string; go: string }>;
  render(source: string, parameter: unknown, context: unknown, scope?: EvalScope): Promise<Cue14Render>;
  /** Named top-level fields with `parameter` and `context` filled (`isHealth`, `message`). */
  evaluate(
    source: string,
    parameter: unknown,
    context: unknown,
    fields: string[],
    scope?: EvalScope,
  ): Promise<Record<string, unknown>>;
  vet(source: string, properties: unknown, scope?: EvalScope): Promise<Cue14Vet>;
  /**
   * A JSON Schema of `parameter`, read from CUE's evaluated value: it exists for every
   * template that compiles and never rejects what CUE accepts (disjunctions are `anyOf`,
   * no `not`); descriptions from `+usage=`, defaults from CUE's.
   */
  schema(source: string, scope?: EvalScope): Promise<Record<string, unknown>>;
  /**
   * CUE's own OpenAPI v3 export of `parameter` (`components.schemas.parameter`). It refuses
   * some constraints (`*1 | int & >=0`: "unsupported op for number &").
   */
  openapi(source: string, scope?: EvalScope): Promise<Record<string, unknown>>;
  comments(source: string, scope?: EvalScope): Promise<Cue14Annotation[]>;
  /**
   * The parts of `context` a template reads, each a path of keys (`null`: every key of an
   * object); null when it may read all of it. Found by CUE in the syntax tree (compiling it).
   */
  reads(source: string, scope?: EvalScope): Promise<ContextReads>;
  /** Runs a raw task (test hooks: `panic`, `crash`). */
  run(task: Cue14Task, scope?: EvalScope): Promise<unknown>;
  readonly stats: WorkerPool<Cue14Task, unknown>['stats'];
  /** Starts loading the CUE module in a worker now rather than at the first task. */
  warm(): void;
  close(): Promise<void>;
}

export function createCue14Pool(options: Cue14PoolOptions): Cue14Pool {
  const pool = new WorkerPool<Cue14Task, unknown>({
    size: options.size ?? Math.max(1, Math.min(2, availableParallelism())),
    createWorker: () => {
      // An early worker (`oam render`) is a short process's: a long-running pool starts its own,
      // and so does one with another memory cap (the early one started with the default's).
      const early =
        !options.workerOptions &&
        !options.longRunning &&
        options.memoryLimitBytes === EARLY_WORKER_MEMORY_LIMIT_BYTES;
      const worker =
        (early ? takeEarlyCueWorker() : undefined) ??
        new Worker(CUE14_WORKER_FILE, {
          ...options.workerOptions,
          workerData: {
            longRunning: options.longRunning === true,
            memoryLimitBytes: options.memoryLimitBytes,
          },
        });
      options.onWorker?.(worker);
      return worker;
    },
    clock: options.clock,
    cpuLimitMs: options.cpuLimitMs,
    memoryLimitBytes: options.memoryLimitBytes,
  });
  const run = (task: Cue14Task, scope: EvalScope = {}) =>
    pool.run(task, { timeoutMs: options.timeoutMs, ...scope });
  return {
    version: async () => (await run({ op: 'version' })) as { cue: string; go: string },
    render: async (source, parameter, context, scope) => {
      const raw = (await run({ op: 'render', source, parameter, context }, scope)) as Omit<
        Cue14Render,
        'outputs'
      > & {
        outputs: [string, Record<string, unknown>][];
      };
      return { ...raw, outputs: Object.fromEntries(raw.outputs) };
    },
    evaluate: async (source, parameter, context, fields, scope) =>
      (await run({ op: 'evaluate', source, parameter, context, fields }, scope)) as Record<string, unknown>,
    vet: async (source, properties, scope) =>
      (await run({ op: 'vet', source, properties }, scope)) as Cue14Vet,
    schema: async (source, scope) => (await run({ op: 'schema', source }, scope)) as Record<string, unknown>,
    openapi: async (source, scope) =>
      (await run({ op: 'openapi', source }, scope)) as Record<string, unknown>,
    comments: async (source, scope) => (await run({ op: 'comments', source }, scope)) as Cue14Annotation[],
    reads: async (source, scope) => (await run({ op: 'reads', source }, scope)) as ContextReads,
    run,
    warm: () => pool.warm(),
    get stats() {
      return pool.stats;
    },
    close: () => pool.close(),
  };
}
