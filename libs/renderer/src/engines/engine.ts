import { type TypedObject } from '#kube-core';
import type { ValidateOptions, ValidationResult } from '../params/types.js';

/**
 * KubeVela's `context` for a template. Every key is always present (possibly
 * empty) so templates that read them behave as under KubeVela; a key that is
 * not listed here is not provided, and reading it is a definition error naming
 * the key.
 */
export interface RenderContext {
  name: string;
  appName: string;
  namespace: string;
  appRevision: string;
  appRevisionNum: number;
  appLabels: Record<string, string>;
  appAnnotations: Record<string, string>;
  appComponents: string[];
  /** KubeVela: the components of the application with their type and properties. */
  components: { name: string; type: string; properties: Record<string, unknown> }[];
  componentType: string;
  revision: string;
  cluster: string;
  /** KubeVela's shape: numbers, so templates can compare `context.clusterVersion.minor < 19`. */
  clusterVersion: ClusterVersion;
  publishVersion: string;
  workflowName: string;
  /** Traits only: the workload as rendered (after earlier traits' patches). */
  output?: TypedObject;
  /** Traits only: the component's other outputs. */
  outputs?: Record<string, TypedObject>;
}

/** The Kubernetes version a template renders for, as KubeVela passes it. */
export interface ClusterVersion {
  major: number;
  minor: number;
  gitVersion: string;
  platform: string;
}

export const CONTEXT_KEYS: readonly string[] = [
  'name',
  'appName',
  'namespace',
  'appRevision',
  'appRevisionNum',
  'appLabels',
  'appAnnotations',
  'appComponents',
  'components',
  'componentType',
  'revision',
  'cluster',
  'clusterVersion',
  'publishVersion',
  'workflowName',
  'output',
  'outputs',
];

/**
 * Where a patch merges list items by a key instead of replacing the list.
 * Keys are paths into the patch object: map keys joined by ".", with "[]" for
 * "every item of this list", e.g. `spec.template.spec.containers` → "name",
 * `spec.template.spec.containers[].env` → "name".
 */
export type PatchKeys = Record<string, string>;

/** What one evaluation of a definition's template yields. */
export interface TemplateResult {
  output?: TypedObject;
  /** Named extra objects, in the template's own order. */
  outputs: Record<string, TypedObject>;
  /** Traits only: a partial object merged into the workload. */
  patch?: Record<string, unknown>;
  patchKeys: PatchKeys;
}

/** Whose evaluation it is and when to stop it; both optional, both passed down to the worker pool. */
export interface EvalScope {
  /** The Application's namespace: namespaces take turns at the workers. */
  tenant?: string;
  /** Aborting drops a queued evaluation or stops a running one (its worker is replaced). */
  signal?: AbortSignal;
}

export interface TemplateRequest extends EvalScope {
  /** The parameter values after validation and defaulting. */
  parameter: Record<string, unknown>;
  context: RenderContext;
}

/** A JSON Schema (draft 2020-12 subset) describing a definition's parameters. */
export type ParameterSchema = Record<string, unknown>;

/** A definition's template, compiled once and evaluated many times. */
export interface CompiledTemplate {
  /** `ComponentDefinition/webservice`-style label for error messages. */
  readonly definition: string;
  /** The parameter schema (exported from CUE's value, or the Handlebars JSON Schema). */
  parameterSchema(): Promise<ParameterSchema>;
  /**
   * Checks properties by the engine's own rules (CUE: unification with `parameter`).
   * Without it, the renderer validates against `parameterSchema()`.
   */
  validate?(
    properties: Record<string, unknown>,
    options?: ValidateOptions,
    scope?: EvalScope,
  ): Promise<ValidationResult>;
  evaluate(request: TemplateRequest): Promise<TemplateResult>;
  /**
   * The part of `context` the template reads: its result depends on nothing else, so this is
   * what it is evaluated with and what its results are cached by (a trait that reads no
   * context renders once for every application with the same properties). Without it, all.
   */
  readContext?(context: RenderContext): Promise<RenderContext>;
}

export interface EngineOptions {
  /** Wall-clock backstop for one evaluation, in milliseconds. */
  timeoutMs: number;
  /** Most CPU time one evaluation may use, in milliseconds (default: none). */
  cpuLimitMs?: number;
  /** Most memory one evaluation may use, in bytes (CUE: WebAssembly memory; Handlebars: heap). */
  memoryLimitBytes?: number;
}
