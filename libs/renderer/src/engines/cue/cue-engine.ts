import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { KubeObject } from '#api';
import type {
  CompiledTemplate,
  EngineOptions,
  ParameterSchema,
  PatchKeys,
  TemplateRequest,
  TemplateResult,
} from '../engine.js';
import { RenderError } from '../../errors.js';
import { WorkerPool } from '../worker-pool.js';
import { toRenderError } from './cue-errors.js';
import { parameterSchemaFromOpenApi } from './parameter-schema.js';
import { extractPatchKeys } from './patch-keys.js';
import { TemplateSource } from './template-source.js';

export interface CueTask {
  op: 'json' | 'openapi';
  source: string;
}

export interface CueEngineOptions extends EngineOptions {
  /** Worker threads evaluating CUE; default: the number of CPUs, at most 2. */
  poolSize?: number;
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
  const pool = new WorkerPool<CueTask, string>({ size, createWorker: () => new Worker(WORKER_FILE) });
  const run = async (definition: string, task: CueTask): Promise<string> => {
    try {
      return await pool.run(task, options.timeoutMs);
    } catch (err) {
      throw toRenderError(definition, err, task.source);
    }
  };
  return {
    compile: (definition, template) => new CompiledCueTemplate(definition, new TemplateSource(template), run),
    evaluateSource: async (definition, source) => JSON.parse(await run(definition, { op: 'json', source })),
    close: () => pool.close(),
  };
}

type Runner = (definition: string, task: CueTask) => Promise<string>;

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
    this.keys ??= extractPatchKeys(this.source.declarations);
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
    const source = this.source.forEvaluation(request.parameter, request.context);
    const json = await this.run(this.definition, { op: 'json', source });
    const value = JSON.parse(json) as Record<string, unknown>;
    return {
      output: this.object(value.output, 'output'),
      outputs: this.objects(value.outputs),
      patch: this.map(value.patch, 'patch'),
      patchKeys: this.patchKeys,
    };
  }

  private async exportSchema(): Promise<ParameterSchema> {
    const openapi = await this.run(this.definition, { op: 'openapi', source: this.source.forSchema() });
    return parameterSchemaFromOpenApi(openapi, this.source.declarations);
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

  private object(value: unknown, field: string): KubeObject | undefined {
    const obj = this.map(value, field);
    if (obj && (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string')) {
      throw new RenderError(
        `${this.definition}: \`${field}\` must be a Kubernetes object with apiVersion and kind`,
        { path: field },
        'definition',
      );
    }
    return obj as KubeObject | undefined;
  }

  private objects(value: unknown): Record<string, KubeObject> {
    const map = this.map(value, 'outputs') ?? {};
    return Object.fromEntries(
      Object.entries(map).map(([name, v]) => [name, this.object(v, `outputs.${name}`)!]),
    );
  }
}

function describe(value: unknown): string {
  return Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;
}
