import type { AppliedResource } from '#api';
import type { Client } from '#runtime';
import { type KubeObject } from '#kube-core';
import { ANNOTATIONS } from '#api';
import { handOverFields } from './handover.js';
import type { Intent } from './intent.js';
import { ownershipConflict } from './ownership.js';
import { isSubset } from './subset.js';

export interface ApplyOutcome {
  intent: Intent;
  /** `waiting`: not applied, held back by dependsOn (reconcile/depends-on.ts). */
  result: 'applied' | 'unchanged' | 'conflict' | 'failed' | 'waiting';
  /** The object's identity after the apply (the live one when unchanged). */
  applied?: AppliedResource;
  message?: string;
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
): Promise<ApplyOutcome> {
  if (live) {
    const recorded = live.metadata?.uid !== undefined && recordedUids.has(live.metadata.uid);
    const conflict = recorded || adopt?.(live) ? undefined : ownershipConflict(live, app);
    if (conflict) return { intent, result: 'conflict', message: conflict };
    if (isUpToDate(intent, live)) return { intent, result: 'unchanged', applied: identity(intent, live) };
  }
  try {
    if (live) await handOverFields(client, intent, live);
    const out = await client.apply(intent.kind, intent.object, { force: true });
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

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
