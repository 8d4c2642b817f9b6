import type { AppliedResource, ApplicationStatus } from '#api';
import { isControlledBy, type KubeObject } from '#kube-core';
import type { Client, EventRecorder, Result, RestMapper } from '#runtime';
import type { ApplyOutcome } from '../apply/applier.js';
import { describeRef, identityKey, resourceKey } from '../apply/identity.js';
import { prune } from './pruner.js';

/** While an object waits to be taken back by its Component, look again this often. */
const RELEASE_RECHECK_MS = 1_000;

export interface PruneDeps {
  client: Client;
  mapper: RestMapper;
  events: EventRecorder;
  /** The cached live object, if any. */
  live: (obj: KubeObject) => Promise<KubeObject | undefined>;
  /** True when the server's owner is still at the generation this reconcile rendered. */
  isLatest: (owner: KubeObject) => Promise<boolean>;
}

/** Step 8's output. */
export interface Pruned {
  /** What the owner now holds, for `status.appliedResources`. */
  applied: AppliedResource[];
  problems: string[];
  /** The Applied condition's reason for them: FieldNotPersisted when some object's writes do not stick. */
  reason: 'ApplyFailed' | 'FieldNotPersisted';
  /** An API call failed: the caller's queue retries with backoff. */
  retry: boolean;
  requeue?: Result;
}

/**
 * Step 8, prune: deletes what the newest spec no longer renders (a `Pruned`
 * Event), hands `release`d objects to their Component instead, and says
 * what the owner now holds: what was applied, plus what was recorded before
 * and is still there (its prune pending, or skipped because an apply failed,
 * with an `ApplyFailed` Event, or because the spec moved on).
 */
export async function pruneAndReport(
  deps: PruneDeps,
  owner: KubeObject,
  outcomes: readonly ApplyOutcome[],
  recorded: readonly AppliedResource[],
  release: ((live: KubeObject) => boolean) | undefined,
): Promise<Pruned> {
  const previous = owner.status as ApplicationStatus | undefined;
  const problems = outcomes.filter((o) => o.message).map((o) => o.message!);
  const applied = outcomes.filter((o) => o.applied).map((o) => o.applied!);
  const wanted = new Set(outcomes.map((o) => identityKey(o.intent.object)));
  const unwanted = recorded.filter((r) => !wanted.has(resourceKey(r)));
  let requeue: Result | undefined;
  // API failures are retried with backoff; an object owned by someone else waits for a change instead.
  let retry = outcomes.some((o) => o.result === 'failed');
  const reason = outcomes.some((o) => o.result === 'notPersisted') ? 'FieldNotPersisted' : 'ApplyFailed';
  if (problems.length === 0 && unwanted.length > 0) {
    // Prune only against the newest spec: if the owner changed since this render, the next reconcile decides.
    if (await deps.isLatest(owner)) {
      // Released objects are not deleted: their Component takes them over in place; until then they stay recorded.
      const released = await releasedOf(deps, owner, unwanted, release);
      const keep = new Set([...wanted, ...released.map(resourceKey)]);
      const pruned = await prune(deps.client, deps.mapper, owner, recorded, keep);
      applied.push(...pruned.kept, ...released);
      if (released.length > 0) requeue = { requeueAfter: RELEASE_RECHECK_MS };
      problems.push(...pruned.errors);
      retry ||= pruned.errors.length > 0;
      if (pruned.deleted.length > 0)
        deps.events.event(owner, 'Normal', 'Pruned', `deleted ${pruned.deleted.map(describeRef).join(', ')}`);
    } else {
      applied.push(...unwanted);
      requeue = { requeue: true };
    }
  } else if (problems.length > 0) {
    // Keep the record of everything not re-applied, so nothing applied before is forgotten.
    const now = new Set(applied.map(resourceKey));
    applied.push(...recorded.filter((r) => !now.has(resourceKey(r))));
    const before = previous?.conditions?.find((c) => c.type === 'Applied');
    if (before?.message !== problems.join('\n'))
      deps.events.event(owner, 'Warning', reason, problems.join('; '));
  }
  return { applied, problems, reason, retry, requeue };
}

/** The recorded objects still controlled by `owner` that `release` hands to someone else. */
async function releasedOf(
  deps: PruneDeps,
  owner: KubeObject,
  records: readonly AppliedResource[],
  release: ((live: KubeObject) => boolean) | undefined,
): Promise<AppliedResource[]> {
  if (!release) return [];
  const out: AppliedResource[] = [];
  for (const r of records) {
    const live = await deps.live({ apiVersion: r.apiVersion, kind: r.kind, metadata: r });
    if (live && isControlledBy(live, owner.metadata!.uid!) && release(live)) out.push(r);
  }
  return out;
}
