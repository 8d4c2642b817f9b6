import { BUILTIN_RESOURCES, storageKey, type ResourceInfo } from './builtin.js';

/** The resources served right now: the built-in table plus one entry per served CRD version. */
export class Registry {
  private byCrd = new Map<string, ResourceInfo[]>();

  all(): ResourceInfo[] {
    return [...BUILTIN_RESOURCES, ...[...this.byCrd.values()].flat()];
  }

  find(group: string, version: string, plural: string): ResourceInfo | undefined {
    return this.all().find((r) => r.group === group && r.version === version && r.plural === plural);
  }

  /** Any served version of a kind (used for ownerReferences and apiVersion/kind checks). */
  findKind(group: string, kind: string): ResourceInfo | undefined {
    return this.all().find((r) => r.group === group && r.kind === kind && !r.storage);
  }

  /** The resource whose stored form lives under a storage key (any served version for CRDs). */
  byStorageKey(key: string): ResourceInfo | undefined {
    return this.all().find((r) => !r.storage && storageKey(r) === key);
  }

  /** group → versions (preferred first) in discovery order. */
  groups(): Map<string, string[]> {
    const groups = new Map<string, string[]>();
    for (const r of this.all()) {
      const versions = groups.get(r.group) ?? [];
      if (!versions.includes(r.version)) versions.push(r.version);
      groups.set(r.group, versions);
    }
    return groups;
  }

  setCrd(crdName: string, resources: ResourceInfo[]): void {
    if (resources.length) this.byCrd.set(crdName, resources);
    else this.byCrd.delete(crdName);
  }
}
