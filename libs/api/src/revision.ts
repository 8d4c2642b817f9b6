import { z } from 'zod';
import { API_VERSION, ObjectMetaSchema, type OamObject } from './meta.js';
import { ApplicationSchema } from './application.js';

/**
 * What a revision made by a rollback keeps as it stored it, carried on to
 * the revisions after it while it holds. `definitions`: its stored
 * definitions render while the Application's inputs equal its stored
 * application. `components`/`traits`: name → the generation the live object
 * had when the pin was taken (0: there was none); the stored one renders
 * (a Trait stored without one: none renders) until that object changes.
 */
export const RevisionPinsSchema = z.object({
  definitions: z.boolean().optional(),
  components: z.record(z.string(), z.number().int()).optional(),
  traits: z.record(z.string(), z.number().int()).optional(),
});
export type RevisionPins = z.infer<typeof RevisionPinsSchema>;

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
    pinned: RevisionPinsSchema.optional(),
  }),
});
export type ApplicationRevision = OamObject<z.infer<typeof ApplicationRevisionSchema>>;

/** The name of revision `n` of an application: `<app>-v<n>`. */
export const revisionName = (app: string, n: number): string => `${app}-v${n}`;
