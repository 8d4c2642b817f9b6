/**
 * ControllerRevisions (pkg/controller/history), the template history of
 * StatefulSets and DaemonSets: one per distinct pod template, named
 * `<owner>-<hash>`, labelled with the owner's selector and
 * `controller.kubernetes.io/hash`, numbered by `revision`.
 */
import { deepCopy, isControlledBy, semanticEqual, semanticValue, type StoredObject } from '#kube-core';
import { computeHash } from './hash.js';
import { GVR, statusCode, type Obj, type Sim } from './sim.js';
import { deleteObj, getObj, writeObj, writeStatus } from './objects.js';

import { claimInNamespace } from './ownership.js';

export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

export interface Revisions {
  /** Every revision the owner controls, oldest revision number first. */
  all: StoredObject[];
  /** The revision of the owner's current template. */
  update: StoredObject;
  /** The hash part of the update revision's name. */
  hash: string;
}

const revisionNumber = (r: StoredObject) => Number((r as Obj).revision ?? 0);

/** The patch kube stores: the template under spec, marked `$patch: replace`. */
export function revisionData(template: unknown): Obj {
  return { spec: { template: { ...deepCopy((template ?? {}) as Obj), $patch: 'replace' } } };
}

export function templateOf(revision: StoredObject): Obj {
  const template = deepCopy(((revision as Obj).data?.spec?.template ?? {}) as Obj);
  delete template.$patch;
  return template;
}

/** Finds or creates the revision for the owner's template; bumps a re-used old revision to the newest number. */
export function syncRevisions(sim: Sim, owner: StoredObject, ownerGvr: typeof GVR.statefulsets): Revisions {
  const ns = owner.metadata.namespace as string;
  const spec = (owner.spec ?? {}) as Obj;
  const all = claimInNamespace(sim, GVR.controllerrevisions, owner).sort(
    (a, b) => revisionNumber(a) - revisionNumber(b),
  );
  const data = revisionData(spec.template);
  const max = all.reduce((m, r) => Math.max(m, revisionNumber(r)), 0);
  const equal = all.filter((r) => semanticEqual((r as Obj).data, data));
  if (equal.length) {
    let update = equal[equal.length - 1];
    if (revisionNumber(update) !== max) {
      update = writeObj(sim, GVR.controllerrevisions, {
        ...deepCopy(update),
        revision: max + 1,
      } as StoredObject);
    }
    const list = all.map((r) => (r.metadata.uid === update.metadata.uid ? update : r));
    return { all: list, update, hash: hashOf(update) };
  }
  const collisionCount = ((owner.status as Obj | undefined)?.collisionCount as number | undefined) ?? 0;
  const hash = computeHash(semanticValue(data), collisionCount);
  const revision: StoredObject = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${owner.metadata.name}-${hash}`,
      namespace: ns,
      labels: {
        ...((spec.selector?.matchLabels ?? {}) as Record<string, string>),
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
    const created = sim.api.create(GVR.controllerrevisions, ns, revision);
    return { all: [...all, created], update: created, hash };
  } catch (err) {
    if (statusCode(err) !== 409) throw err;
    const found = getObj(sim, GVR.controllerrevisions, ns, revision.metadata.name as string);
    if (
      found &&
      isControlledBy(found, owner.metadata.uid as string) &&
      semanticEqual((found as Obj).data, data)
    ) {
      return { all: [...all, found], update: found, hash };
    }
    writeStatus(sim, ownerGvr, owner, {
      ...((owner.status ?? {}) as Obj),
      collisionCount: collisionCount + 1,
    });
    throw err;
  }
}

export const hashOf = (revision: StoredObject) =>
  revision.metadata.labels?.[REVISION_HASH_LABEL] ??
  String(revision.metadata.name).slice(String(revision.metadata.name).lastIndexOf('-') + 1);

/** truncateHistory: keeps revisionHistoryLimit old revisions besides the ones in use. */
export function truncateHistory(
  sim: Sim,
  owner: StoredObject,
  revisions: StoredObject[],
  inUse: Set<string>,
): void {
  const limit = ((owner.spec as Obj | undefined)?.revisionHistoryLimit as number | undefined) ?? 10;
  const unused = revisions.filter((r) => !inUse.has(r.metadata.name as string));
  const extra = unused.length - limit;
  for (const r of unused.slice(0, Math.max(0, extra))) deleteObj(sim, GVR.controllerrevisions, r);
}
