import { z } from 'zod';
import { ApplicationStatusSchema } from './application-status.js';
import { API_VERSION, NameSchema, ObjectMetaSchema, PropertiesSchema, type OamObject } from './meta.js';

export const ApplicationTraitSchema = z.object({
  type: z.string().min(1),
  properties: PropertiesSchema.optional(),
});
export type ApplicationTrait = z.infer<typeof ApplicationTraitSchema>;

/**
 * A component of an Application: inline (KubeVela's shape: `type`, `properties`,
 * `traits`) or a reference to a standalone Component object (`componentRef`).
 */
export const ApplicationComponentSchema = z
  .object({
    name: NameSchema,
    type: z.string().min(1).optional(),
    componentRef: NameSchema.optional(),
    properties: PropertiesSchema.optional(),
    traits: z.array(ApplicationTraitSchema).optional(),
    dependsOn: z.array(z.string()).optional(),
    inputs: z.array(z.record(z.string(), z.unknown())).optional(),
    outputs: z.array(z.record(z.string(), z.unknown())).optional(),
    externalRevision: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    if (c.type && c.componentRef) {
      ctx.addIssue({
        code: 'custom',
        message: 'set either type or componentRef, not both',
        path: ['componentRef'],
      });
    } else if (!c.type && !c.componentRef) {
      ctx.addIssue({ code: 'custom', message: 'required: type (or componentRef)', path: ['type'] });
    }
  });
export type ApplicationComponent = z.infer<typeof ApplicationComponentSchema>;

export const PolicySchema = z
  .object({ name: z.string(), type: z.string(), properties: PropertiesSchema.optional() })
  .loose();

/** Stored as given: this project does not run workflow steps yet. */
export const WorkflowSchema = z
  .object({
    steps: z.array(z.record(z.string(), z.unknown())).optional(),
    mode: z.record(z.string(), z.unknown()).optional(),
    ref: z.string().optional(),
  })
  .loose();

export const ApplicationSpecSchema = z.object({
  components: z.array(ApplicationComponentSchema).min(1),
  policies: z.array(PolicySchema).optional(),
  workflow: WorkflowSchema.optional(),
});

export const ObjectRefSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
});
export type ObjectRef = z.infer<typeof ObjectRefSchema>;

export const ApplicationSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  kind: z.literal('Application'),
  metadata: ObjectMetaSchema,
  spec: ApplicationSpecSchema,
  status: ApplicationStatusSchema.optional(),
});
export type Application = OamObject<z.infer<typeof ApplicationSchema>>;
