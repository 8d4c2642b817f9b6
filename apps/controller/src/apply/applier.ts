import type { AppliedResource } from '#api';
import type { Client } from '#runtime';
import { type KubeObject } from '#kube-core';
import { ANNOTATIONS } from '#api';
import { errorMessage } from '../errors.js';
import { handOverFields } from './handover.js';
import type { Intent } from './intent.js';
import { ownershipConflict } from './ownership.js';
import { identityKey } from './identity.js';
import { firstDifference, isSubset } from './subset.js';
import type { WriteStreaks } from './write-streaks.js';

export interface ApplyOutcome {
  intent: Intent;
  /** `waiting`: not applied, held back by the workflow; `notPersisted`: not written, its writes do not stick. */
  result: 'applied' | 'unchanged' | 'conflict' | 'failed' | 'waiting' | 'notPersisted';
  /** The object's identity after the apply (the live one when unchanged). */
  applied?: AppliedResource;
  message?: string;
  /** For `notPersisted`: when it may be written again. */
  retryAtMs?: number;
}

/**
 * Applies each intent with server-side apply (forced: a field the
 * controller manages that someone else changed is put back; fields it does
 * not manage stay). Skips an intent whose hash matches the live object's
 * and whose fields all still hold, so a steady state makes no write.
 */
export async function applyIntent(
  client: Client,
  intent: Intent,
  live: KubeObject | undefined,
  app: KubeObject,
  recordedUids: ReadonlySet<string>,
  /** Whether `app` may take over a live object someone else controls (a Component's objects moving in place). */
  adopt?: (live: KubeObject) => boolean,
  /** Writes that did not stick, so an object another party keeps changing is not written endlessly. */
  streaks?: WriteStreaks,
): Promise<ApplyOutcome> {
  if (live) {
    const recorded = live.metadata?.uid !== undefined && recordedUids.has(live.metadata.uid);
    const conflict = recorded || adopt?.(live) ? undefined : ownershipConflict(live, app);
    if (conflict) return { intent, result: 'conflict', message: conflict };
    if (isUpToDate(intent, live)) return { intent, result: 'unchanged', applied: identity(intent, live) };
  }
  const key = streaks && `${app.metadata?.uid}|${identityKey(intent.object)}`;
  const liveVersion = live?.metadata?.resourceVersion;
  if (streaks && key) {
    const verdict = streaks.beforeWrite(
      key,
      intent.object.metadata?.annotations?.[ANNOTATIONS.appliedHash] ?? '',
      liveVersion,
    );
    if (!verdict.write) return notPersisted(intent, live, verdict.lost, verdict.retryAtMs);
  }
  try {
    if (live) await handOverFields(client, intent, live);
    const out = await client.apply(intent.kind, intent.object, { force: true });
    if (streaks && key) streaks.wrote(key, liveVersion);
    return { intent, result: 'applied', applied: identity(intent, out) };
  } catch (err) {
    return { intent, result: 'failed', message: `${describe(intent.object)}: ${errorMessage(err)}` };
  }
}

/** The live object already holds the intent: same applied hash, every field still as applied. */
export function isUpToDate(intent: Intent, live: KubeObject | undefined): boolean {
  const hash = intent.object.metadata?.annotations?.[ANNOTATIONS.appliedHash];
  return live?.metadata?.annotations?.[ANNOTATIONS.appliedHash] === hash && isSubset(intent.object, live);
}

/** An intent not written because its writes do not stick: says which field, and when it is tried again. */
function notPersisted(
  intent: Intent,
  live: KubeObject | undefined,
  lost: number,
  retryAtMs: number,
): ApplyOutcome {
  const path = live ? firstDifference(intent.object, live) : undefined;
  const what = path ? path.join('.') : 'the object';
  return {
    intent,
    result: 'notPersisted',
    ...(live ? { applied: identity(intent, live) } : {}),
    message: `${describe(intent.object)}: ${what} does not persist (${lost} writes did not stick); not written until ${new Date(retryAtMs).toISOString()}`,
    retryAtMs,
  };
}

function identity(intent: Intent, obj: KubeObject): AppliedResource {
  return {
    apiVersion: intent.object.apiVersion!,
    kind: intent.object.kind!,
    ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
    name: obj.metadata!.name!,
    uid: obj.metadata?.uid,
    component: intent.component,
    ...(intent.trait ? { trait: intent.trait } : {}),
  };
}

export function describe(obj: KubeObject): string {
  const ns = obj.metadata?.namespace ? `${obj.metadata.namespace}/` : '';
  return `${obj.kind} "${ns}${obj.metadata?.name}"`;
}
