import { z } from 'zod';
import { ConditionSchema } from '#api';
import { FieldErrorSchema } from '../http/problem.js';

export const ObjectRefViewSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  trait: z.string().optional().describe('the trait type that rendered it; absent for the workload'),
});

/** One component in the health tree. */
export const ComponentViewSchema = z.object({
  name: z.string(),
  type: z.string().optional(),
  healthy: z.boolean().optional().describe('absent until the controller has observed it'),
  message: z.string().optional(),
  traits: z.array(
    z.object({ type: z.string(), healthy: z.boolean().optional(), message: z.string().optional() }),
  ),
  objects: z.array(ObjectRefViewSchema),
});

/** An Application as the list, the watch stream and the status endpoint show it: the health tree. */
export const ApplicationViewSchema = z.object({
  name: z.string(),
  namespace: z.string(),
  uid: z.string().optional(),
  resourceVersion: z.string(),
  generation: z.number().int().optional(),
  observedGeneration: z.number().int().optional(),
  createdAt: z.string().optional(),
  deleting: z.boolean(),
  phase: z
    .string()
    .optional()
    .describe('status.status: rendering, runningWorkflow, running, unhealthy, deleting'),
  healthy: z.boolean().optional(),
  revision: z.number().int().optional(),
  components: z.array(ComponentViewSchema),
  conditions: z.array(ConditionSchema),
});
export type ApplicationView = z.infer<typeof ApplicationViewSchema>;

export const ApplicationListSchema = z.object({ items: z.array(ApplicationViewSchema) });

export const WatchEventSchema = z
  .object({
    type: z.enum(['ADDED', 'MODIFIED', 'DELETED']),
    application: ApplicationViewSchema,
  })
  .describe('one Server-Sent Event: `event:` is the type, `data:` this JSON');

export const LiveObjectSchema = z.object({
  ref: ObjectRefViewSchema.extend({ component: z.string().optional() }),
  object: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('absent when it does not exist (yet), for Secrets (never read), and when it cannot be read'),
  error: z.string().optional().describe('why it could not be read'),
});
export const ResourcesSchema = z.object({ items: z.array(LiveObjectSchema) });

export const RevisionViewSchema = z.object({
  name: z.string(),
  revision: z.number().int(),
  createdAt: z.string().optional(),
  changeSummary: z.string().optional(),
  current: z.boolean(),
});
export const RevisionListSchema = z.object({ items: z.array(RevisionViewSchema) });

export const RollbackRequestSchema = z.object({ revision: z.number().int().min(1) });

export const EventViewSchema = z.object({
  type: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  object: z.object({ kind: z.string().optional(), name: z.string().optional() }),
  count: z.number().int().optional(),
  firstTimestamp: z.string().optional(),
  lastTimestamp: z.string().optional(),
});
export const EventListSchema = z.object({ items: z.array(EventViewSchema) });

export const PreviewResultSchema = z.object({
  objects: z.array(
    z.object({
      component: z.string(),
      role: z.enum(['workload', 'trait']),
      trait: z.string().optional(),
      object: z.record(z.string(), z.unknown()),
    }),
  ),
  warnings: z.array(FieldErrorSchema),
});
