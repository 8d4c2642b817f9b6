/**
 * RFC 6902 JSON patch with Kubernetes' semantics and wording (evanphx/json-patch,
 * which both kube-apiserver and KubeVela's `+patchStrategy=jsonPatch` use): a `test`
 * of a missing path against `null` passes, a `test` without `value` compares with
 * `null`, list indices are decimal without leading zeros, `-` appends. Operations run
 * in order on a copy; the first that does not apply throws a JsonPatchError.
 *
 * fast-json-patch was considered and not used: it fails a `null` test of a missing
 * path, throws a TypeError for a move into the value's own child, and its errors do
 * not tell a missing key from a missing parent, which kube-apiserver's messages do.
 */
import { deepEqual, isJsonObject } from '../json/values.js';
import { deepCopy } from '../object/copy.js';

type Container = Record<string, unknown> | unknown[];

/** Why an operation did not apply, for callers that word errors their own way. */
export type JsonPatchErrorCode =
  | 'invalid-operation'
  | 'invalid-path'
  | 'missing-from'
  | 'path-not-found'
  | 'invalid-index'
  | 'missing-value'
  | 'move-into-child'
  | 'test-failed'
  | 'unknown-op';

/** An operation that does not apply; `message` is kube-apiserver's (evanphx/json-patch) wording. */
export class JsonPatchError extends Error {
  constructor(
    message: string,
    readonly code: JsonPatchErrorCode,
    /** JSON pointer of the operation's target. */
    readonly path: string,
    /** Which operation (0-based), and its `op`. */
    readonly index = 0,
    readonly op = '',
  ) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

/** Applies RFC 6902 operations to a copy of `doc` and returns the result (which may be a new root). */
export function applyJsonPatch(doc: unknown, operations: readonly unknown[]): unknown {
  let result = deepCopy(doc);
  operations.forEach((operation, index) => {
    const op = isJsonObject(operation) ? String(operation.op) : '';
    try {
      if (!isJsonObject(operation))
        throw new JsonPatchError(`operation ${index} is not an object`, 'invalid-operation', '');
      result = applyOperation(result, operation);
    } catch (err) {
      if (!(err instanceof JsonPatchError)) throw err;
      throw new JsonPatchError(err.message, err.code, err.path, index, op);
    }
  });
  return result;
}

/** RFC 6901: "/a/b~1c" → ["a", "b/c"]. */
function parsePointer(pointer: unknown, op: string): string[] {
  if (typeof pointer !== 'string')
    throw new JsonPatchError(`${op} operation failed to decode path`, 'invalid-path', String(pointer));
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new JsonPatchError(
      `${op} operation does not apply: invalid path: ${pointer}`,
      'invalid-path',
      pointer,
    );
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(list: unknown[], token: string, forInsert: boolean, pointer: string): number {
  if (forInsert && token === '-') return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token))
    throw new JsonPatchError(
      `Unable to access invalid index: ${token}: invalid index referenced`,
      'invalid-index',
      pointer,
    );
  const index = Number(token);
  if (index > list.length || (!forInsert && index === list.length)) {
    throw new JsonPatchError(
      `Unable to access invalid index: ${index}: invalid index referenced`,
      'invalid-index',
      pointer,
    );
  }
  return index;
}

/** The container holding the last token of `tokens`, or undefined when an intermediate is missing. */
function parentOf(doc: unknown, tokens: string[]): Container | undefined {
  let node: unknown = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length) return undefined;
      node = node[Number(token)];
    } else if (isJsonObject(node)) {
      if (!Object.hasOwn(node, token)) return undefined;
      node = node[token];
    } else return undefined;
  }
  return Array.isArray(node) || isJsonObject(node) ? node : undefined;
}

function getValue(doc: unknown, tokens: string[], pointer: string, op: string): unknown {
  if (!tokens.length) return doc;
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (!parent)
    throw new JsonPatchError(
      `${op} operation does not apply: doc is missing path: ${pointer}: missing value`,
      'path-not-found',
      pointer,
    );
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false, pointer)];
  if (!Object.hasOwn(parent, last)) {
    throw new JsonPatchError(
      `${op} operation does not apply: doc is missing key: ${pointer}: missing value`,
      'path-not-found',
      pointer,
    );
  }
  return parent[last];
}

function removeValue(doc: unknown, tokens: string[], pointer: string): unknown {
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (!parent || !tokens.length)
    throw new JsonPatchError(
      `remove operation does not apply: doc is missing path: ${pointer}: missing value`,
      'path-not-found',
      pointer,
    );
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, last, false, pointer), 1)[0];
  if (!Object.hasOwn(parent, last)) {
    throw new JsonPatchError(
      `Unable to remove nonexistent key: ${last}: missing value`,
      'path-not-found',
      pointer,
    );
  }
  const old = parent[last];
  delete parent[last];
  return old;
}

/** Returns the new document (a new root when the pointer is the whole document). */
function addValue(doc: unknown, tokens: string[], value: unknown, pointer: string, op: string): unknown {
  if (!tokens.length) return value;
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (!parent)
    throw new JsonPatchError(
      `${op} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: missing value`,
      'path-not-found',
      pointer,
    );
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true, pointer), 0, value);
  else parent[last] = value;
  return doc;
}

function requireValue(operation: Record<string, unknown>, op: string, pointer: string): unknown {
  if (!('value' in operation))
    throw new JsonPatchError(`${op} operation does not apply: missing value`, 'missing-value', pointer);
  return deepCopy(operation.value);
}

function applyOperation(doc: unknown, operation: Record<string, unknown>): unknown {
  const op = String(operation.op);
  const pointer = String(operation.path);
  const tokens = parsePointer(operation.path, op);
  switch (op) {
    case 'add':
      return addValue(doc, tokens, requireValue(operation, op, pointer), pointer, op);
    case 'remove':
      removeValue(doc, tokens, pointer);
      return doc;
    case 'replace': {
      const value = requireValue(operation, op, pointer);
      if (!tokens.length) return value;
      getValue(doc, tokens, pointer, op);
      const parent = parentOf(doc, tokens) as Container;
      const last = tokens[tokens.length - 1];
      if (Array.isArray(parent)) parent[Number(last)] = value;
      else parent[last] = value;
      return doc;
    }
    case 'move':
    case 'copy': {
      if (typeof operation.from !== 'string')
        throw new JsonPatchError(
          `${op} operation failed to decode path`,
          'missing-from',
          String(operation.from),
        );
      const from = String(operation.from);
      const fromTokens = parsePointer(operation.from, op);
      if (op === 'move' && tokens.length > fromTokens.length && fromTokens.every((t, i) => tokens[i] === t)) {
        throw new JsonPatchError(
          `move operation does not apply: cannot move ${from} into its own child ${pointer}`,
          'move-into-child',
          pointer,
        );
      }
      const moved =
        op === 'move' ? removeValue(doc, fromTokens, from) : deepCopy(getValue(doc, fromTokens, from, op));
      return addValue(doc, tokens, moved, pointer, op);
    }
    case 'test': {
      const expected = operation.value ?? null;
      let actual: unknown;
      try {
        actual = getValue(doc, tokens, pointer, op);
      } catch (err) {
        if (!(err instanceof JsonPatchError) || expected !== null)
          throw new JsonPatchError(`testing value ${pointer} failed: test failed`, 'test-failed', pointer);
        actual = null;
      }
      if (!deepEqual(actual ?? null, expected))
        throw new JsonPatchError(`testing value ${pointer} failed: test failed`, 'test-failed', pointer);
      return doc;
    }
    default:
      throw new JsonPatchError(`Unexpected kind: ${op}`, 'unknown-op', pointer);
  }
}
