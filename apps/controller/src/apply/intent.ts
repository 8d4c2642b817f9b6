import { type RenderedObject } from '#renderer';
import { deepCopy, deepFreeze, hashOf, type KubeObject, ownerReferenceTo } from '#kube-core';
import { type ResourceKind } from '#runtime';
import { ANNOTATIONS } from '#api';

/** One object the controller wants, ready for server-side apply. */
export interface Intent {
  kind: ResourceKind;
  object: KubeObject;
  /** Field paths another manager owns once the object exists (an HPA's `spec.replicas`). */
  handOver: string[][];
  /** Whether it carries an ownerReference to the application (else it is only recorded in status). */
  owned: boolean;
  component: string;
  trait?: string;
}

/**
 * The applied intent of a rendered object: the namespace fixed by scope, an
 * ownerReference to the application when the object lives in its namespace
 * (cluster-scoped and other-namespace objects cannot carry one), fields
 * handed to another manager left out once the object exists, and a hash of
 * all that so an unchanged intent is never sent twice.
 */
export function buildIntent(
  rendered: RenderedObject,
  kind: ResourceKind,
  app: KubeObject,
  liveExists: boolean,
): Intent {
  const object = deepCopy(rendered.object) as KubeObject;
  const meta = (object.metadata ??= {});
  if (!kind.namespaced) delete meta.namespace;
  else meta.namespace ??= app.metadata!.namespace;
  const owned = kind.namespaced && meta.namespace === app.metadata!.namespace;
  if (owned) meta.ownerReferences = [ownerReferenceTo(app, { controller: true, blockOwnerDeletion: true })];
  else delete meta.ownerReferences; // a reference across namespaces would be garbage-collected at once
  const handOver = liveExists ? rendered.omitOnApply : [];
  for (const path of handOver) deletePath(object, path);
  if (handOver.length > 0)
    meta.annotations = {
      ...meta.annotations,
      [ANNOTATIONS.handedOver]: handOver.map((p) => p.join('.')).join(','),
    };
  meta.annotations = { ...meta.annotations, [ANNOTATIONS.appliedHash]: hashOf(object).slice(0, 16) };
  return {
    kind,
    object,
    handOver,
    owned,
    component: rendered.component,
    trait: rendered.role === 'trait' ? rendered.traitType : undefined,
  };
}

/**
 * Each frozen rendered object's last intent (a kept render or a render-cache
 * entry: unchanged while it lives), with what else shaped it. A reconcile of
 * an unchanged render then copies and hashes nothing; the intent is frozen,
 * so no caller can change what the next one gets.
 */
const lastIntent = new WeakMap<RenderedObject, { key: string; intent: Intent }>();

/** `buildIntent`, kept per frozen rendered object (a new object, or one that is not frozen, is built anew). */
export function intentFor(
  rendered: RenderedObject,
  kind: ResourceKind,
  app: KubeObject,
  liveExists: boolean,
): Intent {
  if (!Object.isFrozen(rendered) || !Object.isFrozen(rendered.object))
    return buildIntent(rendered, kind, app, liveExists);
  const m = app.metadata;
  const key = JSON.stringify([
    kind.group,
    kind.version,
    kind.plural,
    kind.kind,
    kind.namespaced,
    app.apiVersion,
    app.kind,
    m?.namespace,
    m?.name,
    m?.uid,
    // Whether the object exists matters only to fields handed over (left out once it does).
    rendered.omitOnApply.length > 0 && liveExists,
  ]);
  const held = lastIntent.get(rendered);
  if (held?.key === key) return held.intent;
  const built = buildIntent(rendered, kind, app, liveExists);
  // The kind is the mapper's own object: not frozen here.
  const intent = Object.freeze({
    ...built,
    object: deepFreeze(built.object),
    handOver: deepFreeze(built.handOver),
  });
  lastIntent.set(rendered, { key, intent });
  return intent;
}

export function deletePath(obj: Record<string, unknown>, path: readonly string[]): void {
  let cur: unknown = obj;
  for (const key of path.slice(0, -1)) {
    if (!cur || typeof cur !== 'object') return;
    cur = (cur as Record<string, unknown>)[key];
  }
  if (cur && typeof cur === 'object') delete (cur as Record<string, unknown>)[path[path.length - 1]];
}

export function getPath(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
