import type { Application, Component, RevisionPins, Trait, TraitDefinition } from '#api';
import {
  conflictsWithOlder,
  inMemorySource,
  notApplicable,
  olderFirst,
  rivalIn,
  workloadNames,
  type OamObject,
} from '#renderer';
import { deepCopy, type KubeObject } from '#kube-core';
import type { JoinedInputs, JoinedPart } from '../revisions/snapshot.js';
import type { ConditionInput } from '../status/conditions.js';
import { applicationTargetKey, componentTargetKey } from './indexes.js';
import type { JoinSources } from './sources.js';
import type { RejectedTrait } from './joined-status.js';
import { pinsOf, type PinnedSources } from './pinned-sources.js';

/** Who renders a standalone Component: the oldest live Application referencing it, else the Component itself. */
export type ComponentRenderer =
  { kind: 'Application'; app: Application; entry: string } | { kind: 'Component'; component: Component };

/** What became of one standalone Trait on the component it targets. */
export interface TraitVerdict {
  trait: Trait;
  accepted: boolean;
  reason: 'Accepted' | 'NotApplicable' | 'Conflict' | 'UnknownType' | 'InvalidProperties';
  message: string;
  /** Where it renders: the owner (Application or Component) and the component's name there. */
  renderedBy: { kind: 'Application' | 'Component'; name: string; component: string };
}

export interface Joined {
  /** The owner as rendered: losing componentRefs and overridden inline traits left out. */
  owner: KubeObject;
  /** The Components and Traits joined to it, for resolve. */
  objects: OamObject[];
  verdicts: TraitVerdict[];
  /** The owner's own conditions: rejected Traits, overridden inline traits, Components rendered elsewhere. */
  conditions: ConditionInput[];
  /** Component name in the owner → the standalone Component it comes from (their objects are marked). */
  fromComponents: Map<string, string>;
  /** The joined Components and Traits (rendered inputs, for the revision); undefined when none. */
  revisionInputs?: Required<JoinedInputs>;
}

const age = (o: KubeObject) => ({ created: o.metadata?.creationTimestamp, name: o.metadata?.name });
/** Older first: creationTimestamp, then name. */
export const byAge = (a: KubeObject, b: KubeObject): number => olderFirst(age(a), age(b));

export function rendererOf(
  src: JoinSources,
  namespace: string,
  component: string,
): ComponentRenderer | undefined {
  const live = src
    .applicationsReferencing(namespace, component)
    .filter((a) => !a.metadata.deletionTimestamp)
    .sort((a, b) => byAge(a as KubeObject, b as KubeObject));
  if (live.length > 0) {
    const app = live[0];
    const entry = app.spec.components.find((c) => c.componentRef === component)!;
    return { kind: 'Application', app, entry: entry.name };
  }
  const own = src.component(namespace, component);
  return own ? { kind: 'Component', component: own } : undefined;
}

const sourced = <K extends 'Component' | 'Trait'>(kind: K, object: unknown) =>
  ({ kind, object: deepCopy(object as KubeObject), source: inMemorySource('') }) as OamObject;

/**
 * An Application joined with the Components it references (those it is the
 * oldest referrer of) and the Traits that target its components: the input
 * of resolve, and what each Trait and the Application are told.
 */
export function joinApplication(
  src: JoinSources,
  app: Application,
  invalid: InvalidTraits = new Map(),
): Joined {
  const ns = app.metadata.namespace!;
  const name = app.metadata.name!;
  // What the join edits is copied (the component list and each entry, whose traits it
  // filters); nothing deeper is changed. The status is no input of the render and is left out.
  const { status: _status, ...rest } = app as Application & { status?: unknown };
  const copy = {
    ...rest,
    spec: { ...app.spec, components: app.spec.components.map((entry) => ({ ...entry })) },
  } as Application;
  const out = emptyJoin(copy as KubeObject);
  const elsewhere: string[] = [];
  const overridden: string[] = [];
  copy.spec.components = copy.spec.components.filter((entry) => {
    const target = { kind: 'Application' as const, name, component: entry.name };
    let candidates = src.traitsTargeting(applicationTargetKey(ns, name, entry.name));
    let type = entry.type;
    if (entry.componentRef) {
      const component = src.component(ns, entry.componentRef);
      if (!component) return true; // resolve reports the missing Component
      const renderer = rendererOf(src, ns, entry.componentRef);
      if (renderer?.kind === 'Application' && renderer.app.metadata.uid !== app.metadata.uid) {
        elsewhere.push(
          `Component "${entry.componentRef}" is rendered by Application "${renderer.app.metadata.name}" (the older reference)`,
        );
        return false;
      }
      out.objects.push(sourced('Component', component));
      out.fromComponents.set(entry.name, entry.componentRef);
      inputs(out).components[entry.componentRef] = part(component);
      candidates = [...src.traitsTargeting(componentTargetKey(ns, entry.componentRef)), ...candidates];
      type = component.spec.type;
    }
    const accepted = judge(src, out, ns, type!, candidates, target, invalid);
    // A standalone Trait wins over an inline trait of its type or one it conflicts with: operators own how it runs.
    entry.traits = (entry.traits ?? []).filter((inline, i) => {
      const winner = rivalIn(accepted, inline.type, src.catalog.traitDefinition(inline.type, ns));
      if (winner)
        overridden.push(
          `components "${entry.name}" traits[${i}] (${inline.type}) is overridden by Trait "${winner.trait.metadata.name}"`,
        );
      return !winner;
    });
    return true;
  });
  const known = new Set(app.spec.components.map((c) => c.name));
  const missing = src
    .traitsTargeting(applicationTargetKey(ns, name))
    .filter((t) => !known.has(t.spec.target.component))
    .map((t) => `Trait "${t.metadata.name}": no component "${t.spec.target.component}" in this Application`);
  out.conditions.push(...traitConditions(out.verdicts, missing));
  if (overridden.length > 0)
    out.conditions.push({
      type: 'InlineTraitsOverridden',
      status: 'True',
      reason: 'OverriddenByTrait',
      message: overridden.join('\n'),
    });
  if (elsewhere.length > 0)
    out.conditions.push({
      type: 'ComponentRefs',
      status: 'False',
      reason: 'RenderedByAnotherApplication',
      message: elsewhere.join('\n'),
    });
  return out;
}

/** A standalone Component deploying on its own, joined with the Traits that target it. */
export function joinComponent(
  src: JoinSources,
  component: Component,
  invalid: InvalidTraits = new Map(),
): Joined {
  const ns = component.metadata.namespace!;
  const name = component.metadata.name!;
  const out = emptyJoin(component as KubeObject);
  out.fromComponents.set(name, name);
  const target = { kind: 'Component' as const, name, component: name };
  judge(
    src,
    out,
    ns,
    component.spec.type,
    src.traitsTargeting(componentTargetKey(ns, name)),
    target,
    invalid,
  );
  out.conditions.push(...traitConditions(out.verdicts, []));
  return out;
}

/** Standalone Traits a render blamed (by name) → why: left out of the join. */
export type InvalidTraits = ReadonlyMap<string, string>;

interface Accepted {
  trait: Trait;
  type: string;
  definition: TraitDefinition;
}

/**
 * Judges the standalone Traits on one component, older first: a Trait
 * whose type is unknown, does not apply to the component's workload, or
 * whose render failed (`invalid`) is rejected; one of the same type as, or conflicting with, an older accepted
 * Trait loses to it. Accepted ones join `out.objects`.
 */
function judge(
  src: JoinSources,
  out: Joined,
  ns: string,
  componentType: string,
  candidates: Trait[],
  renderedBy: TraitVerdict['renderedBy'],
  invalid: InvalidTraits,
): Accepted[] {
  const definition = src.catalog.componentDefinition(componentType, ns);
  // Without its definition the component does not render at all (resolve says why); traits are not judged on it.
  const names = definition ? new Set(workloadNames(componentType, definition)) : undefined;
  const accepted: Accepted[] = [];
  for (const trait of [...candidates].sort((a, b) => byAge(a as KubeObject, b as KubeObject))) {
    const type = trait.spec.type;
    const verdict = (reason: TraitVerdict['reason'], message: string, ok = false) =>
      out.verdicts.push({ trait, accepted: ok, reason, message, renderedBy });
    const traitDefinition = src.catalog.traitDefinition(type, ns);
    if (!traitDefinition) {
      verdict('UnknownType', `no TraitDefinition "${type}" in namespace "${ns}" or the system namespace`);
      continue;
    }
    const inapplicable = names && notApplicable(type, traitDefinition, componentType, names);
    if (inapplicable) {
      verdict('NotApplicable', inapplicable);
      continue;
    }
    const broken = invalid.get(trait.metadata.name!);
    if (broken) {
      verdict('InvalidProperties', broken);
      continue;
    }
    const older = rivalIn(accepted, type, traitDefinition);
    if (older) {
      verdict('Conflict', conflictsWithOlder({ name: older.trait.metadata.name!, type: older.type }));
      continue;
    }
    accepted.push({ trait, type, definition: traitDefinition });
    verdict(
      'Accepted',
      `on ${renderedBy.kind} "${renderedBy.name}", component "${renderedBy.component}"`,
      true,
    );
    out.objects.push(sourced('Trait', trait));
    inputs(out).traits[trait.metadata.name!] = part(trait);
  }
  return accepted;
}

/** What step 2 joins: an Application (its own inputs, or a rollback's) or a standalone Component on its own. */
export type JoinTarget =
  | {
      kind: 'Application';
      app: Application;
      sources: JoinSources;
      /** A rollback's pinned parts laid over the caches (`sources` is then theirs). */
      pinned?: PinnedSources;
      /** Whether the render pins its definitions (a rollback's). */
      pinsDefinitions?: boolean;
    }
  | { kind: 'Component'; component: Component; sources: JoinSources };

/** Step 2's output. */
export interface JoinedOwner extends Joined {
  /** The Traits this join left out because a render blamed them, for `status.joined`. */
  rejected: RejectedTrait[];
  /** What the render still pins for its revision (a rollback's definitions and parts). */
  pinned?: RevisionPins;
}

/** Step 2, join: the owner with its Components and Traits, the `excluded` Traits left out. */
export function joinOwner(target: JoinTarget, excluded: InvalidTraits): JoinedOwner {
  if (target.kind === 'Component') {
    const joined = joinComponent(target.sources, target.component, excluded);
    return { ...joined, rejected: rejectedTraits(joined) };
  }
  const joined = joinApplication(target.sources, target.app, excluded);
  const pinned = pinsOf(target.pinsDefinitions, target.pinned?.held());
  return { ...joined, rejected: rejectedTraits(joined), ...(pinned ? { pinned } : {}) };
}

/** The Traits this join left out because a render blamed them, for `status.joined`. */
export function rejectedTraits(joined: Joined): RejectedTrait[] {
  return joined.verdicts
    .filter((v) => v.reason === 'InvalidProperties')
    .map((v) => ({
      name: v.trait.metadata.name!,
      generation: v.trait.metadata.generation,
      message: v.message,
    }));
}

export function traitConditions(
  verdicts: readonly TraitVerdict[],
  missing: readonly string[],
): ConditionInput[] {
  if (verdicts.length === 0 && missing.length === 0) return [];
  const rejected = [
    ...verdicts.filter((v) => !v.accepted).map((v) => `Trait "${v.trait.metadata.name}": ${v.message}`),
    ...missing,
  ];
  return [
    rejected.length === 0
      ? { type: 'Traits', status: 'True', reason: 'Accepted', message: `${verdicts.length} accepted` }
      : { type: 'Traits', status: 'False', reason: 'TraitsRejected', message: rejected.join('\n') },
  ];
}

function emptyJoin(owner: KubeObject): Joined {
  return {
    owner,
    objects: [],
    verdicts: [],
    conditions: [],
    fromComponents: new Map(),
  };
}

const part = (o: Component | Trait): JoinedPart => ({
  spec: o.spec,
  generation: o.metadata.generation,
  creationTimestamp: o.metadata.creationTimestamp,
});

function inputs(out: Joined): NonNullable<Joined['revisionInputs']> {
  return (out.revisionInputs ??= { components: {}, traits: {} });
}
