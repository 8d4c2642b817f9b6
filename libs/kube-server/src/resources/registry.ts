import { BUILTIN_RESOURCES, storageKey, type ResourceInfo } from './builtin.js';

/** The lookups every request makes, built once per change of the served set. */
interface Index {
  all: ResourceInfo[];
  byPath: Map<string, ResourceInfo>;
  byKind: Map<string, ResourceInfo>;
  byStorage: Map<string, ResourceInfo>;
}

/** The resources served right now: the built-in table plus one entry per served CRD version. */
export class Registry {
  private byCrd = new Map<string, ResourceInfo[]>();
  /** Rebuilt on the first lookup after `setCrd`; every request looks a resource up. */
  private index?: Index;

  all(): ResourceInfo[] {
    return this.indexed().all;
  }

  find(group: string, version: string, plural: string): ResourceInfo | undefined {
    return this.indexed().byPath.get(`${group}/${version}/${plural}`);
  }

  /** Any served version of a kind (used for ownerReferences and apiVersion/kind checks). */
  findKind(group: string, kind: string): ResourceInfo | undefined {
    return this.indexed().byKind.get(`${group}/${kind}`);
  }

  /** The resource whose stored form lives under a storage key (any served version for CRDs). */
  byStorageKey(key: string): ResourceInfo | undefined {
    return this.indexed().byStorage.get(key);
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
    this.index = undefined;
  }

  private indexed(): Index {
    if (this.index) return this.index;
    const all = Object.freeze([...BUILTIN_RESOURCES, ...[...this.byCrd.values()].flat()]) as ResourceInfo[];
    const index: Index = { all, byPath: new Map(), byKind: new Map(), byStorage: new Map() };
    // The first entry wins, as the linear searches these replace did.
    const first = <K>(map: Map<K, ResourceInfo>, key: K, r: ResourceInfo) => {
      if (!map.has(key)) map.set(key, r);
    };
    for (const r of all) {
      first(index.byPath, `${r.group}/${r.version}/${r.plural}`, r);
      if (r.storage) continue;
      first(index.byKind, `${r.group}/${r.kind}`, r);
      first(index.byStorage, storageKey(r), r);
    }
    this.index = index;
    return index;
  }
}
