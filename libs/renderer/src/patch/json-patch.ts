type Json = unknown;
type JsonMap = Record<string, Json>;

/** A JSON patch that cannot be applied: `detail` says which operation and why. */
export class JsonPatchError extends Error {
  constructor(
    readonly detail: string,
    /** JSON pointer of the operation's target. */
    readonly pointer: string,
  ) {
    super(detail);
    this.name = 'JsonPatchError';
  }
}

/**
 * RFC 7396 JSON merge patch, as KubeVela's `// +patchStrategy=jsonMergePatch`
 * applies it (evanphx/json-patch MergePatch): maps merge recursively, `null`
 * deletes a key, anything else (lists included) replaces. Pure.
 */
export function jsonMergePatch(target: Json, patch: Json): Json {
  if (!isMap(patch)) return structuredClone(patch);
  const out: JsonMap = isMap(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = jsonMergePatch(out[k], v);
  }
  return structuredClone(out);
}

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: Json;
}

/**
 * RFC 6902 JSON patch (add, remove, replace, move, copy, test), as KubeVela's
 * `// +patchStrategy=jsonPatch` applies `patch.operations`. Operations run in
 * order on a copy; the first that fails throws a JsonPatchError. Pure.
 */
export function jsonPatch(target: Json, operations: Json): Json {
  if (!Array.isArray(operations)) {
    throw new JsonPatchError(`jsonPatch needs \`operations\`, a list of RFC 6902 operations`, '');
  }
  let doc = structuredClone(target);
  operations.forEach((raw, i) => {
    const op = raw as Operation;
    const where = `operations[${i}]`;
    if (!isMap(raw) || typeof op.op !== 'string' || typeof op.path !== 'string') {
      throw new JsonPatchError(`${where}: an operation needs \`op\` and \`path\``, '');
    }
    const fail = (why: string): never => {
      throw new JsonPatchError(`${where} (${op.op} ${op.path}): ${why}`, op.path);
    };
    const needValue = () => ('value' in op ? structuredClone(op.value) : fail('`value` is missing'));
    const needFrom = () => (typeof op.from === 'string' ? op.from : fail('`from` is missing'));
    switch (op.op) {
      case 'add':
        doc = add(doc, parsePointer(op.path, fail), needValue(), fail);
        break;
      case 'remove':
        doc = remove(doc, parsePointer(op.path, fail), fail).doc;
        break;
      case 'replace': {
        const tokens = parsePointer(op.path, fail);
        get(doc, tokens, fail);
        doc = add(remove(doc, tokens, fail).doc, tokens, needValue(), fail);
        break;
      }
      case 'move': {
        const from = parsePointer(needFrom(), fail);
        const to = parsePointer(op.path, fail);
        if (to.length > from.length && from.every((t, j) => to[j] === t))
          fail('cannot move a value into one of its own children');
        const removed = remove(doc, from, fail);
        doc = add(removed.doc, to, removed.value, fail);
        break;
      }
      case 'copy':
        doc = add(
          doc,
          parsePointer(op.path, fail),
          structuredClone(get(doc, parsePointer(needFrom(), fail), fail)),
          fail,
        );
        break;
      case 'test':
        if (!deepEqual(get(doc, parsePointer(op.path, fail), fail), op.value)) fail('the value differs');
        break;
      default:
        fail(`unknown operation (expected add, remove, replace, move, copy or test)`);
    }
  });
  return doc;
}

type Fail = (why: string) => never;

function parsePointer(pointer: string, fail: Fail): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) fail('a path must be empty or start with "/"');
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function get(doc: Json, tokens: string[], fail: Fail): Json {
  let at = doc;
  for (const t of tokens) {
    if (Array.isArray(at)) {
      const i = index(t, at.length, false, fail);
      at = at[i];
    } else if (isMap(at) && Object.hasOwn(at, t)) {
      at = at[t];
    } else {
      fail('path not found');
    }
  }
  return at;
}

function add(doc: Json, tokens: string[], value: Json, fail: Fail): Json {
  if (tokens.length === 0) return value;
  const parent = get(doc, tokens.slice(0, -1), fail);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(index(last, parent.length, true, fail), 0, value);
  else if (isMap(parent)) parent[last] = value;
  else fail('the parent is not an object or a list');
  return doc;
}

function remove(doc: Json, tokens: string[], fail: Fail): { doc: Json; value: Json } {
  if (tokens.length === 0) return { doc: undefined, value: doc };
  const parent = get(doc, tokens.slice(0, -1), fail);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const [value] = parent.splice(index(last, parent.length, false, fail), 1);
    return { doc, value };
  }
  if (isMap(parent) && Object.hasOwn(parent, last)) {
    const value = parent[last];
    delete parent[last];
    return { doc, value };
  }
  return fail('path not found');
}

function index(token: string, length: number, forAdd: boolean, fail: Fail): number {
  if (forAdd && token === '-') return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) fail(`"${token}" is not a list index`);
  const i = Number(token);
  if (i > length || (!forAdd && i === length)) fail(`index ${i} is out of range (length ${length})`);
  return i;
}

function isMap(v: Json): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}
