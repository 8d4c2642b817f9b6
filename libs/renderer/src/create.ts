import { createCueEngine, type CueEngine } from './engines/cue/index.js';
import { createHandlebarsEngine } from './engines/handlebars/index.js';
import { TemplateCompiler } from './engines/compiler.js';
import { RenderCache } from './render/cache.js';
import { Renderer } from './render/renderer.js';
import type { ClusterInfo } from './render/context.js';
import type { Clock } from '#kube-core';

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
  /** Stops the CUE worker threads; the process can exit only after this. */
  close(): Promise<void>;
}

/**
 * How long one template evaluation may run before its worker is replaced. It
 * stops runaway templates, not slow ones: a Node worker's CPU time cannot be
 * read, so this is wall time, and on a busy machine an ordinary first
 * evaluation (compiling the template) took over 5 s.
 */
export const DEFAULT_RENDER_TIMEOUT_MS = 30_000;

/** A ready renderer with both engines; `timeoutMs` bounds every template evaluation. */
export function createRenderer(
  options: {
    timeoutMs?: number;
    poolSize?: number;
    cluster?: ClusterInfo;
    /** Template results kept (default 2,000); a controller keeps one per template of every app it holds. */
    cacheEntries?: number;
    /** Template results unused this long are dropped (default: kept until evicted by newer ones). */
    cacheIdleMs?: number;
    /** The render cache's clock (default the wall clock). */
    clock?: Clock;
    /** The process renders for long (a controller, the API server): see `Cue14PoolOptions.longRunning`. */
    longRunning?: boolean;
  } = {},
): RendererHandle {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const cue = createCueEngine({ timeoutMs, poolSize: options.poolSize, longRunning: options.longRunning });
  const compiler = new TemplateCompiler({ cue, handlebars: createHandlebarsEngine({ timeoutMs }) });
  const cache = new RenderCache({
    maxEntries: options.cacheEntries,
    idleMs: options.cacheIdleMs,
    clock: options.clock,
  });
  const renderer = new Renderer({ compiler, cluster: options.cluster, cache });
  const close = async () => {
    cache.close();
    await compiler.close();
  };
  return { renderer, compiler, health: cue, warm: () => cue.warm(), close };
}
