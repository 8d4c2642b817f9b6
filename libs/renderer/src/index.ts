/**
 * The renderer: OAM objects in, Kubernetes objects out.
 * parse (YAML → validated objects) → resolve (AppSpec: components with their
 * definitions and traits) → render (templates evaluated, patches applied,
 * KubeVela's assembly rules). No I/O; the same code serves the controller,
 * `oam render` and the REST API's preview.
 */
export {
  RenderError,
  RenderErrors,
  isLimitHit,
  formatError,
  type ErrorLocation,
  type ErrorSource,
} from './errors.js';
export * from './parse/index.js';
export * from './resolve/index.js';
export type {
  ClusterVersion,
  RenderContext,
  TemplateResult,
  CompiledTemplate,
  ParameterSchema,
  PatchKeys,
} from './engines/engine.js';
export { TemplateCompiler, type TemplateEngines } from './engines/compiler.js';
export type { EvalScope } from './engines/engine.js';
export { DEFAULT_EVAL_CPU_LIMIT_MS, DEFAULT_EVAL_MEMORY_LIMIT_BYTES } from './engines/limits.js';
export { formatBytes, formatDuration } from './engines/limit-format.js';
export { WorkerLimitError, isAbort } from './engines/worker-pool.js';
export { LimitMemory, type LimitMemoryOptions } from './render/limit-memory.js';
export { Renderer, type RendererOptions } from './render/renderer.js';
export { RenderCache } from './render/cache.js';
export { clusterVersionOf, DEFAULT_CLUSTER, parseKubeVersion, type ClusterInfo } from './render/context.js';
export type { RenderedApp, RenderedComponent, RenderedObject, RenderOptions } from './render/result.js';
export { RenderFailure } from './render/result.js';
export { renderSources, renderObjects, type DryRunOptions, type DryRunResult } from './pipeline.js';
export { createRenderer, DEFAULT_RENDER_TIMEOUT_MS, type RendererHandle } from './create.js';
export { parameterOpenApiSchema, toOpenApiV3 } from './params/openapi-schema.js';
export { evaluateHealth, type HealthPolicy, type HealthResult, type LiveState } from './health/index.js';
