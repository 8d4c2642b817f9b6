import { z } from 'zod';

const JsonSchemaObject = z.record(z.string(), z.unknown());

/** One component or trait type as the catalog lists it. */
export const CatalogEntrySchema = z.object({
  name: z.string(),
  kind: z.enum(['component', 'trait']),
  namespace: z.string().describe('where the definition is defined (the system namespace for built-ins)'),
  description: z.string(),
  workloadKind: z.string().optional().describe('components: the kind of object the workload is'),
  workloadResource: z
    .string()
    .optional()
    .describe('components: the workload as traits name it in appliesTo, e.g. deployments.apps'),
  appliesTo: z
    .array(z.string())
    .describe('traits: workload kinds or component types it applies to; empty = any'),
  conflictsWith: z.array(z.string()),
  engine: z.enum(['cue', 'handlebars']),
});
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;

export const CatalogListSchema = z.object({ items: z.array(CatalogEntrySchema) });

export const CatalogDetailSchema = CatalogEntrySchema.extend({
  schema: JsonSchemaObject.describe(
    'the parameter schema as JSON Schema draft-07 (react-jsonschema-form reads it)',
  ),
  schemaSource: z
    .enum(['configmap', 'computed'])
    .describe('read from the schema ConfigMap the controller publishes, or computed because it is missing'),
  example: z.record(z.string(), z.unknown()).describe('`properties` that render without error'),
});
export type CatalogDetail = z.infer<typeof CatalogDetailSchema>;
