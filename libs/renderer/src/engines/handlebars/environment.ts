import type Handlebars from 'handlebars';
import { loadHandlebars } from './load-handlebars.js';
import { RenderBudget } from './budget.js';
import { templateHelpers, type HelperOptions } from './helpers.js';
import { yamlFlow } from './yaml-values.js';

/** The name generated code calls for every `{{value}}`; templates cannot call it (not a known helper). */
const INSERT = '__yamlInsert';

type BlockFn = ((context: unknown, options?: unknown) => string) & Record<string, unknown>;
type BlockOptions = HelperOptions & { fn?: BlockFn; inverse?: BlockFn };
type AnyHelper = (this: unknown, ...args: unknown[]) => unknown;

/** The part of Handlebars' code generator this environment extends (documented, but untyped). */
interface CodeGenerator {
  options: { strict?: boolean };
  source: { currentLocation?: { start: { line: number; column: number } } };
  popStack(): unknown;
  push(expr: unknown): void;
  pushSource(source: unknown): void;
  appendToBuffer(parts: unknown[]): unknown;
  aliasable(name: string): string;
  quotedString(text: string): string;
  internalNameLookup(parent: unknown, name: string): unknown[];
}
type CodeGeneratorClass = new (...args: unknown[]) => CodeGenerator;

/** Compile options every template gets: see docs/handlebars-definitions.md for the rules they make. */
export const KNOWN_HELPERS = [
  'json',
  'yaml',
  'concat',
  'default',
  'eq',
  'ne',
  'and',
  'or',
  'not',
  'gt',
  'lt',
] as const;
export const BUILTIN_HELPERS = ['if', 'unless', 'each', 'with', 'lookup'] as const;

export const COMPILE_OPTIONS = {
  strict: true,
  knownHelpers: {
    ...Object.fromEntries([...KNOWN_HELPERS, ...BUILTIN_HELPERS].map((h) => [h, true])),
    log: false,
  },
  knownHelpersOnly: true,
};

const RUNTIME_OPTIONS = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
  allowCallsToHelperMissing: false,
};

export interface TemplateEnvironment {
  handlebars: typeof Handlebars;
  /** Runs a compiled template under `budget`; only one render runs at a time (rendering is synchronous). */
  render(template: HandlebarsTemplateDelegate, data: object, budget: RenderBudget): string;
}

/**
 * An isolated Handlebars (`Handlebars.create()`), changed in three ways:
 * every `{{value}}` goes through a YAML-safe insertion instead of HTML
 * escaping; in strict mode every segment of a printed path must exist, while
 * a path given to a helper (`{{#if parameter.x.y}}`) is undefined as soon as
 * a segment is missing; and block helpers report to the render's budget.
 */
export function createEnvironment(): TemplateEnvironment {
  const hb = loadHandlebars().create();
  let active: RenderBudget | undefined;
  const budget = (): RenderBudget => {
    if (!active) throw new Error('a Handlebars template ran outside TemplateEnvironment.render');
    return active;
  };

  const Base = (hb as unknown as { JavaScriptCompiler: CodeGeneratorClass }).JavaScriptCompiler;
  class YamlCodeGenerator extends Base {
    appendEscaped(): void {
      // `helpers` is a parameter of every generated program; the trailing `{}` is the options
      // argument Handlebars' helper wrapper expects (it would otherwise treat the value as options).
      this.pushSource(this.appendToBuffer([`helpers.${INSERT}(`, this.popStack(), ', {})']));
    }

    resolvePath(_type: string, parts: string[], start: number, _falsy: boolean, strict: boolean): void {
      let expr = this.popStack();
      const loc = this.source.currentLocation;
      const locLiteral = loc
        ? JSON.stringify({ start: { line: Number(loc.start.line), column: Number(loc.start.column) } })
        : 'undefined';
      for (let i = start; i < parts.length; i++) {
        expr =
          strict && this.options.strict
            ? [
                this.aliasable('container.strict'),
                '(',
                expr,
                ', ',
                this.quotedString(parts[i]),
                ', ',
                locLiteral,
                ')',
              ]
            : [
                '(function(p){return p == null ? undefined : ',
                this.internalNameLookup('p', parts[i]),
                ';})(',
                expr,
                ')',
              ];
      }
      this.push(expr);
    }
  }
  (YamlCodeGenerator.prototype as unknown as { compiler: unknown }).compiler = YamlCodeGenerator;
  (hb as unknown as { JavaScriptCompiler: unknown }).JavaScriptCompiler = YamlCodeGenerator;

  hb.unregisterHelper('log');
  hb.registerHelper(INSERT, (value: unknown) => {
    const b = budget();
    b.check();
    const text = value instanceof hb.SafeString ? value.toString() : yamlFlow(value);
    b.count(text.length);
    return text;
  });
  const helpers = templateHelpers(budget, (text) => new hb.SafeString(text));
  for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn);
  for (const name of ['if', 'unless', 'each', 'with', 'blockHelperMissing']) {
    hb.registerHelper(name, guardedBlock(hb.helpers[name] as AnyHelper, budget));
  }

  return {
    handlebars: hb,
    render(template, data, renderBudget) {
      if (active) throw new Error('Handlebars renders cannot nest');
      active = renderBudget;
      try {
        return template(data, RUNTIME_OPTIONS);
      } finally {
        active = undefined;
      }
    },
  };
}

/** A built-in block helper whose bodies check the deadline and count their output. */
function guardedBlock(original: AnyHelper, budget: () => RenderBudget): AnyHelper {
  const guard = (fn: BlockFn | undefined): BlockFn | undefined => {
    if (typeof fn !== 'function') return fn;
    const guarded = function (this: unknown, context: unknown, options?: unknown): string {
      const b = budget();
      const mark = b.startBody();
      const out = fn.call(this, context, options);
      b.endBody(mark, out.length);
      return out;
    };
    return Object.assign(guarded, fn);
  };
  return function (this: unknown, ...args: unknown[]) {
    const options = args[args.length - 1] as BlockOptions;
    const guardedOptions = { ...options, fn: guard(options.fn), inverse: guard(options.inverse) };
    return original.apply(this, [...args.slice(0, -1), guardedOptions]);
  };
}
