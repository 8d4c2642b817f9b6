import { z } from 'zod';
import { API_VERSION, ObjectMetaSchema, type OamObject } from './meta.js';

export const CueSchematicSchema = z.object({ template: z.string().min(1) });

/**
 * Our own engine for teams who do not want CUE: `template` renders a YAML map
 * with `output`, `outputs` and (traits) `patch`; `parameters` is a JSON Schema.
 */
export const HandlebarsSchematicSchema = z.object({
  template: z.string().min(1),
  parameters: z.record(z.string(), z.unknown()).optional(),
});

export const SchematicSchema = z
  .object({
    cue: CueSchematicSchema.optional(),
    handlebars: HandlebarsSchematicSchema.optional(),
  })
  .refine((s) => (s.cue ? 1 : 0) + (s.handlebars ? 1 : 0) === 1, {
    message: 'exactly one of schematic.cue or schematic.handlebars must be set',
  });
export type Schematic = z.infer<typeof SchematicSchema>;

export const DefinitionStatusSchema = z
  .object({
    healthPolicy: z.string().optional(),
    customStatus: z.string().optional(),
  })
  .loose();

export const ComponentDefinitionSpecSchema = z
  .object({
    workload: z
      .object({
        definition: z.object({ apiVersion: z.string(), kind: z.string() }).optional(),
        type: z.string().optional(),
      })
      .optional(),
    schematic: SchematicSchema,
    status: DefinitionStatusSchema.optional(),
    childResourceKinds: z.array(z.record(z.string(), z.unknown())).optional(),
    podSpecPath: z.string().optional(),
    revisionLabel: z.string().optional(),
  })
  .loose();

export const ComponentDefinitionSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  kind: z.literal('ComponentDefinition'),
  metadata: ObjectMetaSchema,
  spec: ComponentDefinitionSpecSchema,
});
export type ComponentDefinition = OamObject<z.infer<typeof ComponentDefinitionSchema>>;

export const TraitDefinitionSpecSchema = z
  .object({
    schematic: SchematicSchema,
    appliesToWorkloads: z.array(z.string()).optional(),
    conflictsWith: z.array(z.string()).optional(),
    podDisruptive: z.boolean().optional(),
    stage: z.string().optional(),
    workloadRefPath: z.string().optional(),
    revisionEnabled: z.boolean().optional(),
    status: DefinitionStatusSchema.optional(),
  })
  .loose();

export const TraitDefinitionSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  kind: z.literal('TraitDefinition'),
  metadata: ObjectMetaSchema,
  spec: TraitDefinitionSpecSchema,
});
export type TraitDefinition = OamObject<z.infer<typeof TraitDefinitionSchema>>;

export type Definition = ComponentDefinition | TraitDefinition;
