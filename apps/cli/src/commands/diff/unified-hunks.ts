import { formatPatch, structuredPatch } from 'diff';

/**
 * `diff -u` hunks between two texts (`@@ -l,s +l,s @@` then ' ', '-', '+'
 * lines) with `context` unchanged lines around each change; empty when the
 * lines are equal. jsdiff computes them; a missing final newline is not a
 * change here (the sides are YAML documents), so no "\ No newline" lines.
 */
export function unifiedHunks(before: string, after: string, context = 3): string[] {
  const patch = structuredPatch('before', 'after', withNewline(before), withNewline(after), '', '', {
    context,
  });
  const text = formatPatch(patch);
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.startsWith('@@'));
  if (first < 0) return [];
  return lines.slice(first, lines.at(-1) === '' ? -1 : undefined);
}

const withNewline = (text: string): string => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
