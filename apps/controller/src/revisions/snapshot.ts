import {
  API_VERSION,
  REVISION_ANNOTATIONS,
  type ApplicationRevision,
  type Definition,
  type RevisionPins,
} from '#api';
import { createHash } from 'node:crypto';
import { deepCopy, deepFreeze, stableStringify, type KubeObject } from '#kube-core';

export type Snapshot = ApplicationRevision['spec'] & { renderHash: string };
type StoredApplication = Snapshot['application'];

/**
 * Annotations that are not inputs of a render: kubectl's bookkeeping and the
 * rollback request itself. They are neither hashed, stored nor restored.
 */
const NOT_INPUTS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATIONS.rollbackTo,
]);

/**
 * The Application as a render sees it, the way a revision stores it: name,
 * namespace, labels, the annotations that are inputs, and the spec. Applying
 * it to its own output changes nothing, so a stored application hashes as the
 * live one it was taken from.
 */
export function applicationInputs(app: KubeObject): StoredApplication {
  const annotations = Object.fromEntries(
    Object.entries(app.metadata?.annotations ?? {}).filter(([k]) => !NOT_INPUTS.has(k)),
  );
  return {
    apiVersion: API_VERSION,
    kind: 'Application',
    metadata: {
      name: app.metadata?.name,
      namespace: app.metadata?.namespace,
      labels: { ...app.metadata?.labels },
      annotations,
    },
    spec: deepCopy(app.spec) as StoredApplication['spec'],
  };
}

/** What the live Application becomes when it is restored to a stored one: its metadata bookkeeping kept. */
export function restoredApplication(live: KubeObject, stored: StoredApplication): KubeObject {
  const kept = Object.fromEntries(
    Object.entries(live.metadata?.annotations ?? {}).filter(
      ([k]) => NOT_INPUTS.has(k) && k !== REVISION_ANNOTATIONS.rollbackTo,
    ),
  );
  return {
    ...live,
    metadata: {
      ...live.metadata,
      labels: { ...stored.metadata.labels },
      annotations: { ...stored.metadata.annotations, ...kept },
    },
    spec: deepCopy(stored.spec),
  };
}

/**
 * Stored definitions by the definition they were taken from (the informer
 * cache's, frozen and replaced on change): every reconcile of every
 * application uses the same few, so each is copied once, and kept frozen.
 */
const storedOf = new WeakMap<Definition, Record<string, unknown>>();

/** A definition as stored in a revision: what renders and identifies it, none of the server's bookkeeping. */
function storedDefinition(d: Definition): Record<string, unknown> {
  let stored = storedOf.get(d);
  if (!stored) storedOf.set(d, (stored = deepFreeze(copyStored(d))));
  return stored;
}

function copyStored(d: Definition): Record<string, unknown> {
  const annotations = Object.fromEntries(
    Object.entries(d.metadata.annotations ?? {}).filter(([k]) => !NOT_INPUTS.has(k)),
  );
  return {
    apiVersion: d.apiVersion,
    kind: d.kind,
    metadata: {
      name: d.metadata.name,
      ...(d.metadata.namespace ? { namespace: d.metadata.namespace } : {}),
      ...(d.metadata.labels ? { labels: { ...d.metadata.labels } } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: deepCopy(d.spec),
  };
}

/** A standalone Component or Trait as joined to a render: its spec, and the generation it had. */
export interface JoinedPart {
  spec: unknown;
  generation?: number;
  creationTimestamp?: string;
}

/** The standalone Components and Traits joined to the render, by name. */
export interface JoinedInputs {
  components?: Record<string, JoinedPart>;
  traits?: Record<string, JoinedPart>;
}

/** A joined Component or Trait as a revision stores it. */
// A type (not an interface) so that it is a Record<string, unknown>, as the revision's schema stores it.
export type StoredPart = {
  kind: 'Component' | 'Trait';
  metadata: { name: string; generation?: number; creationTimestamp?: string };
  spec: Record<string, unknown>;
};

/**
 * Everything one render used, for an ApplicationRevision's spec (without its
 * number): the application's inputs, each definition in full keyed by name
 * (a rollback renders with these even after the cluster's changed), the
 * standalone Components and Traits joined, and a hash of all of it. A
 * definition counts by kind, name, namespace and spec: a new description
 * alone is no new revision.
 */
export function takeSnapshot(
  app: KubeObject,
  definitions: readonly Definition[],
  joined: JoinedInputs = {},
  /** What a rollback still pins (stored, not hashed: it says how later renders choose, not what this one rendered). */
  pinned?: RevisionPins,
): Omit<Snapshot, 'revision'> {
  const application = applicationInputs(app);
  const byKind = (kind: Definition['kind']) =>
    Object.fromEntries(
      definitions
        .filter((d) => d.kind === kind)
        .map((d) => [d.metadata.name!, storedDefinition(d)] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  const snapshot = {
    application,
    componentDefinitions: byKind('ComponentDefinition'),
    traitDefinitions: byKind('TraitDefinition'),
    ...storedJoined('Component', 'components', joined.components),
    ...storedJoined('Trait', 'traits', joined.traits),
  };
  return { ...snapshot, renderHash: renderHashOf(snapshot), ...(pinned ? { pinned } : {}) };
}

/**
 * The hash of a snapshot's inputs: equal for a live render and the re-render
 * of its stored revision. It is `hashOf` of `{annotations, components,
 * definitions, labels, spec, traits}` (the first 16 hex digits), composed
 * here key by key so each definition's stable JSON is computed once per
 * stored definition, not on every reconcile.
 */
export function renderHashOf(s: Omit<Snapshot, 'revision' | 'renderHash'>): string {
  const defs = [
    ...Object.values(s.componentDefinitions ?? {}),
    ...Object.values(s.traitDefinitions ?? {}),
  ].map((d) => definitionJson(d as Definition));
  const fields: [string, string | undefined][] = [
    ['annotations', stableStringify(s.application.metadata.annotations ?? {})],
    ['components', stableStringify((s.components ?? []).map(hashedPart))],
    ['definitions', `[${defs.join(',')}]`],
    ['labels', stableStringify(s.application.metadata.labels ?? {})],
    ['spec', s.application.spec === undefined ? undefined : stableStringify(s.application.spec)],
    ['traits', stableStringify((s.traits ?? []).map(hashedPart))],
  ];
  const json = `{${fields
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/** A stored definition's part of the render hash, by the stored object (frozen, shared by every snapshot that uses it). */
const definitionJsonOf = new WeakMap<object, string>();
function definitionJson(def: Definition): string {
  let json = definitionJsonOf.get(def);
  if (json === undefined) {
    json = stableStringify({
      kind: def.kind,
      name: def.metadata.name,
      namespace: def.metadata.namespace,
      spec: def.spec,
    });
    if (Object.isFrozen(def)) definitionJsonOf.set(def, json);
  }
  return json;
}

/** A stored part counts by kind, name and spec: its generation says when, not what. */
function hashedPart(p: Record<string, unknown>) {
  const part = p as StoredPart;
  return { kind: part.kind, metadata: { name: part.metadata.name }, spec: part.spec };
}

/** A revision's stored Components or Traits by name. */
export function storedParts(stored: readonly Record<string, unknown>[] | undefined): Map<string, StoredPart> {
  return new Map((stored ?? []).map((p) => [(p as StoredPart).metadata.name, p as StoredPart]));
}

/** The stored definitions of a revision, as the renderer's catalog takes them. */
export function storedDefinitions(spec: ApplicationRevision['spec']): Definition[] {
  return [
    ...Object.values(spec.componentDefinitions ?? {}),
    ...Object.values(spec.traitDefinitions ?? {}),
  ] as Definition[];
}

/** Joined objects as a revision stores them: `[{kind, metadata: {name, generation, creationTimestamp}, spec}]`, by name. */
function storedJoined<K extends string>(
  kind: 'Component' | 'Trait',
  key: K,
  parts: Record<string, JoinedPart> | undefined,
): Partial<Record<K, Record<string, unknown>[]>> {
  const names = Object.keys(parts ?? {}).sort();
  if (names.length === 0) return {};
  const stored: Record<string, unknown>[] = names.map((name) => {
    const { spec, generation, creationTimestamp } = parts![name];
    const metadata = {
      name,
      ...(generation !== undefined ? { generation } : {}),
      ...(creationTimestamp ? { creationTimestamp } : {}),
    };
    return { kind, metadata, spec: deepCopy(spec) };
  });
  const out: Partial<Record<K, Record<string, unknown>[]>> = {};
  out[key] = stored;
  return out;
}

/** The standalone Components and Traits a revision stored, and which of them still hold. */
export interface PartPins {
  /** The revision's stored parts by name. */
  components: ReadonlyMap<string, StoredPart>;
  traits: ReadonlyMap<string, StoredPart>;
  /** name → the live generation each pin holds at (0: none existed); absent: a rollback, which pins all as they are now. */
  at?: Pick<RevisionPins, 'components' | 'traits'>;
}
