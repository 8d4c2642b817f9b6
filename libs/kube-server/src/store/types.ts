/** A Kubernetes object as stored: plain JSON with metadata. */
export interface KubeObj {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
  [key: string]: unknown;
}

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change. `prev` is the object before it (undefined for ADDED); used to rebuild snapshots. */
export interface ChangeEvent {
  type: EventType;
  resource: string; // storage key, e.g. "apps/deployments"
  namespace: string;
  name: string;
  rv: number;
  object: KubeObj;
  prev?: KubeObj;
}

export interface StoredEntry {
  namespace: string;
  name: string;
  rv: number;
  object: KubeObj;
}

/** Where one object is stored: its storage key ("apps/deployments", "/pods"), namespace ('' if none) and name. */
export interface ObjectRef {
  resource: string;
  namespace: string;
  name: string;
}
