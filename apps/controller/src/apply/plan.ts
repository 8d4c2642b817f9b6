import type { AppliedResource } from '#api';
import type { RenderedApp } from '#renderer';
import type { Client, ResourceKind, RestMapper } from '#runtime';
import { type KubeObject } from '#kube-core';
import type { OwnedWatches } from '../host/owned-watches.js';
import { errorMessage, type ApplyOutcome } from './applier.js';
import { identityKey } from './identity.js';
import { buildIntent, type Intent } from './intent.js';

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
    planned.push({ intent: buildIntent(r, kind, app, live !== undefined), live });
  }
  deps.watches.keep(app, kinds);
  return { planned, failed };
}

/**
 * Objects about to be created that cannot carry an ownerReference, not yet
 * recorded: they are recorded (without UID) before they exist, so a crash
 * between creating them and writing status leaves no orphan.
 */
export function unrecordedUnowned(
  planned: readonly Planned[],
  recorded: readonly AppliedResource[],
): AppliedResource[] {
  const known = new Set(
    recorded.map((r) => identityKey({ ...r, metadata: { name: r.name, namespace: r.namespace } })),
  );
  return planned
    .filter((p) => !p.intent.owned && !p.live && !known.has(identityKey(p.intent.object)))
    .map((p) => ({
      apiVersion: p.intent.object.apiVersion!,
      kind: p.intent.object.kind!,
      ...(p.intent.object.metadata?.namespace ? { namespace: p.intent.object.metadata.namespace } : {}),
      name: p.intent.object.metadata!.name!,
      component: p.intent.component,
      ...(p.intent.trait ? { trait: p.intent.trait } : {}),
    }));
}
