import type { KubeObject } from '#kube-core';

/**
 * Filters events before they become requests (controller-runtime predicate
 * package). A missing method means "let it through".
 */
export interface Predicate<T extends KubeObject = KubeObject> {
  create?(obj: T): boolean;
  update?(oldObj: T, newObj: T): boolean;
  delete?(obj: T): boolean;
}

/** Updates pass only when metadata.generation changed (spec changes, not status or metadata-only writes). */
export function generationChanged<T extends KubeObject>(): Predicate<T> {
  return { update: (o, n) => o.metadata?.generation !== n.metadata?.generation };
}

/** Updates pass only when labels changed. */
export function labelChanged<T extends KubeObject>(): Predicate<T> {
  return { update: (o, n) => !sameRecord(o.metadata?.labels, n.metadata?.labels) };
}

/** Updates pass only when annotations changed. */
export function annotationChanged<T extends KubeObject>(): Predicate<T> {
  return { update: (o, n) => !sameRecord(o.metadata?.annotations, n.metadata?.annotations) };
}

/** Drops the resyncs and re-list replays that carry no change. */
export function resourceVersionChanged<T extends KubeObject>(): Predicate<T> {
  return { update: (o, n) => o.metadata?.resourceVersion !== n.metadata?.resourceVersion };
}

/** Any of the predicates (per event kind). */
export function or<T extends KubeObject>(...ps: Predicate<T>[]): Predicate<T> {
  return {
    create: (o) => ps.some((p) => p.create?.(o) ?? true),
    update: (o, n) => ps.some((p) => p.update?.(o, n) ?? true),
    delete: (o) => ps.some((p) => p.delete?.(o) ?? true),
  };
}

/** A custom predicate from one function applied to the (new) object of every event. */
export function matching<T extends KubeObject>(fn: (obj: T) => boolean): Predicate<T> {
  return { create: fn, update: (_o, n) => fn(n), delete: fn };
}

export function passesCreate<T extends KubeObject>(ps: readonly Predicate<T>[], obj: T): boolean {
  return ps.every((p) => p.create?.(obj) ?? true);
}
export function passesUpdate<T extends KubeObject>(ps: readonly Predicate<T>[], o: T, n: T): boolean {
  return ps.every((p) => p.update?.(o, n) ?? true);
}
export function passesDelete<T extends KubeObject>(ps: readonly Predicate<T>[], obj: T): boolean {
  return ps.every((p) => p.delete?.(obj) ?? true);
}

function sameRecord(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => a![k] === b?.[k]);
}
