import type { RenderError } from '#renderer';
import { colorsFor } from './colors.js';

/** Errors and warnings on stderr, one line each (a message may span lines; they stay together). */
export function reportProblems(
  errors: readonly RenderError[],
  warnings: readonly RenderError[],
  stream = process.stderr,
): void {
  const pc = colorsFor(stream);
  for (const w of warnings) stream.write(`${pc.yellow('warning:')} ${w.message}\n`);
  for (const e of errors) stream.write(`${pc.red('error:')} ${e.message}\n`);
  if (errors.length > 1) stream.write(`${errors.length} errors\n`);
}
