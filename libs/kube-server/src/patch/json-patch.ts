/**
 * JSON patch (RFC 6902) with kube-apiserver's answers: a body that is not a list of
 * operation objects is 400 (decoding), more than 10000 operations is 413, and every
 * operation that does not apply (a failed `test`, a missing path, an unknown op) is the
 * generic 422 Invalid; the failing operation is named in details.causes.
 */
import { ApiError } from '../errors.js';
import { badRequest, genericInvalid } from './status.js';
import { cloneJson, deepEqual, isObject } from './values.js';

const MAX_OPERATIONS = 10000;

type Container = Record<string, unknown> | unknown[];

/** An operation that does not apply to the document (kube: evanphx/json-patch errors). */
class OperationError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

function decodeOperations(patch: unknown): Record<string, unknown>[] {
  if (!Array.isArray(patch)) {
    const got =
      patch === null
        ? 'null'
        : Array.isArray(patch)
          ? 'array'
          : typeof patch === 'object'
            ? 'object'
            : typeof patch;
    throw badRequest(`json: cannot unmarshal ${got} into Go value of type jsonpatch.Patch`);
  }
  patch.forEach((op, i) => {
    if (!isObject(op)) {
      throw badRequest(
        `json: cannot unmarshal ${Array.isArray(op) ? 'array' : typeof op} into Go value of type jsonpatch.Operation (operation ${i})`,
      );
    }
  });
  if (patch.length > MAX_OPERATIONS) {
    throw new ApiError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_OPERATIONS}, got ${patch.length}`,
    );
  }
  return patch as Record<string, unknown>[];
}

/** RFC 6901: "/a/b~1c" → ["a", "b/c"]. */
function parsePointer(pointer: unknown, op: string): string[] {
  if (typeof pointer !== 'string')
    throw new OperationError(`${op} operation failed to decode path`, String(pointer));
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new OperationError(`${op} operation does not apply: invalid path: ${pointer}`, pointer);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(list: unknown[], token: string, forInsert: boolean, pointer: string): number {
  if (forInsert && token === '-') return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token))
    throw new OperationError(`Unable to access invalid index: ${token}: invalid index referenced`, pointer);
  const index = Number(token);
  if (index > list.length || (!forInsert && index === list.length)) {
    throw new OperationError(`Unable to access invalid index: ${index}: invalid index referenced`, pointer);
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
    } else if (isObject(node)) {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = node[token];
    } else return undefined;
  }
  return Array.isArray(node) || isObject(node) ? node : undefined;
}

function getValue(doc: unknown, tokens: string[], pointer: string, op: string): unknown {
  if (!tokens.length) return doc;
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (!parent)
    throw new OperationError(
      `${op} operation does not apply: doc is missing path: ${pointer}: missing value`,
      pointer,
    );
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false, pointer)];
  if (!Object.prototype.hasOwnProperty.call(parent, last)) {
    throw new OperationError(
      `${op} operation does not apply: doc is missing key: ${pointer}: missing value`,
      pointer,
    );
  }
  return parent[last];
}

function removeValue(doc: unknown, tokens: string[], pointer: string): unknown {
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (!parent || !tokens.length)
    throw new OperationError(
      `remove operation does not apply: doc is missing path: ${pointer}: missing value`,
      pointer,
    );
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, last, false, pointer), 1)[0];
  if (!Object.prototype.hasOwnProperty.call(parent, last)) {
    throw new OperationError(`Unable to remove nonexistent key: ${last}: missing value`, pointer);
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
    throw new OperationError(
      `${op} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: missing value`,
      pointer,
    );
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true, pointer), 0, value);
  else parent[last] = value;
  return doc;
}

function requireValue(operation: Record<string, unknown>, op: string, pointer: string): unknown {
  if (!('value' in operation))
    throw new OperationError(`${op} operation does not apply: missing value`, pointer);
  return cloneJson(operation.value);
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
      const from = String(operation.from);
      const fromTokens = parsePointer(operation.from, op);
      if (op === 'move' && tokens.length > fromTokens.length && fromTokens.every((t, i) => tokens[i] === t)) {
        throw new OperationError(
          `move operation does not apply: cannot move ${from} into its own child ${pointer}`,
          pointer,
        );
      }
      const moved =
        op === 'move' ? removeValue(doc, fromTokens, from) : cloneJson(getValue(doc, fromTokens, from, op));
      return addValue(doc, tokens, moved, pointer, op);
    }
    case 'test': {
      const expected = operation.value ?? null;
      let actual: unknown;
      try {
        actual = getValue(doc, tokens, pointer, op);
      } catch (err) {
        if (!(err instanceof OperationError) || expected !== null)
          throw new OperationError(`testing value ${pointer} failed: test failed`, pointer);
        actual = null;
      }
      if (!deepEqual(actual ?? null, expected))
        throw new OperationError(`testing value ${pointer} failed: test failed`, pointer);
      return doc;
    }
    default:
      throw new OperationError(`Unexpected kind: ${op}`, pointer);
  }
}

/** Applies an RFC 6902 patch to a copy of `live`. */
export function applyJsonPatch(live: object, patch: unknown): object {
  const operations = decodeOperations(patch);
  let doc: unknown = cloneJson(live);
  operations.forEach((operation, index) => {
    try {
      doc = applyOperation(doc, operation);
    } catch (err) {
      if (!(err instanceof OperationError)) throw err;
      throw genericInvalid(
        `operation ${index} (${JSON.stringify(operation.op)} ${err.path}): ${err.message}`,
        err.path,
      );
    }
  });
  if (!isObject(doc)) {
    throw genericInvalid(
      `the patched document is ${Array.isArray(doc) ? 'an array' : typeof doc}, not an object`,
    );
  }
  return doc;
}
