import type { StoredObject } from '#kube-core';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change. `prev` is the object before it (undefined for ADDED); used to rebuild snapshots. */
export interface ChangeEvent {
  type: EventType;
  resource: string; // storage key, e.g. "apps/deployments"
  namespace: string;
  name: string;
  rv: number;
  object: StoredObject;
  prev?: StoredObject;
}

export interface StoredEntry {
  namespace: string;
  name: string;
  rv: number;
  object: StoredObject;
}

/** Where one object is stored: its storage key ("apps/deployments", "/pods"), namespace ('' if none) and name. */
export interface ObjectRef {
  resource: string;
  namespace: string;
  name: string;
}
