import type { AppliedResource, ApplicationStatus, RevisionPins } from '#api';
import { stableStringify, type KubeObject } from '#kube-core';
import type { RejectedTrait } from '../join/joined-status.js';
import type { Resolved } from '../resolve/resolve.js';
import type { JoinedInputs } from '../revisions/snapshot.js';
import type { ConditionInput } from '../status/conditions.js';

/** What a reconcile read, as far as it decides what the reconcile does. */
export interface Reads {
  owner: KubeObject;
  resolved: Resolved;
  /** False when some input has no version to compare (a rollback's stored definitions). */
  comparable: boolean;
  revisionInputs?: JoinedInputs;
  pinned?: RevisionPins;
  rejected?: readonly RejectedTrait[];
  fromComponents?: ReadonlyMap<string, string>;
  conditions?: readonly ConditionInput[];
}

/**
 * Owners whose last reconcile found nothing to do, with what that reconcile
 * read (`inputsOf`). A reconcile that reads the same again would find nothing
 * to do again (every step is a function of these reads), so it stops there:
 * a resync of a settled application costs a few cache reads, not a render,
 * an apply plan and a health evaluation.
 */
export class Settled {
  private readonly inputs = new Map<string, string>();

  is(key: string, inputs: string | undefined): boolean {
    return inputs !== undefined && this.inputs.get(key) === inputs;
  }

  remember(key: string, inputs: string | undefined): void {
    if (inputs === undefined) this.inputs.delete(key);
    else this.inputs.set(key, inputs);
  }

  forget(key: string): void {
    this.inputs.delete(key);
  }
}

/**
 * What a reconcile reads, as one string: the owner at its
 * resourceVersion (spec, labels, annotations, status), each definition at
 * its resourceVersion, the joined Components' and Traits' generations, the
 * join's own findings, and each recorded object's live resourceVersion
 * (or its absence). Undefined when some input has no version to compare (a
 * rollback's stored definitions, an object that could not be read): such a
 * run is never skipped.
 */
export async function inputsOf(
  input: Reads,
  liveVersion: (r: AppliedResource) => Promise<string | undefined>,
): Promise<string | undefined> {
  const { owner, resolved } = input;
  if (!resolved.spec || !input.comparable) return undefined;
  const definitions: string[] = [];
  for (const d of resolved.definitions) {
    const rv = d.metadata.resourceVersion;
    if (!rv) return undefined;
    definitions.push(`${d.kind}/${d.metadata.namespace}/${d.metadata.name}@${rv}`);
  }
  const generations = (parts: Record<string, { generation?: number }> | undefined) =>
    Object.entries(parts ?? {}).map(([name, p]) => `${name}@${p.generation}`);
  const recorded = (owner.status as ApplicationStatus | undefined)?.appliedResources ?? [];
  const live: string[] = [];
  for (const r of recorded) {
    const rv = await liveVersion(r);
    if (rv === undefined) return undefined;
    live.push(`${r.kind}/${r.namespace}/${r.name}@${rv}`);
  }
  return stableStringify({
    owner: version(owner),
    definitions,
    components: generations(input.revisionInputs?.components),
    traits: generations(input.revisionInputs?.traits),
    pinned: input.pinned,
    rejected: input.rejected,
    fromComponents: [...(input.fromComponents ?? [])],
    conditions: input.conditions,
    live,
  });
}

const version = (o: KubeObject) => `${o.kind}/${o.metadata?.uid}@${o.metadata?.resourceVersion}`;
