import type { ErrorSchema } from '@rjsf/utils';
import type { FieldError } from '../api/client';

/** `spec.components[0].properties.env[1].name` → the key path below `prefix`, or undefined when outside it. */
function keysBelow(path: string, prefix: string): string[] | undefined {
  if (path !== prefix && !path.startsWith(`${prefix}.`) && !path.startsWith(`${prefix}[`)) return undefined;
  return path
    .slice(prefix.length)
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
}

/**
 * The API's 422 field errors under `prefix` as react-jsonschema-form's
 * ErrorSchema, so each shows at its field in the form rendered for that part.
 */
export function errorSchemaAt(errors: FieldError[], prefix: string): ErrorSchema | undefined {
  const out: Record<string, unknown> = {};
  let found = false;
  for (const e of errors) {
    const keys = keysBelow(e.path, prefix);
    if (!keys) continue;
    let node = out as Record<string, unknown> & { __errors?: string[] };
    for (const k of keys) node = (node[k] ??= {}) as typeof node;
    (node.__errors ??= []).push(e.message);
    found = true;
  }
  return found ? (out as ErrorSchema) : undefined;
}

/** The messages of the errors at exactly `path` (a plain input such as the application's name). */
export function messagesAt(errors: FieldError[], path: string): string[] {
  return errors.filter((e) => e.path === path).map((e) => e.message);
}
