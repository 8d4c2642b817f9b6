import { z } from 'zod';
import { API_VERSION, ObjectMetaSchema, PropertiesSchema, NameSchema, type OamObject } from './meta.js';
import { ApplicationStatusSchema } from './application-status.js';

/** A developer-owned component: deploys by itself unless an Application references it. */
export const ComponentSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  kind: z.literal('Component'),
  metadata: ObjectMetaSchema,
  spec: z.object({
    type: z.string().min(1),
    properties: PropertiesSchema.optional(),
    dependsOn: z.array(z.string()).optional(),
  }),
  status: ApplicationStatusSchema.optional(),
});
export type Component = OamObject<z.infer<typeof ComponentSchema>>;

/**
 * An operator-owned trait. Without `target.application` it attaches to the
 * standalone Component named `target.component`; with it, to that component
 * inside the named Application.
 */
export const TraitSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  kind: z.literal('Trait'),
  metadata: ObjectMetaSchema,
  spec: z.object({
    type: z.string().min(1),
    properties: PropertiesSchema.optional(),
    target: z.object({ component: NameSchema, application: NameSchema.optional() }),
  }),
  status: z
    .object({ observedGeneration: z.number().int().optional(), conditions: z.array(z.unknown()).optional() })
    .loose()
    .optional(),
});
export type Trait = OamObject<z.infer<typeof TraitSchema>>;
