import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type {
  CompiledTemplate,
  EngineOptions,
  ParameterSchema,
  TemplateRequest,
  TemplateResult,
} from '../engine.js';
import { hashOf, type Clock } from '#kube-core';
import { WorkerPool, WorkerTaskError } from '../worker-pool.js';
import {
  fromSent,
  type HandlebarsRender,
  type HandlebarsTask,
  type SentRenderError,
  type WorkerProbe,
} from './handlebars-task.js';
import type { Limits } from './template-errors.js';
import { limitError } from '../limit-errors.js';

export interface HandlebarsSchematic {
  template: string;
  parameters?: Record<string, unknown>;
}

export interface HandlebarsEngineOptions extends EngineOptions {
  /** Most text one evaluation may produce, in bytes (default 4 MiB). */
  maxOutputBytes?: number;
  /** Compiled templates kept (default 500); the oldest goes first. */
  maxCached?: number;
  /** Worker threads rendering templates; default: the number of CPUs, at most 2. */
  poolSize?: number;
  /** Times the evaluation limits (tests pass a FakeClock). */
  clock?: Clock;
}

export interface HandlebarsEngine {
  compile(definition: string, schematic: HandlebarsSchematic): CompiledTemplate;
  readonly stats: WorkerPool<HandlebarsTask, unknown>['stats'];
  /** A test hook: whether a template's code escaped into a worker (with one worker: the one that ran it). */
  probe(): Promise<WorkerProbe>;
  close(): Promise<void>;
}

const EMPTY_SCHEMA: ParameterSchema = { type: 'object', properties: {} };
const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;
export const HANDLEBARS_WORKER_FILE = new URL('./handlebars.worker.mjs', import.meta.url);

/**
 * The Handlebars engine: a template renders a YAML map with `output`,
 * `outputs` and `patch`, in an isolated, strict Handlebars with YAML-safe
 * insertion and no prototype access, under a deadline and an output budget.
 * Templates are parsed, compiled and rendered in worker threads
 * (./handlebars.worker.mjs), so a template that runs long blocks a worker,
 * never the event loop; the pool replaces a worker past its limits.
 */
export function createHandlebarsEngine(options: HandlebarsEngineOptions): HandlebarsEngine {
  const limits: Limits = {
    timeoutMs: options.timeoutMs,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
  };
  // Workers start with the first Handlebars evaluation: a CUE-only render never pays for them.
  const pool = new WorkerPool<HandlebarsTask, unknown>({
    size: options.poolSize ?? Math.max(1, Math.min(2, availableParallelism())),
    createWorker: () =>
      new Worker(HANDLEBARS_WORKER_FILE, { resourceLimits: heapLimits(options.memoryLimitBytes) }),
    clock: options.clock,
    cpuLimitMs: options.cpuLimitMs,
    memoryLimitBytes: options.memoryLimitBytes,
  });
  const maxCached = options.maxCached ?? 500;
  const cache = new Map<string, HandlebarsTemplate>();
  return {
    compile(definition, schematic) {
      const key = `${definition}:${hashOf(schematic)}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const compiled = new HandlebarsTemplate(definition, schematic, pool, limits);
      if (cache.size >= maxCached) cache.delete(cache.keys().next().value!);
      cache.set(key, compiled);
      return compiled;
    },
    get stats() {
      return pool.stats;
    },
    probe: async () => (await pool.run({ op: 'probe' }, { timeoutMs: options.timeoutMs })) as WorkerProbe,
    close: async () => {
      cache.clear();
      await pool.close();
    },
  };
}

class HandlebarsTemplate implements CompiledTemplate {
  constructor(
    readonly definition: string,
    private readonly schematic: HandlebarsSchematic,
    private readonly pool: WorkerPool<HandlebarsTask, unknown>,
    private readonly limits: Limits,
  ) {}

  async parameterSchema(): Promise<ParameterSchema> {
    return this.schematic.parameters ?? EMPTY_SCHEMA;
  }

  async evaluate(request: TemplateRequest): Promise<TemplateResult> {
    const { parameter, context } = request;
    const task: HandlebarsRender = {
      op: 'render',
      definition: this.definition,
      template: this.schematic.template,
      parameter,
      context,
      limits: this.limits,
    };
    try {
      return (await this.pool.run(task, {
        timeoutMs: backstopMs(this.limits.timeoutMs),
        tenant: request.tenant,
        signal: request.signal,
      })) as TemplateResult;
    } catch (err) {
      if (err instanceof WorkerTaskError && err.details) throw fromSent(err.details as SentRenderError);
      throw limitError(this.definition, err, 'Handlebars');
    }
  }
}

/**
 * The worker checks the time limit itself as the template runs, and says so precisely (which
 * limit, which definition). The pool's deadline is the backstop for a worker that cannot
 * check (stuck inside one helper or in garbage collection), so it comes a little later.
 */
function backstopMs(timeoutMs: number): number {
  return timeoutMs + Math.max(1000, timeoutMs);
}

/**
 * A worker's heap: the old generation holds what a render builds (its output, the parsed
 * YAML); past it V8 ends the worker with ERR_WORKER_OUT_OF_MEMORY, which the pool reports as
 * the memory limit. The young generation stays V8's default.
 */
function heapLimits(bytes: number | undefined): { maxOldGenerationSizeMb: number } | undefined {
  return bytes === undefined
    ? undefined
    : { maxOldGenerationSizeMb: Math.max(16, Math.floor(bytes / 2 ** 20)) };
}
