import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Clock, TypedObject } from '#kube-core';
import type {
  CompiledTemplate,
  EngineOptions,
  ParameterSchema,
  PatchKeys,
  TemplateRequest,
  TemplateResult,
} from '../engine.js';
import { RenderError, RenderErrors } from '../../errors.js';
import { WorkerPool, WorkerTaskError } from '../worker-pool.js';
import { cleanCueMessage, toRenderError } from './cue-errors.js';
import { parameterSchemaFromOpenApi } from './parameter-schema.js';
import { extractPatchKeys } from './patch-keys.js';
import {
  declarationLine,
  errorPath,
  firstMessage,
  sourcePosition,
  syntaxErrorLine,
} from './template-lines.js';
import { TemplateSource } from './template-source.js';

export interface CueTask {
  op: 'json' | 'openapi';
  source: string;
}

export interface CueEngineOptions extends EngineOptions {
  /** Worker threads evaluating CUE; default: the number of CPUs, at most 2. */
  poolSize?: number;
  /** Times the evaluation limit (tests pass a FakeClock). */
  clock?: Clock;
}

export interface CueEngine {
  compile(definition: string, template: string): CueTemplate;
  /**
   * Evaluates a whole CUE source (under the same time limit, in the same
   * pool) and returns its JSON export. For CUE that is not a component or
   * trait template, e.g. health policies. Errors are RenderErrors naming `definition`.
   */
  evaluateSource(definition: string, source: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface CueTemplate extends CompiledTemplate {
  /** The `// +patchKey=` / `// +patchStrategy=` markers of the template's `patch`. */
  readonly patchKeys: PatchKeys;
}

const WORKER_FILE = new URL('./cue.worker.mjs', import.meta.url);

/** The CUE engine: KubeVela templates evaluated by cue-wasm in worker threads with a hard time limit. */
export function createCueEngine(options: CueEngineOptions): CueEngine {
  const size = options.poolSize ?? Math.max(1, Math.min(2, availableParallelism()));
  const pool = new WorkerPool<CueTask, string>({
    size,
    createWorker: () => new Worker(WORKER_FILE),
    clock: options.clock,
  });
  /** The first error compiling `source`, if any: what syntaxErrorLine bisects with. */
  const firstError = async (source: string): Promise<string | undefined> => {
    try {
      await pool.run({ op: 'json', source }, options.timeoutMs);
      return undefined;
    } catch (err) {
      return err instanceof WorkerTaskError ? firstMessage(err.message) : undefined;
    }
  };
  const run: Runner = async (definition, task, template) => {
    try {
      return await pool.run(task, options.timeoutMs);
    } catch (err) {
      const line = template && (await failureLine(err, template, firstError));
      throw toRenderError(definition, err, task.source, line);
    }
  };
  return {
    compile: (definition, template) => new CompiledCueTemplate(definition, new TemplateSource(template), run),
    evaluateSource: async (definition, source) => JSON.parse(await run(definition, { op: 'json', source })),
    close: () => pool.close(),
  };
}

/** Runs a task in the pool; with the template given, a definition error names its template line. */
type Runner = (definition: string, task: CueTask, template?: TemplateSource) => Promise<string>;

/** The template line of a failed evaluation: the field its message names, else the syntax error's line. */
async function failureLine(
  err: unknown,
  template: TemplateSource,
  firstError: (source: string) => Promise<string | undefined>,
): Promise<number | undefined> {
  if (!(err instanceof WorkerTaskError)) return undefined;
  const position = sourcePosition(err.message, template.text);
  if (position) return position;
  const path = errorPath(cleanCueMessage(err.message));
  if (path) return declarationLine(path, template.declarations);
  return syntaxErrorLine(template.text, firstError);
}

/** One template: its source scanned once, its parameter schema exported once, evaluated many times. */
class CompiledCueTemplate implements CueTemplate {
  private schema?: Promise<ParameterSchema>;
  private keys?: PatchKeys;

  constructor(
    readonly definition: string,
    private readonly source: TemplateSource,
    private readonly run: Runner,
  ) {}

  get patchKeys(): PatchKeys {
    this.keys ??= extractPatchKeys(this.source.declarations, this.source.text);
    return this.keys;
  }

  parameterSchema(): Promise<ParameterSchema> {
    this.schema ??= this.exportSchema().catch((err: unknown) => {
      this.schema = undefined; // a timeout may be transient: let the next caller try again
      throw err;
    });
    return this.schema;
  }

  async evaluate(request: TemplateRequest): Promise<TemplateResult> {
    const source = this.source.forEvaluation(request.parameter, request.context, EXPORTED);
    const json = await this.run(this.definition, { op: 'json', source }, this.source);
    const value = JSON.parse(json) as Record<string, unknown>;
    const errs = templateErrs(this.definition, value.errs);
    if (errs.length > 0) throw new RenderErrors(errs);
    return {
      output: this.object(value.output, 'output'),
      outputs: this.objects(value.outputs),
      patch: this.map(value.patch, 'patch'),
      patchKeys: this.patchKeys,
    };
  }

  private async exportSchema(): Promise<ParameterSchema> {
    const openapi = await this.run(
      this.definition,
      { op: 'openapi', source: this.source.forSchema() },
      this.source,
    );
    return parameterSchemaFromOpenApi(openapi, this.source.declarations, this.source.openStructs);
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

/** What an evaluation exports: the results KubeVela reads, `parameter` (to check it first) and `errs`. */
const EXPORTED = ['output', 'outputs', 'patch', 'parameter', 'errs'];

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
