import type { Client } from '#runtime';
import { type KubeObject } from '#kube-core';
import { ANNOTATIONS, FIELD_MANAGERS } from '#api';
import { getPath, type Intent } from './intent.js';

/**
 * Server-side apply removes a field that drops out of a manager's applied
 * configuration when no other manager owns it: the Deployment would fall
 * back to 1 replica until the HPA acts. So before the controller stops
 * applying a field, a second manager applies its live value; the field then
 * stays, and the HPA takes it over on its first change. Done once per
 * hand-over (the live object's annotation records it).
 */
export async function handOverFields(client: Client, intent: Intent, live: KubeObject): Promise<void> {
  if (intent.handOver.length === 0) return;
  const done = intent.object.metadata?.annotations?.[ANNOTATIONS.handedOver];
  if (live.metadata?.annotations?.[ANNOTATIONS.handedOver] === done) return;
  const patch: Record<string, unknown> = {
    apiVersion: live.apiVersion,
    kind: live.kind,
    metadata: {
      name: live.metadata!.name,
      ...(live.metadata!.namespace ? { namespace: live.metadata!.namespace } : {}),
    },
  };
  let any = false;
  for (const path of intent.handOver) {
    const value = getPath(live, path);
    if (value === undefined) continue;
    setPath(patch, path, value);
    any = true;
  }
  if (!any) return;
  await client.apply(intent.kind, patch as KubeObject, {
    fieldManager: FIELD_MANAGERS.handover,
    force: true,
  });
}

function setPath(obj: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let cur = obj;
  for (const key of path.slice(0, -1)) cur = (cur[key] ??= {}) as Record<string, unknown>;
  cur[path[path.length - 1]] = value;
}
