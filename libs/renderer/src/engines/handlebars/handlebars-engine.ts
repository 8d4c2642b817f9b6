import type {
  CompiledTemplate,
  EngineOptions,
  ParameterSchema,
  TemplateRequest,
  TemplateResult,
} from '../engine.js';
import { hashOf } from '#kube-core';
import { RenderBudget } from './budget.js';
import { COMPILE_OPTIONS, createEnvironment, type TemplateEnvironment } from './environment.js';
import { readRendered } from './rendered-document.js';
import { firstProblem } from './template-check.js';
import { templateError, type Limits } from './template-errors.js';

export interface HandlebarsSchematic {
  template: string;
  parameters?: Record<string, unknown>;
}

export interface HandlebarsEngineOptions extends EngineOptions {
  /** Most text one evaluation may produce, in bytes (default 4 MiB). */
  maxOutputBytes?: number;
  /** Compiled templates kept (default 500); the oldest goes first. */
  maxCached?: number;
}

export interface HandlebarsEngine {
  compile(definition: string, schematic: HandlebarsSchematic): CompiledTemplate;
  close(): Promise<void>;
}

const EMPTY_SCHEMA: ParameterSchema = { type: 'object', properties: {} };
const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;

/**
 * The Handlebars engine: a template renders a YAML map with `output`,
 * `outputs` and `patch`, in an isolated, strict Handlebars with YAML-safe
 * insertion and no prototype access, under a deadline and an output budget.
 * Compiled templates are cached by definition and schematic content.
 */
export function createHandlebarsEngine(options: HandlebarsEngineOptions): HandlebarsEngine {
  // Handlebars loads with the first Handlebars template: a CUE-only render (`oam render`) never pays for it.
  let environment: TemplateEnvironment | undefined;
  const limits: Limits = {
    timeoutMs: options.timeoutMs,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
  };
  const maxCached = options.maxCached ?? 500;
  const cache = new Map<string, HandlebarsTemplate>();
  return {
    compile(definition, schematic) {
      const key = `${definition}:${hashOf(schematic)}`;
      const hit = cache.get(key);
      if (hit) return hit;
      environment ??= createEnvironment();
      const compiled = new HandlebarsTemplate(definition, schematic, environment, limits);
      if (cache.size >= maxCached) cache.delete(cache.keys().next().value!);
      cache.set(key, compiled);
      return compiled;
    },
    close: async () => cache.clear(),
  };
}

class HandlebarsTemplate implements CompiledTemplate {
  private readonly compiled: HandlebarsTemplateDelegate | undefined;
  /** A template that does not compile fails every evaluation with this (located by the caller). */
  private readonly compileError: unknown;

  constructor(
    readonly definition: string,
    private readonly schematic: HandlebarsSchematic,
    private readonly environment: TemplateEnvironment,
    private readonly limits: Limits,
  ) {
    try {
      const hb = environment.handlebars;
      const ast = hb.parse(schematic.template);
      const problem = firstProblem(ast);
      if (problem)
        throw new hb.Exception(problem.message, { loc: { start: problem, end: problem } } as never);
      // Handlebars compiles lazily on first use; precompiling now surfaces unknown helpers once, here.
      hb.precompile(ast, COMPILE_OPTIONS);
      this.compiled = hb.compile(ast, COMPILE_OPTIONS);
    } catch (err) {
      this.compileError = err;
    }
  }

  async parameterSchema(): Promise<ParameterSchema> {
    return this.schematic.parameters ?? EMPTY_SCHEMA;
  }

  async evaluate(request: TemplateRequest): Promise<TemplateResult> {
    try {
      if (!this.compiled) throw this.compileError;
      const budget = new RenderBudget(this.limits.timeoutMs, this.limits.maxOutputBytes);
      const text = this.environment.render(
        this.compiled,
        { parameter: request.parameter, context: request.context },
        budget,
      );
      const result = readRendered(text);
      budget.check();
      return result;
    } catch (err) {
      throw templateError(this.definition, this.schematic.template, err, this.limits);
    }
  }
}
