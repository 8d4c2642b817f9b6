import type { z } from 'zod';
import { describeValue, formatPath } from './field-path.js';

/** A zod issue in the project's error style: `spec.components[0].name: expected string, got 5`. */
export function formatZodIssue(issue: z.core.$ZodIssue): { path: string; detail: string } {
  const path = formatPath(issue.path);
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return { path, detail: 'required' };
      return { path, detail: `expected ${typeName(issue.expected)}, got ${describeValue(input)}` };
    case 'invalid_value': {
      const values = issue.values.map((v) => (typeof v === 'string' ? v : String(v)));
      const expected = values.length === 1 ? values[0] : `one of ${values.join(', ')}`;
      return { path, detail: `expected ${expected}, got ${describeValue(input)}` };
    }
    case 'unrecognized_keys':
      return {
        path,
        detail: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`,
      };
    case 'too_small':
      if (issue.origin === 'array') return { path, detail: `must have at least ${issue.minimum} item(s)` };
      if (issue.origin === 'string') return { path, detail: 'must not be empty' };
      return { path, detail: `must be at least ${issue.minimum}` };
    case 'too_big':
      return {
        path,
        detail: `must be at most ${issue.maximum}${issue.origin === 'string' ? ' characters' : ''}`,
      };
    case 'invalid_format':
      return { path, detail: `${issue.message}, got ${describeValue(input)}` };
    default:
      return { path, detail: issue.message };
  }
}

function typeName(expected: string): string {
  return expected === 'int'
    ? 'integer'
    : expected === 'record'
      ? 'map'
      : expected === 'array'
        ? 'list'
        : expected;
}
