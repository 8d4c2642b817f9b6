import type { OwnerReference } from '#kube-core';
import { z } from 'zod';

/** The API group and version every OAM kind in this project is served under. */
export const GROUP = 'core.oam.dev';
export const VERSION = 'v1beta1';
export const API_VERSION = `${GROUP}/${VERSION}`;

/** A DNS-1123 label: what Kubernetes accepts as most object names. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1123 subdomain: what Kubernetes accepts as names of most namespaced objects. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const NameSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(DNS1123_SUBDOMAIN, 'must be a lowercase RFC 1123 subdomain (a-z, 0-9, "-" and ".")');

export const ObjectMetaSchema = z
  .object({
    name: NameSchema.optional(),
    generateName: z.string().optional(),
    namespace: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
    uid: z.string().optional(),
    resourceVersion: z.string().optional(),
    generation: z.number().int().optional(),
    creationTimestamp: z.string().optional(),
    deletionTimestamp: z.string().optional(),
    finalizers: z.array(z.string()).optional(),
    ownerReferences: z.array(z.record(z.string(), z.unknown())).optional(),
    managedFields: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .loose();

/**
 * An OAM object's type: what its schema checks, with metadata.ownerReferences
 * as the API server guarantees them (apiVersion, kind, name and uid; the
 * schema leaves them free-form), so that the object is a #kube-core KubeObject
 * and a ResourceKind<T> of it types clients and informers. Types only: what
 * the schema accepts does not change.
 */
export type OamObject<Parsed extends { metadata: object }> = {
  [K in keyof Parsed]: K extends 'metadata' ? WithOwnerReferences<Parsed[K]> : Parsed[K];
};
type WithOwnerReferences<Meta> = {
  [K in keyof Meta as K extends 'ownerReferences' ? never : K]: Meta[K];
} & { ownerReferences?: OwnerReference[] };

/** Free-form properties: whatever a definition's parameter schema accepts. */
export const PropertiesSchema = z.record(z.string(), z.unknown());

/** A Kubernetes API condition, as in the API conventions. */
export const ConditionSchema = z.object({
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
  observedGeneration: z.number().int().optional(),
});
export type Condition = z.infer<typeof ConditionSchema>;
