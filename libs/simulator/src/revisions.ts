/**
 * ControllerRevisions (pkg/controller/history), the template history of
 * StatefulSets and DaemonSets: one per distinct pod template, named
 * `<owner>-<hash>`, labelled with the owner's selector and
 * `controller.kubernetes.io/hash`, numbered by `revision`.
 */
import { deepCopy, isControlledBy, semanticEqual, semanticValue } from '#kube-core';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { computeHash } from './hash.js';
import {
  GVR,
  statusCode,
  type ControllerRevision,
  type DaemonSet,
  type Resource,
  type Sim,
  type StatefulSet,
} from './sim.js';
import { createObj, deleteObj, getObj, writeObj, writeStatus } from './objects.js';

import { claimInNamespace } from './ownership.js';

export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

export interface Revisions {
  /** Every revision the owner controls, oldest revision number first. */
  all: ControllerRevision[];
  /** The revision of the owner's current template. */
  update: ControllerRevision;
  /** The hash part of the update revision's name. */
  hash: string;
}

/** What owns revisions: StatefulSets and DaemonSets. */
export type RevisionOwner = StatefulSet | DaemonSet;

/** A revision's `data`: the owner's pod template, as the patch kube stores. */
export interface RevisionData {
  spec: { template: IPodTemplateSpec & { $patch?: 'replace' } };
}

const revisionNumber = (r: ControllerRevision) => Number(r.revision ?? 0);

/** The patch kube stores: the template under spec, marked `$patch: replace`. */
export function revisionData(template: IPodTemplateSpec | undefined): RevisionData {
  return { spec: { template: { ...deepCopy(template ?? {}), $patch: 'replace' } } };
}

export function templateOf(revision: ControllerRevision): IPodTemplateSpec {
  const template = deepCopy((revision.data as Partial<RevisionData> | undefined)?.spec?.template ?? {});
  delete template.$patch;
  return template;
}

/** Finds or creates the revision for the owner's template; bumps a re-used old revision to the newest number. */
export function syncRevisions<T extends RevisionOwner>(sim: Sim, owner: T, ownerGvr: Resource<T>): Revisions {
  const ns = owner.metadata.namespace as string;
  const spec: Partial<NonNullable<RevisionOwner['spec']>> = owner.spec ?? {};
  const all = claimInNamespace(sim, GVR.controllerrevisions, owner).sort(
    (a, b) => revisionNumber(a) - revisionNumber(b),
  );
  const data = revisionData(spec.template);
  const max = all.reduce((m, r) => Math.max(m, revisionNumber(r)), 0);
  const equal = all.filter((r) => semanticEqual(r.data, data));
  if (equal.length) {
    let update = equal[equal.length - 1];
    if (revisionNumber(update) !== max) {
      update = writeObj(sim, GVR.controllerrevisions, { ...deepCopy(update), revision: max + 1 });
    }
    const list = all.map((r) => (r.metadata.uid === update.metadata.uid ? update : r));
    return { all: list, update, hash: hashOf(update) };
  }
  const collisionCount = owner.status?.collisionCount ?? 0;
  const hash = computeHash(semanticValue(data), collisionCount);
  const revision: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${owner.metadata.name}-${hash}`,
      namespace: ns,
      labels: {
        ...(spec.selector?.matchLabels ?? {}),
        [REVISION_HASH_LABEL]: hash,
      },
      ownerReferences: [
        {
          apiVersion: owner.apiVersion as string,
          kind: owner.kind as string,
          name: owner.metadata.name as string,
          uid: owner.metadata.uid as string,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data,
    revision: max + 1,
  };
  try {
    const created = createObj(sim, GVR.controllerrevisions, ns, revision);
    return { all: [...all, created], update: created, hash };
  } catch (err) {
    if (statusCode(err) !== 409) throw err;
    const found = getObj(sim, GVR.controllerrevisions, ns, revision.metadata.name as string);
    if (found && isControlledBy(found, owner.metadata.uid as string) && semanticEqual(found.data, data)) {
      return { all: [...all, found], update: found, hash };
    }
    writeStatus(sim, ownerGvr, owner, {
      ...owner.status,
      collisionCount: collisionCount + 1,
    });
    throw err;
  }
}

export const hashOf = (revision: ControllerRevision) =>
  revision.metadata.labels?.[REVISION_HASH_LABEL] ??
  String(revision.metadata.name).slice(String(revision.metadata.name).lastIndexOf('-') + 1);

/** truncateHistory: keeps revisionHistoryLimit old revisions besides the ones in use. */
export function truncateHistory(
  sim: Sim,
  owner: RevisionOwner,
  revisions: ControllerRevision[],
  inUse: Set<string>,
): void {
  const limit = owner.spec?.revisionHistoryLimit ?? 10;
  const unused = revisions.filter((r) => !inUse.has(r.metadata.name as string));
  const extra = unused.length - limit;
  for (const r of unused.slice(0, Math.max(0, extra))) deleteObj(sim, GVR.controllerrevisions, r);
}
