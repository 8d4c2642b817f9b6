import { createCueEngine, type CueEngine } from './engines/cue/index.js';
import { createHandlebarsEngine } from './engines/handlebars/index.js';
import { TemplateCompiler } from './engines/compiler.js';
import { Renderer } from './render/renderer.js';
import type { ClusterInfo } from './render/context.js';

export interface RendererHandle {
  renderer: Renderer;
  compiler: TemplateCompiler;
  /** Evaluates health policies and custom status (`evaluateHealth`) on the same CUE workers. */
  health: Pick<CueEngine, 'evaluateSource'>;
  /**
   * Starts loading CUE in a worker now, so that it overlaps what the caller does
   * before the first render (reading files, loading definitions); otherwise it loads
   * at the first CUE evaluation.
   */
  warm(): void;
  /** Stops the CUE worker threads; the process can exit only after this. */
  close(): Promise<void>;
}

/** A ready renderer with both engines; `timeoutMs` bounds every template evaluation. */
export function createRenderer(
  options: { timeoutMs?: number; poolSize?: number; cluster?: ClusterInfo } = {},
): RendererHandle {
  const timeoutMs = options.timeoutMs ?? 5000;
  const cue = createCueEngine({ timeoutMs, poolSize: options.poolSize });
  const compiler = new TemplateCompiler({ cue, handlebars: createHandlebarsEngine({ timeoutMs }) });
  const renderer = new Renderer({ compiler, cluster: options.cluster });
  return { renderer, compiler, health: cue, warm: () => cue.warm(), close: () => compiler.close() };
}
