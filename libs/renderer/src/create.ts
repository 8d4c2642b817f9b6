import { createCueEngine, type CueEngine } from './engines/cue/index.js';
import { createHandlebarsEngine } from './engines/handlebars/index.js';
import { TemplateCompiler } from './engines/compiler.js';
import { RenderCache } from './render/cache.js';
import { Renderer } from './render/renderer.js';
import type { ClusterInfo } from './render/context.js';
import type { Clock } from '#kube-core';
import { DEFAULT_EVAL_CPU_LIMIT_MS, DEFAULT_EVAL_MEMORY_LIMIT_BYTES } from './engines/limits.js';
import { LimitMemory } from './render/limit-memory.js';
import { warmParameterValidation } from './params/compile-schema.js';

export interface RendererHandle {
  renderer: Renderer;
  compiler: TemplateCompiler;
  /** Evaluates health policies and custom status (`evaluateHealth`) on the same CUE workers. */
  health: Pick<CueEngine, 'evaluateSource' | 'policyContext'>;
  /**
   * Starts loading CUE in a worker now, so that it overlaps what the caller does
   * before the first render (reading files, loading definitions); otherwise it loads
   * at the first CUE evaluation.
   */
  warm(): void;
  /** Each engine's worker pool: workers, busy, queued, replaced (a runaway shows as busy). */
  readonly stats: { cue: CueEngine['stats']; handlebars: CueEngine['stats'] };
  /** Stops the CUE worker threads; the process can exit only after this. */
  close(): Promise<void>;
}

/**
 * How long one template evaluation may run, in wall time, before its worker is replaced: a
 * backstop behind the CPU-time limit (which a slow, busy machine does not trip), so generous:
 * on a busy machine an ordinary first evaluation (compiling the template) took over 5 s.
 */
export const DEFAULT_RENDER_TIMEOUT_MS = 30_000;

/** A ready renderer with both engines; every template evaluation runs under the limits given. */
export function createRenderer(
  options: {
    timeoutMs?: number;
    /** Most CPU time one evaluation may use (default DEFAULT_EVAL_CPU_LIMIT_MS). */
    cpuLimitMs?: number;
    /** Most memory one evaluation may use (default DEFAULT_EVAL_MEMORY_LIMIT_BYTES). */
    memoryLimitBytes?: number;
    poolSize?: number;
    cluster?: ClusterInfo;
    /** Template results kept (default 2,000); a controller keeps one per template of every app it holds. */
    cacheEntries?: number;
    /** Template results unused this long are dropped (default: kept until evicted by newer ones). */
    cacheIdleMs?: number;
    /** The clock of the render cache and of remembered limit failures (default the wall clock). */
    clock?: Clock;
    /** The process renders for long (a controller, the API server): see `Cue14PoolOptions.longRunning`. */
    longRunning?: boolean;
  } = {},
): RendererHandle {
  const limits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
    cpuLimitMs: options.cpuLimitMs ?? DEFAULT_EVAL_CPU_LIMIT_MS,
    memoryLimitBytes: options.memoryLimitBytes ?? DEFAULT_EVAL_MEMORY_LIMIT_BYTES,
  };
  const cue = createCueEngine({ ...limits, poolSize: options.poolSize, longRunning: options.longRunning });
  // A process that serves probes and holds a Lease pays the JSON Schema engine's first compile now.
  if (options.longRunning) warmParameterValidation();
  const handlebars = createHandlebarsEngine({ ...limits, poolSize: options.poolSize });
  const compiler = new TemplateCompiler({ cue, handlebars });
  const cache = new RenderCache({
    maxEntries: options.cacheEntries,
    idleMs: options.cacheIdleMs,
    clock: options.clock,
  });
  const limitMemory = new LimitMemory({ clock: options.clock });
  const renderer = new Renderer({ compiler, cluster: options.cluster, cache, limitMemory });
  const close = async () => {
    cache.close();
    await compiler.close();
  };
  return {
    renderer,
    compiler,
    health: cue,
    warm: () => cue.warm(),
    get stats() {
      return { cue: cue.stats, handlebars: handlebars.stats };
    },
    close,
  };
}
