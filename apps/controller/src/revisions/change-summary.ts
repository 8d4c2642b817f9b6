import { deepEqual, isJsonObject } from '#kube-core';
import type { Snapshot } from './snapshot.js';

type Inputs = Omit<Snapshot, 'revision' | 'renderHash'>;

/** At most this many changes are named; the rest are counted. */
const MAX_NAMED = 3;
const MAX_VALUE = 40;

/**
 * One human line saying what changed from one revision's inputs to the
 * next's, for `oam history`: field paths of the spec with old → new values
 * ("components[0].properties.image: nginx:1.25 → nginx:1.27"), labels and
 * annotations, definitions ("definition webservice changed") and joined
 * standalone objects, the first few named and the rest counted.
 */
export function changeSummary(previous: Inputs | undefined, next: Inputs): string {
  if (!previous) return 'first revision';
  const changes = [
    ...diff(previous.application.spec, next.application.spec, ''),
    ...diff(previous.application.metadata.labels ?? {}, next.application.metadata.labels ?? {}, 'labels'),
    ...diff(
      previous.application.metadata.annotations ?? {},
      next.application.metadata.annotations ?? {},
      'annotations',
    ),
    ...definitionChanges(previous.componentDefinitions, next.componentDefinitions),
    ...definitionChanges(previous.traitDefinitions, next.traitDefinitions),
    ...objectChanges(previous.components, next.components),
    ...objectChanges(previous.traits, next.traits),
  ];
  if (changes.length === 0) return 'no change in the inputs';
  const named = changes.slice(0, MAX_NAMED).join('; ');
  const more = changes.length - MAX_NAMED;
  return more > 0 ? `${named}; and ${more} more` : named;
}

/** Field-level differences; arrays of named entries (components, traits by type) are matched by position. */
function diff(a: unknown, b: unknown, path: string): string[] {
  if (deepEqual(a, b)) return [];
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diff(a[k], b[k], join(path, k)));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...diff(a[i], b[i], `${path}[${i}]`));
    return out;
  }
  if (a === undefined) return [`${path} added${isScalar(b) ? `: ${show(b)}` : ''}`];
  if (b === undefined) return [`${path} removed`];
  return [`${path}: ${show(a)} → ${show(b)}`];
}

function definitionChanges(
  a: Record<string, unknown> | undefined,
  b: Record<string, unknown> | undefined,
): string[] {
  const before = a ?? {};
  const after = b ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names.flatMap((n) => {
    if (!(n in before) || !(n in after)) return []; // a type added or removed shows in the spec already
    const spec = (d: unknown) => (d as { spec?: unknown }).spec;
    const ns = (d: unknown) => (d as { metadata?: { namespace?: string } }).metadata?.namespace;
    if (deepEqual(spec(before[n]), spec(after[n])) && ns(before[n]) === ns(after[n])) return [];
    return [`definition ${n} changed`];
  });
}

function objectChanges(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): string[] {
  const key = (o: unknown) => {
    const obj = o as { kind?: string; metadata?: { name?: string } };
    return `${obj.kind} "${obj.metadata?.name}"`;
  };
  const before = new Map((a ?? []).map((o) => [key(o), o]));
  const after = new Map((b ?? []).map((o) => [key(o), o]));
  const out: string[] = [];
  for (const [k, o] of after) {
    if (!before.has(k)) out.push(`${k} joined`);
    // By spec: the stored generation and creation time say when, not what.
    else if (!deepEqual((before.get(k) as { spec?: unknown }).spec, (o as { spec?: unknown }).spec))
      out.push(`${k} changed`);
  }
  for (const k of before.keys()) if (!after.has(k)) out.push(`${k} left`);
  return out;
}

function join(path: string, key: string): string {
  const part = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key);
  return path ? `${path}.${part}` : part;
}

function isScalar(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

function show(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}
