import { z } from 'zod';
import { ConditionSchema } from './meta.js';

/** KubeVela's `status.status` values, so its tools read ours. */
export const APPLICATION_PHASES = [
  'rendering',
  'runningWorkflow',
  'running',
  'unhealthy',
  'deleting',
] as const;
export type ApplicationPhase = (typeof APPLICATION_PHASES)[number];

/** The condition types the controller maintains on an Application. */
export const CONDITION_TYPES = [
  'Rendered',
  'Applied',
  'Healthy',
  'Ready',
  'Supported',
  'DependsOn',
  'Rollback',
] as const;

/** An object the controller applied, by identity: pruning deletes only what is recorded here with this UID. */
export const AppliedResourceSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  uid: z.string().optional(),
  /** The component that rendered it. */
  component: z.string().optional(),
  /** The trait type that rendered it; absent for the workload and the component's own outputs. */
  trait: z.string().optional(),
});
export type AppliedResource = z.infer<typeof AppliedResourceSchema>;

export const TraitHealthSchema = z.object({
  type: z.string(),
  healthy: z.boolean(),
  message: z.string().optional(),
});

/** One component's health, KubeVela's `status.services[]`. */
export const ServiceStatusSchema = z.object({
  name: z.string(),
  namespace: z.string().optional(),
  healthy: z.boolean(),
  message: z.string().optional(),
  workloadDefinition: z.object({ apiVersion: z.string(), kind: z.string() }).optional(),
  traits: z.array(TraitHealthSchema).optional(),
});
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

export const LatestRevisionSchema = z.object({
  name: z.string(),
  revision: z.number().int(),
  revisionHash: z.string().optional(),
});

/**
 * A component held back by `dependsOn`: not applied (or not updated) until
 * the components it waits for are healthy. The deadline counts from `since`,
 * per revision: a new revision starts a new wait.
 */
export const DependencyWaitSchema = z.object({
  component: z.string(),
  /** The components it depends on that are not healthy yet (or were just changed). */
  waitingFor: z.array(z.string()),
  /** RFC 3339 time the wait began. */
  since: z.string(),
  /** The revision the wait belongs to. */
  revision: z.number().int().optional(),
  /** Set once `--depends-on-timeout` passed: the controller gave up waiting and says so. */
  timedOut: z.boolean().optional(),
});
export type DependencyWait = z.infer<typeof DependencyWaitSchema>;

/**
 * A standalone Component or Trait the last successful render joined, at the
 * generation it rendered. `pinned`: a rollback holds it as a revision stored
 * it (no generation: a Trait that revision did not join, left out).
 * `rejected`: a Trait left out because its render failed.
 */
export const JoinedPartStatusSchema = z.object({
  kind: z.enum(['Component', 'Trait']),
  name: z.string(),
  generation: z.number().int().optional(),
  pinned: z.boolean().optional(),
  /** Set on a Trait the render blamed and left out: why (its properties do not validate, say). */
  rejected: z.string().optional(),
});
export type JoinedPartStatus = z.infer<typeof JoinedPartStatusSchema>;

/** The status of an Application (and of a standalone Component): KubeVela's shape plus conditions. */
export const ApplicationStatusSchema = z
  .object({
    status: z.enum(APPLICATION_PHASES).optional(),
    observedGeneration: z.number().int().optional(),
    conditions: z.array(ConditionSchema).optional(),
    services: z.array(ServiceStatusSchema).optional(),
    appliedResources: z.array(AppliedResourceSchema).optional(),
    latestRevision: LatestRevisionSchema.optional(),
    /** Components waiting for what they depend on (absent when none waits). */
    waiting: z.array(DependencyWaitSchema).optional(),
    /** The standalone Components and Traits its last successful render joined (absent when none). */
    joined: z.array(JoinedPartStatusSchema).optional(),
  })
  .loose();
export type ApplicationStatus = z.infer<typeof ApplicationStatusSchema>;
