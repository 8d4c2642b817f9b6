/**
 * Kubernetes objects as plain JSON: the meta types every lib shares. Only
 * metadata is typed; everything else in an object is opaque here.
 */

/** A reference from a dependent to its owner (metadata.ownerReferences[]). */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** metadata: the fields the API server and controllers read; unknown fields are kept. */
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
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
  [key: string]: unknown;
}

/**
 * Any Kubernetes object. apiVersion and kind are optional because the items of
 * a typed list arrive without them; use `TypedObject` where they are known.
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [key: string]: unknown;
}

/** An object as the API server stores and serves it: metadata is always there. */
export interface StoredObject extends KubeObject {
  metadata: ObjectMeta;
}

/** A Kubernetes object whose apiVersion and kind are known (what templates render). */
export interface TypedObject extends KubeObject {
  apiVersion: string;
  kind: string;
}

/** A JSON object: what `Obj`, `JsonMap` and `JsonObject` meant in the copies this replaces. */
export type JsonObject = Record<string, unknown>;
