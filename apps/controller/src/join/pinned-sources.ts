import { API_VERSION, type Component, type RevisionPins, type Trait } from '#api';
import type { DefinitionCatalog } from '#renderer';
import { deepCopy, type KubeObject } from '#kube-core';
import type { PartPins, StoredPart } from '../revisions/snapshot.js';
import type { JoinSources } from './sources.js';
import { traitTargetIndexFunc } from './indexes.js';

type PartKind = 'components' | 'traits';

/** The join's sources with a rollback's pins laid over them, and which pins the joins so far used. */
export interface PinnedSources {
  sources: JoinSources;
  held(): Required<Pick<RevisionPins, 'components' | 'traits'>>;
}

/**
 * The join's sources with a rollback's pins laid over the live caches: a
 * pinned Component or Trait is seen as the revision stored it (a Trait it
 * did not store, not at all) for as long as its live object is at the
 * generation the pin was taken at; once that object changes (edited,
 * created, deleted) the live one is seen again. `held()` says which pins
 * this join used, at which generation: what the new revision carries on.
 */
export function pinnedSources(
  src: JoinSources,
  namespace: string,
  pins: PartPins,
  catalog: DefinitionCatalog,
): PinnedSources {
  const held = { components: {} as Record<string, number>, traits: {} as Record<string, number> };
  const generation = (live: KubeObject | undefined) => live?.metadata?.generation ?? 0;
  /** Whether the pin on `name` holds against its live object; a holding pin is recorded. */
  const holds = (kind: PartKind, name: string, live: KubeObject | undefined): boolean => {
    const at = pins.at === undefined ? generation(live) : pins.at[kind]?.[name];
    if (at === undefined || at !== generation(live)) return false;
    held[kind][name] = at;
    return true;
  };
  const liveTrait = (name: string) => src.trait(namespace, name) as KubeObject | undefined;
  return {
    held: () => held,
    sources: {
      ...src,
      catalog,
      component(ns, name) {
        const live = src.component(ns, name);
        const stored = pins.components.get(name);
        if (ns !== namespace || !stored || !holds('components', name, live as KubeObject | undefined))
          return live;
        return asLive(stored, live as KubeObject | undefined, namespace) as Component;
      },
      traitsTargeting(key) {
        const live = src.traitsTargeting(key).filter((t) => !holds('traits', t.metadata.name!, t));
        const stored = [...pins.traits.values()]
          .filter((p) => targetKeys(p, namespace).includes(key))
          .flatMap((p) => {
            const current = liveTrait(p.metadata.name);
            return holds('traits', p.metadata.name, current) ? [asLive(p, current, namespace)] : [];
          });
        return [...live, ...(stored as Trait[])];
      },
    },
  };
}

const targetKeys = (p: StoredPart, namespace: string) =>
  traitTargetIndexFunc({ metadata: { namespace }, spec: p.spec } as Trait);

/** A stored part as the join takes it: the live object's identity (if any) with the stored spec and its generation. */
function asLive(p: StoredPart, live: KubeObject | undefined, namespace: string): KubeObject {
  const metadata = live?.metadata ?? {
    name: p.metadata.name,
    namespace,
    ...(p.metadata.creationTimestamp ? { creationTimestamp: p.metadata.creationTimestamp } : {}),
  };
  return {
    apiVersion: API_VERSION,
    kind: p.kind,
    metadata: { ...metadata, generation: p.metadata.generation },
    spec: deepCopy(p.spec),
  };
}

/** The pins a render keeps for its revision: its definitions', and the parts its join held; none, undefined. */
export function pinsOf(
  definitions: boolean | undefined,
  parts: Pick<RevisionPins, 'components' | 'traits'> | undefined,
): RevisionPins | undefined {
  const some = (m: Record<string, number> | undefined) => (m && Object.keys(m).length > 0 ? m : undefined);
  const components = some(parts?.components);
  const traits = some(parts?.traits);
  if (!definitions && !components && !traits) return undefined;
  return {
    ...(definitions ? { definitions: true } : {}),
    ...(components ? { components } : {}),
    ...(traits ? { traits } : {}),
  };
}
