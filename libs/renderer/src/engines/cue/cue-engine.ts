import type { Clock, TypedObject } from '#kube-core';
import { hashOf } from '#kube-core';
import type {
  CompiledTemplate,
  EngineOptions,
  EvalScope,
  ParameterSchema,
  PatchKeys,
  RenderContext,
  TemplateRequest,
  TemplateResult,
} from '../engine.js';
import { RenderError, RenderErrors } from '../../errors.js';
import { addPatchMarker, markEachList } from '../../patch/index.js';
import type { ValidateOptions, ValidationResult } from '../../params/index.js';
import { cueIssues, toRenderErrors } from './cue-errors.js';
import { WorkerLimitError } from '../worker-pool.js';
import { createCue14Pool, type ContextReads, type Cue14Pool, type Cue14Render } from './v14/cue14-pool.js';
import { pruneContext } from './v14/wasm-runtime.mjs';

export interface CueEngineOptions extends EngineOptions {
  /** Worker threads evaluating CUE; default: the number of CPUs, at most 2. */
  poolSize?: number;
  /** Times the evaluation limit (tests pass a FakeClock). */
  clock?: Clock;
  /** The process renders for long: see `Cue14PoolOptions.longRunning`. */
  longRunning?: boolean;
}

export interface CueEngine {
  /**
   * `tenant`: the definition's namespace, whose turn its own evaluations (its parameter
   * schema, what it reads of context) take at the workers; a render takes the app's.
   */
  compile(definition: string, template: string, tenant?: string): CueTemplate;
  /**
   * Evaluates a health request (see `healthRequest`) under the same time limit,
   * in the same pool, and returns the fields it names. The request is one
   * string so that callers can cache by it. Errors are RenderErrors naming `label`.
   */
  evaluateSource(label: string, request: string, scope?: EvalScope): Promise<Record<string, unknown>>;
  /**
   * `context` cut to what a health policy reads (CUE finds it in the policy's syntax
   * tree; a policy that uses `context` whole keeps all of it). A request built from
   * the cut context evaluates the same, and stays the same string while what the
   * policy never reads changes (a Deployment's resourceVersion, timestamps).
   */
  policyContext(source: string, context: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Starts loading CUE now (it otherwise loads at the first evaluation). */
  warm(): void;
  /** The WebAssembly memory of the worker that answers, in bytes (its peak so far): for measuring. */
  memoryBytes(): Promise<number>;
  /** The worker pool's counts: workers, busy, queued, replaced. */
  readonly stats: Cue14Pool['stats'];
  close(): Promise<void>;
}

export type CueTemplate = CompiledTemplate;

/** What `evaluateSource` evaluates: CUE (a health policy) with `parameter` and `context` filled in. */
export interface HealthRequest {
  source: string;
  parameter: Record<string, unknown>;
  context: Record<string, unknown>;
  /** The top-level fields to return (`isHealth`, `message`). */
  fields: string[];
}

/** The one-string form of a health request that `CueEngine.evaluateSource` takes. */
export function healthRequest(request: HealthRequest): string {
  return JSON.stringify(request);
}

/**
 * The CUE engine: KubeVela templates evaluated by CUE v0.14.1 (our own
 * WebAssembly build, ./v14) in worker threads with a hard time limit. The
 * WebAssembly module loads in a worker on the first evaluation, not before.
 */
export function createCueEngine(options: CueEngineOptions): CueEngine {
  const pool = createCue14Pool({
    timeoutMs: options.timeoutMs,
    size: options.poolSize,
    clock: options.clock,
    longRunning: options.longRunning,
    cpuLimitMs: options.cpuLimitMs,
    memoryLimitBytes: options.memoryLimitBytes,
  });
  const readPart = contextReader(pool);
  return {
    compile: (definition, template, tenant) =>
      new CompiledCueTemplate(definition, template, pool, readPart, tenant),
    policyContext: (source, context) => readPart(policyText(source), context),
    evaluateSource: async (label, request, scope) => {
      const { source, parameter, context, fields } = JSON.parse(request) as HealthRequest;
      const text = policyText(source);
      try {
        return await pool.evaluate(text, parameter, context, fields, scope);
      } catch (err) {
        throw failure(toRenderErrors(label, err, text));
      }
    },
    warm: () => pool.warm(),
    memoryBytes: async () => (await pool.run({ op: 'memory' })) as number,
    get stats() {
      return pool.stats;
    },
    close: () => pool.close(),
  };
}

/** Prunes `context` to what a CUE text reads (found by CUE in its syntax tree). */
type ContextReader = <T extends object>(text: string, context: T, scope?: EvalScope) => Promise<T>;

/** What each CUE text reads of `context`, asked of CUE once per text: a template or a policy. */
function contextReader(pool: Cue14Pool): ContextReader {
  const reads = new Map<string, Promise<ContextReads>>();
  return async (text, context, scope) => {
    let found = reads.get(text);
    if (!found) {
      if (reads.size >= 1000) reads.clear();
      // A text that does not compile is reported by its evaluation, and a timeout may pass:
      // this time it gets all of context, and the next request asks again.
      found = pool.reads(text, scope).catch(() => {
        reads.delete(text);
        return null;
      });
      reads.set(text, found);
    }
    const paths = await found;
    return paths ? (pruneContext(context, paths) as typeof context) : context;
  };
}

/** A health policy as compiled: it may read `parameter` without declaring it. */
function policyText(source: string): string {
  return `${source}\nparameter: _\n`;
}

/** Validation results kept per template: the renderer checks unchanged properties on every render. */
const MAX_CHECKED = 200;

/** One template: compiled once per worker, its parameter schema exported once, evaluated many times. */
class CompiledCueTemplate implements CueTemplate {
  private schema?: Promise<ParameterSchema>;
  private readonly checked = new Map<string, Promise<ValidationResult>>();

  constructor(
    readonly definition: string,
    private readonly source: string,
    private readonly pool: Cue14Pool,
    private readonly readPart: ContextReader,
    private readonly tenant?: string,
  ) {}

  /**
   * A JSON Schema of `parameter` (for docs, editors, the catalog and unknown-field
   * warnings), read from CUE's evaluated value. Not what decides validity: `validate` is.
   */
  parameterSchema(): Promise<ParameterSchema> {
    this.schema ??= this.pool.schema(this.source, { tenant: this.tenant }).catch((err: unknown) => {
      // A CPU or memory limit is the template's own (it measures the template, not the
      // machine): kept, never evaluated again. The wall-clock backstop may be the machine's.
      if (!(err instanceof WorkerLimitError)) this.schema = undefined;
      throw failure(toRenderErrors(this.definition, err, this.source));
    });
    return this.schema;
  }

  /**
   * CUE decides: the properties unified with `parameter`, every error with its
   * field path (worded by the schema where it says the same thing more plainly).
   * The schema adds unknown-field warnings; if it cannot be exported, nothing is lost
   * but those.
   */
  validate(
    properties: Record<string, unknown>,
    options: ValidateOptions = {},
    scope: EvalScope = {},
  ): Promise<ValidationResult> {
    const key = hashOf({ properties, strict: Boolean(options.strict) });
    let found = this.checked.get(key);
    if (!found) {
      found = this.check(properties, options, scope);
      found.catch(() => this.checked.delete(key));
      if (this.checked.size >= MAX_CHECKED) this.checked.delete(this.checked.keys().next().value!);
      this.checked.set(key, found);
    }
    return found;
  }

  private async check(
    properties: Record<string, unknown>,
    options: ValidateOptions,
    scope: EvalScope,
  ): Promise<ValidationResult> {
    const vet = await this.pool.vet(this.source, properties, scope).catch((err: unknown) => {
      throw failure(toRenderErrors(this.definition, err, this.source));
    });
    // Valid properties whose every field `parameter` names hold no unknown field: no need to
    // export the schema (a quarter of a one-shot render's CUE work) to look for one.
    const schema =
      vet.valid && vet.declared ? undefined : await this.parameterSchema().catch(() => undefined);
    return { value: properties, issues: cueIssues(vet, schema, properties, options.strict ?? false) };
  }

  readContext(context: RenderContext): Promise<RenderContext> {
    return this.readPart(this.source, context, { tenant: this.tenant });
  }

  async evaluate(request: TemplateRequest): Promise<TemplateResult> {
    let value: Cue14Render;
    try {
      value = await this.pool.render(this.source, request.parameter, request.context, {
        tenant: request.tenant,
        signal: request.signal,
      });
    } catch (err) {
      throw failure(toRenderErrors(this.definition, err, this.source));
    }
    const errs = templateErrs(this.definition, value.errs);
    if (errs.length > 0) throw new RenderErrors(errs);
    return {
      output: this.object(value.output, 'output'),
      outputs: this.objects(value.outputs),
      patch: this.map(value.patch, 'patch'),
      patchKeys: patchKeysOf(value),
    };
  }

  private map(value: unknown, field: string): Record<string, unknown> | undefined {
    if (value === undefined) return undefined;
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
    throw new RenderError(
      `${this.definition}: \`${field}\` must be a struct, got ${describe(value)}`,
      {},
      'definition',
    );
  }

  private object(value: unknown, field: string): TypedObject | undefined {
    const obj = this.map(value, field);
    if (obj && (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string')) {
      throw new RenderError(
        `${this.definition}: \`${field}\` must be a Kubernetes object with apiVersion and kind`,
        { path: field },
        'definition',
      );
    }
    return obj as TypedObject | undefined;
  }

  private objects(value: unknown): Record<string, TypedObject> {
    const map = this.map(value, 'outputs') ?? {};
    return Object.fromEntries(
      Object.entries(map).map(([name, v]) => [name, this.object(v, `outputs.${name}`)!]),
    );
  }
}

/** One error as itself, several as RenderErrors. */
function failure(errors: RenderError[]): RenderError | RenderErrors {
  return errors.length === 1 ? errors[0] : new RenderErrors(errors);
}

/** KubeVela's `+patchKey=`/`+patchStrategy=` markers and the `[...X]` lists of an evaluated patch. */
function patchKeysOf(value: Cue14Render): PatchKeys {
  const keys: PatchKeys = {};
  for (const m of value.patchMarks ?? [])
    addPatchMarker(keys, m.path, m.kind === 'patchKey' ? 'Key' : 'Strategy', m.value);
  for (const path of value.each ?? []) markEachList(keys, path);
  return keys;
}

/**
 * KubeVela's `errs: [...string]`: a template's own verdict on the
 * properties (`"container proxy not found"`). KubeVela fails the render with
 * them, so each one is an error here; they are about the user's input.
 */
function templateErrs(definition: string, errs: unknown): RenderError[] {
  if (errs === undefined || errs === null) return [];
  const list = Array.isArray(errs) ? errs : [errs];
  return list.map(
    (e) => new RenderError(`${definition} reports: ${typeof e === 'string' ? e : JSON.stringify(e)}`),
  );
}

function describe(value: unknown): string {
  return Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;
}
