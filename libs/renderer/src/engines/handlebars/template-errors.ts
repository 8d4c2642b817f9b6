import { loadHandlebars } from './load-handlebars.js';
import { RenderError } from '../../errors.js';
import { BudgetExceeded } from './budget.js';
import { BUILTIN_HELPERS, KNOWN_HELPERS } from './environment.js';
import { HelperError } from './helpers.js';
import { RenderedYamlError } from './rendered-document.js';

interface HandlebarsException {
  message: string;
  lineNumber?: number;
  column?: number;
}

/** Limits a render ran under, for the message that says which one it hit. */
export interface Limits {
  timeoutMs: number;
  maxOutputBytes: number;
}

/**
 * Anything a template's compilation or render threw, as a RenderError naming
 * the definition and, when known, the template line (quoted). Bugs of this
 * engine (errors of no known kind) are rethrown as they are.
 */
export function templateError(
  definition: string,
  template: string,
  err: unknown,
  limits: Limits,
): RenderError {
  if (err instanceof RenderError) return err;
  if (err instanceof BudgetExceeded) {
    const detail =
      err.limit === 'time'
        ? `the template did not finish within ${limits.timeoutMs} ms (nested loops over large lists?)`
        : `the template produced more than ${limits.maxOutputBytes} bytes of output (nested loops over large lists?)`;
    return new RenderError(`${definition}: ${detail}`, {}, 'timeout');
  }
  if (err instanceof RenderedYamlError) return definitionError(definition, err.message);
  if (err instanceof HelperError) {
    return definitionError(definition, located(template, err.loc?.start.line, err.message));
  }
  const syntax = err instanceof Error ? /^(?:Parse|Lexical) error on line (\d+)/.exec(err.message) : null;
  if (syntax)
    return definitionError(definition, located(template, Number(syntax[1]), syntaxError(err as Error)));
  if (err instanceof loadHandlebars().Exception) {
    const e = err as HandlebarsException;
    return definitionError(definition, located(template, e.lineNumber, explain(e, template)));
  }
  if (err instanceof TypeError) return definitionError(definition, `template: ${err.message}`);
  throw err;
}

function definitionError(definition: string, detail: string): RenderError {
  return new RenderError(`${definition}: ${detail}`, {}, 'definition');
}

function located(template: string, line: number | undefined, message: string): string {
  if (!line) return `template: ${message}`;
  const text = template.split('\n')[line - 1]?.trim() ?? '';
  return `template line ${line}: ${message}: ${JSON.stringify(text)}`;
}

function explain(err: HandlebarsException, template: string): string {
  const message = err.message.replace(/ - \d+:\d+$/, '');
  const missing = /^"(.+)" not defined in /.exec(message);
  if (missing) {
    const expression = expressionAt(template, err.lineNumber, err.column) ?? missing[1];
    const where = expression === missing[1] ? '' : ` in {{${expression}}}`;
    return `"${missing[1]}" is not defined${where} (strict mode: test optional values with {{#if ...}} or use {{default ...}})`;
  }
  const unknownHelper = /unknown helper (\S+)/.exec(message);
  if (unknownHelper) {
    const available = [...KNOWN_HELPERS, ...BUILTIN_HELPERS].join(', ');
    return `unknown helper "${unknownHelper[1]}" (available: ${available})`;
  }
  return message.split('\n')[0];
}

/** Handlebars' parser draws an arrow under the line; the first and last lines say what went wrong. */
function syntaxError(err: Error): string {
  const lines = err.message.split('\n');
  const head = lines[0].replace(/ on line \d+[:.]?$/, '').replace(/ on line \d+\. /, ': ');
  return lines.length > 1 ? `${head}: ${lines[lines.length - 1]}` : head;
}

/** The path expression starting at a column of the template, e.g. `parameter.a.b`. */
function expressionAt(
  template: string,
  line: number | undefined,
  column: number | undefined,
): string | undefined {
  if (!line || column === undefined) return undefined;
  const text = template.split('\n')[line - 1] ?? '';
  return /^[^\s}()]+/.exec(text.slice(column))?.[0];
}
