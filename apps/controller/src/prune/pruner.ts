import { LABELS } from '#api';
import type { AppliedResource } from '#api';
import { isNotFound, NoKindMatchError, type Client, type RestMapper } from '#runtime';
import { isControlledBy, type KubeObject } from '#kube-core';
import { errorMessage } from '../errors.js';
import { describe } from '../apply/applier.js';
import { resourceKey } from '../apply/identity.js';

export interface PruneOutcome {
  /** Recorded objects still there (not ours to delete, or their delete failed): kept in the record. */
  kept: AppliedResource[];
  deleted: AppliedResource[];
  errors: string[];
}

/**
 * Deletes what this application applied before (recorded with its UID) and
 * `wanted` no longer lists, and only when the live object is that same
 * object (same UID) and still this application's: controlled by it, or, for
 * objects that cannot carry an ownerReference, recorded by it. Judged by
 * identity, never by generations, so A→B→A updates delete nothing wanted.
 */
export async function prune(
  client: Client,
  mapper: RestMapper,
  app: KubeObject,
  recorded: readonly AppliedResource[],
  wanted: ReadonlySet<string>,
): Promise<PruneOutcome> {
  const out: PruneOutcome = { kept: [], deleted: [], errors: [] };
  for (const r of recorded) {
    if (wanted.has(resourceKey(r))) continue;
    try {
      const gone = await deleteIfOurs(client, mapper, app, r);
      if (gone) out.deleted.push(r);
      else out.kept.push(r);
    } catch (err) {
      out.kept.push(r);
      out.errors.push(
        `pruning ${describe({ ...r, metadata: { name: r.name, namespace: r.namespace } })}: ${errorMessage(err)}`,
      );
    }
  }
  return out;
}

/**
 * Deletes the recorded object if it is still ours; true when it is gone (or
 * was replaced by an object that is not ours, which then is not recorded).
 */
export async function deleteIfOurs(
  client: Client,
  mapper: RestMapper,
  app: KubeObject,
  r: AppliedResource,
): Promise<boolean> {
  let kind;
  try {
    kind = await mapper.kindFor(r);
  } catch (err) {
    if (err instanceof NoKindMatchError) return true; // its CRD is gone, and with it the object
    throw err;
  }
  const live = await client.get(kind, r.namespace, r.name);
  if (!live) return true;
  // Recorded ahead of creation (no UID yet): ours only if it carries this application's labels.
  if (r.uid ? live.metadata?.uid !== r.uid : !labelledFor(live, app)) return true;
  const sameNamespace = kind.namespaced && r.namespace === app.metadata?.namespace;
  if (sameNamespace && !isControlledBy(live, app.metadata!.uid!)) return true;
  if (!live.metadata?.deletionTimestamp) {
    try {
      await client.delete(kind, r.namespace, r.name, {
        propagationPolicy: 'Background',
        preconditions: { uid: live.metadata!.uid },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return true;
    }
  }
  return false;
}

function labelledFor(live: KubeObject, app: KubeObject): boolean {
  const labels = live.metadata?.labels ?? {};
  return (
    labels[LABELS.appName] === app.metadata?.name && labels[LABELS.appNamespace] === app.metadata?.namespace
  );
}
