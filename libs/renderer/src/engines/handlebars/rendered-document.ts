import { isMap, isScalar, LineCounter, parseDocument, type Pair, type YAMLError } from 'yaml';
import { type TypedObject } from '#kube-core';
import type { TemplateResult } from '../engine.js';
import { nearest } from '../../params/index.js';
import { patchKeysOf } from './patch-keys.js';

const TOP_LEVEL_KEYS = ['output', 'outputs', 'patch'];

/** What is wrong with the rendered text, and on which of its lines. */
export class RenderedYamlError extends Error {
  constructor(
    readonly problem: string,
    readonly line?: number,
    readonly lineText?: string,
  ) {
    super(
      line ? `rendered YAML line ${line}: ${problem}: ${JSON.stringify(lineText?.trim() ?? '')}` : problem,
    );
    this.name = 'RenderedYamlError';
  }
}

/**
 * The rendered text read as YAML: a map with `output` (one object),
 * `outputs` (name → object) and `patch` (a partial object), plus the
 * patch's `# +patchKey=` markers. A key left empty (`outputs:` whose entries
 * were all conditional) counts as absent.
 */
export function readRendered(text: string): TemplateResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const lines = text.split('\n');
  const at = (offset: number | undefined) => {
    const line = offset === undefined ? undefined : lineCounter.linePos(offset).line;
    return { line, lineText: line ? lines[line - 1] : undefined };
  };
  const fail = (problem: string, offset?: number): never => {
    const { line, lineText } = at(offset);
    throw new RenderedYamlError(problem, line, lineText);
  };
  if (doc.errors.length > 0) {
    const error: YAMLError = doc.errors[0];
    fail(error.message.replace(/ at line \d+, column \d+[\s\S]*$/, ''), error.pos[0]);
  }
  const root = doc.contents;
  if (root === null) fail(`the template rendered nothing; expected a map with ${TOP_LEVEL_KEYS.join(', ')}`);
  if (!isMap(root))
    fail(`expected a map with ${TOP_LEVEL_KEYS.join(', ')}, got ${describeNode(root)}`, root?.range?.[0]);
  const map = root as Exclude<typeof root, null> & { items: Pair[] };
  let patchNode: unknown;
  let patchComments: string[] = [];
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const offset = (pair.key as { range?: number[] } | null)?.range?.[0];
    if (key === undefined || !TOP_LEVEL_KEYS.includes(key)) {
      const guess = key === undefined ? undefined : nearest(key, TOP_LEVEL_KEYS);
      const hint = guess ? ` (did you mean "${guess}"?)` : `; expected ${TOP_LEVEL_KEYS.join(', ')}`;
      fail(`unknown top-level key ${JSON.stringify(key ?? '?')}${hint}`, offset);
    }
    if (key === 'patch') {
      patchNode = pair.value;
      patchComments = commentLinesAbove(lines, at(offset).line);
    }
  }
  const value = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  const forbidden = findProtoKey(value, '');
  if (forbidden) fail(`the key "__proto__" is not allowed (at ${forbidden})`);

  const result: TemplateResult = { outputs: {}, patchKeys: {} };
  if (value.output !== null && value.output !== undefined)
    result.output = kubeObject(value.output, 'output', fail);
  if (value.outputs !== null && value.outputs !== undefined) {
    if (!isPlainMap(value.outputs))
      fail(`outputs must be a map of name to object, got ${describe(value.outputs)}`);
    for (const [name, obj] of Object.entries(value.outputs as Record<string, unknown>))
      result.outputs[name] = kubeObject(obj, `outputs.${name}`, fail);
  }
  if (value.patch !== null && value.patch !== undefined) {
    if (!isPlainMap(value.patch))
      fail(`patch must be a map (a partial object), got ${describe(value.patch)}`);
    result.patch = value.patch as Record<string, unknown>;
    result.patchKeys = patchKeysOf(patchNode, patchComments);
  }
  return result;
}

/**
 * The comment lines right above line `line` (1-based), nearest last: where
 * `# +patchStrategy=jsonMergePatch` stands for the top-level `patch:` key.
 */
function commentLinesAbove(lines: readonly string[], line: number | undefined): string[] {
  const found: string[] = [];
  for (let i = (line ?? 1) - 2; i >= 0 && lines[i].trim().startsWith('#'); i--) found.unshift(lines[i]);
  return found;
}

function kubeObject(value: unknown, where: string, fail: (problem: string) => never): TypedObject {
  if (!isPlainMap(value)) return fail(`${where} must be a map (a Kubernetes object), got ${describe(value)}`);
  const obj = value as Record<string, unknown>;
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string')
    return fail(`${where} must have apiVersion and kind (strings)`);
  return obj as TypedObject;
}

function findProtoKey(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key === '__proto__') return childPath;
    const found = findProtoKey(child, childPath);
    if (found) return found;
  }
  return undefined;
}

function isPlainMap(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a map' : `${typeof value} ${JSON.stringify(value)}`;
}

function describeNode(node: unknown): string {
  if (isScalar(node)) return `the scalar ${JSON.stringify(node.value)}`;
  return 'a list';
}
