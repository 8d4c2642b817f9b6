import type { AppliedResource } from '#api';
import type { RenderedApp } from '#renderer';
import type { Client, ResourceKind, RestMapper } from '#runtime';
import { isControlledBy, type KubeObject } from '#kube-core';
import type { OwnedWatches } from '../host/owned-watches.js';
import { errorMessage } from '../errors.js';
import type { ApplyOutcome } from './applier.js';
import { identityKey } from './identity.js';
import { buildIntent, intentFor, type Intent } from './intent.js';

export interface Planned {
  intent: Intent;
  live?: KubeObject;
}

/**
 * Maps each rendered object to its resource, reads its live state from the
 * cache and builds its intent; the app's watches then follow the kinds
 * rendered (new ones started, dropped ones released). A kind the server does
 * not serve fails that object only.
 */
export async function planIntents(
  rendered: RenderedApp,
  app: KubeObject,
  deps: { client: Client; mapper: RestMapper; watches: OwnedWatches },
): Promise<{ planned: Planned[]; failed: ApplyOutcome[] }> {
  const planned: Planned[] = [];
  const failed: ApplyOutcome[] = [];
  const kinds: ResourceKind[] = [];
  for (const r of rendered.objects) {
    let kind;
    try {
      kind = await deps.mapper.kindFor(r.object);
    } catch (err) {
      const unknown = { group: '', version: '', plural: '', kind: r.object.kind, namespaced: true };
      failed.push({
        intent: buildIntent(r, unknown, app, false),
        result: 'failed',
        message: errorMessage(err),
      });
      continue;
    }
    kinds.push(kind);
    const ns = kind.namespaced ? (r.object.metadata?.namespace ?? app.metadata?.namespace) : undefined;
    const live = await deps.client.get(kind, ns, r.object.metadata!.name!);
    planned.push({ intent: intentFor(r, kind, app, live !== undefined), live });
  }
  deps.watches.keep(app, kinds);
  return { planned, failed };
}

/**
 * Objects about to be created (or, by the cache, already this owner's)
 * that are not recorded yet: they are recorded (without UID) before they
 * are applied, so an object is never created unrecorded. Otherwise a crash,
 * or a 409 on the status write because the spec moved on, between the create
 * and the status write leaves an object the next spec may no longer want and
 * prune never sees (an ownerReference removes it only with its owner).
 */
export function unrecorded(
  planned: readonly Planned[],
  recorded: readonly AppliedResource[],
  owner: KubeObject,
): AppliedResource[] {
  const known = new Set(
    recorded.map((r) => identityKey({ ...r, metadata: { name: r.name, namespace: r.namespace } })),
  );
  return planned
    .filter((p) => !p.live || isControlledBy(p.live, owner.metadata!.uid!))
    .filter((p) => !known.has(identityKey(p.intent.object)))
    .map((p) => ({
      apiVersion: p.intent.object.apiVersion!,
      kind: p.intent.object.kind!,
      ...(p.intent.object.metadata?.namespace ? { namespace: p.intent.object.metadata.namespace } : {}),
      name: p.intent.object.metadata!.name!,
      component: p.intent.component,
      ...(p.intent.trait ? { trait: p.intent.trait } : {}),
    }));
}
