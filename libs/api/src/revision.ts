import { z } from 'zod';
import { API_VERSION, ObjectMetaSchema } from './meta.js';
import { ApplicationSchema } from './application.js';

/** An immutable snapshot of everything one render used; written by the controller. */
export const ApplicationRevisionSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  kind: z.literal('ApplicationRevision'),
  metadata: ObjectMetaSchema,
  spec: z.object({
    revision: z.number().int().min(1),
    application: ApplicationSchema.omit({ status: true }),
    components: z.array(z.record(z.string(), z.unknown())).optional(),
    traits: z.array(z.record(z.string(), z.unknown())).optional(),
    componentDefinitions: z.record(z.string(), z.unknown()).optional(),
    traitDefinitions: z.record(z.string(), z.unknown()).optional(),
    renderHash: z.string().optional(),
  }),
});
export type ApplicationRevision = z.infer<typeof ApplicationRevisionSchema>;
