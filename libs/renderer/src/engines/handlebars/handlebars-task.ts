import type { RenderContext, TemplateResult } from '../engine.js';
import { RenderError, type ErrorLocation, type ErrorSource } from '../../errors.js';
import { RenderBudget } from './budget.js';
import { COMPILE_OPTIONS, createEnvironment, type TemplateEnvironment } from './environment.js';
import { readRendered } from './rendered-document.js';
import { firstProblem } from './template-check.js';
import { templateError, type Limits } from './template-errors.js';

/** What a worker is asked: one evaluation (structured-cloned), or a look at its globals (tests). */
export type HandlebarsTask = HandlebarsRender | { op: 'probe' };

/** Whether anything a template ran escaped into the worker: a global set, Object.prototype changed. */
export interface WorkerProbe {
  pwned: boolean;
  polluted: boolean;
}

export interface HandlebarsRender {
  op: 'render';
  definition: string;
  template: string;
  parameter: Record<string, unknown>;
  context: RenderContext;
  limits: Limits;
}

/** A RenderError as it crosses the thread boundary (classes do not). */
export interface SentRenderError {
  detail: string;
  location: ErrorLocation;
  source: ErrorSource;
}

export function toSent(err: RenderError): SentRenderError {
  return { detail: err.detail, location: err.location, source: err.source };
}

export function fromSent(sent: SentRenderError): RenderError {
  return new RenderError(sent.detail, sent.location, sent.source);
}

/** Compiled templates a worker keeps (the oldest goes first). */
const MAX_COMPILED = 200;

/**
 * The Handlebars side of a worker thread (./handlebars.worker.mjs loads it): an isolated
 * environment, templates compiled once per worker and kept by their text, and one render at
 * a time. A template's errors come back as RenderErrors; anything else is this engine's bug
 * and is thrown.
 */
export function createTaskRunner(): (task: HandlebarsTask) => TemplateResult | WorkerProbe {
  let environment: TemplateEnvironment | undefined;
  const compiled = new Map<string, HandlebarsTemplateDelegate | { error: unknown }>();

  const compile = (env: TemplateEnvironment, template: string) => {
    let found = compiled.get(template);
    if (!found) {
      try {
        const hb = env.handlebars;
        const ast = hb.parse(template);
        const problem = firstProblem(ast);
        if (problem)
          throw new hb.Exception(problem.message, { loc: { start: problem, end: problem } } as never);
        // Handlebars compiles lazily on first use; precompiling now surfaces unknown helpers once, here.
        hb.precompile(ast, COMPILE_OPTIONS);
        found = hb.compile(ast, COMPILE_OPTIONS);
      } catch (error) {
        found = { error };
      }
      if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
      compiled.set(template, found);
    }
    if (typeof found !== 'function') throw found.error;
    return found;
  };

  return (task) => {
    if (task.op === 'probe') {
      return {
        pwned: (globalThis as Record<string, unknown>).__hbsPwned !== undefined,
        polluted: Object.getOwnPropertyNames(Object.prototype).includes('polluted'),
      };
    }
    try {
      environment ??= createEnvironment();
      const delegate = compile(environment, task.template);
      const budget = new RenderBudget(task.limits.timeoutMs, task.limits.maxOutputBytes);
      const text = environment.render(delegate, { parameter: task.parameter, context: task.context }, budget);
      const result = readRendered(text);
      budget.check();
      return result;
    } catch (err) {
      throw templateError(task.definition, task.template, err, task.limits);
    }
  };
}
