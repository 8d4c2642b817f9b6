import { dropManagedFields, type KubeObject } from '#kube-core';

/**
 * What the controller's informer caches keep of each object: managedFields
 * dropped (the runtime's default), and the definitions stored in
 * ApplicationRevisions shared. Every revision stores each definition it used
 * in full (webservice alone is ~20 KB), so 1,000 applications' revisions held
 * the same few definitions 1,000 times over; equal ones are now kept once.
 */
export function controllerCacheTransform(): (obj: KubeObject) => KubeObject {
  const shared = new SharedValues();
  return (obj) => {
    const o = dropManagedFields(obj);
    if (o.kind !== 'ApplicationRevision' || !isRecord(o.spec)) return o;
    const spec = { ...o.spec };
    for (const key of ['componentDefinitions', 'traitDefinitions']) {
      const defs = spec[key];
      if (!isRecord(defs)) continue;
      spec[key] = Object.fromEntries(Object.entries(defs).map(([name, d]) => [name, shared.intern(d)]));
    }
    return { ...o, spec };
  };
}

/**
 * Equal JSON values (written in the same key order) as one object, while something holds it: entries are
 * weak, so a definition no cached revision stores any more is collected.
 */
export class SharedValues {
  private readonly byJson = new Map<string, WeakRef<object>>();
  private readonly cleanup = new FinalizationRegistry<string>((json) => {
    if (this.byJson.get(json)?.deref() === undefined) this.byJson.delete(json);
  });

  intern<T>(value: T): T {
    if (value === null || typeof value !== 'object') return value;
    // Plain JSON, not stable: equal text is an equal value. Revisions store definitions as this
    // controller wrote them (in one key order), so equal ones are still found, at a third of the cost.
    const json = JSON.stringify(value);
    const held = this.byJson.get(json)?.deref();
    if (held) return held as T;
    this.byJson.set(json, new WeakRef(value));
    this.cleanup.register(value, json);
    return value;
  }

  get size(): number {
    return this.byJson.size;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
