import type { z } from 'zod';
import { ApplicationSchema } from './application.js';
import { ComponentSchema, TraitSchema } from './component.js';
import { ComponentDefinitionSchema, TraitDefinitionSchema } from './definitions.js';
import { ApplicationRevisionSchema } from './revision.js';
import { DESCRIPTION_ANNOTATION } from './labels.js';

/** Everything the CRDs, the JSON Schemas and the parser need to know about each kind. */
export interface KindInfo {
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  schema: z.ZodType;
  /** Columns `kubectl get` prints (CRD additionalPrinterColumns). */
  printerColumns: { name: string; type: string; jsonPath: string; description?: string }[];
}

const age = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const description = {
  name: 'Description',
  type: 'string',
  jsonPath: `.metadata.annotations['${DESCRIPTION_ANNOTATION.replaceAll('.', '\\.')}']`,
};

export const OAM_KINDS: readonly KindInfo[] = [
  {
    kind: 'Application',
    plural: 'applications',
    singular: 'application',
    shortNames: ['app'],
    schema: ApplicationSchema,
    printerColumns: [
      // KubeVela's columns, so `kubectl get app` reads the same on both.
      { name: 'Component', type: 'string', jsonPath: '.spec.components[*].name' },
      { name: 'Type', type: 'string', jsonPath: '.spec.components[*].type' },
      { name: 'Phase', type: 'string', jsonPath: '.status.status' },
      { name: 'Healthy', type: 'boolean', jsonPath: '.status.services[*].healthy' },
      { name: 'Status', type: 'string', jsonPath: '.status.services[*].message' },
      age,
    ],
  },
  {
    kind: 'Component',
    plural: 'components',
    singular: 'component',
    shortNames: ['comp'],
    schema: ComponentSchema,
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.type' },
      { name: 'Phase', type: 'string', jsonPath: '.status.status' },
      age,
    ],
  },
  {
    kind: 'Trait',
    plural: 'traits',
    singular: 'trait',
    shortNames: ['trait'],
    schema: TraitSchema,
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.type' },
      { name: 'Component', type: 'string', jsonPath: '.spec.target.component' },
      { name: 'Application', type: 'string', jsonPath: '.spec.target.application' },
      age,
    ],
  },
  {
    kind: 'ComponentDefinition',
    plural: 'componentdefinitions',
    singular: 'componentdefinition',
    shortNames: ['comp-def', 'def'],
    schema: ComponentDefinitionSchema,
    printerColumns: [
      { name: 'Workload-Kind', type: 'string', jsonPath: '.spec.workload.definition.kind' },
      description,
      age,
    ],
  },
  {
    kind: 'TraitDefinition',
    plural: 'traitdefinitions',
    singular: 'traitdefinition',
    shortNames: ['trait-def'],
    schema: TraitDefinitionSchema,
    printerColumns: [
      { name: 'Applies-To', type: 'string', jsonPath: '.spec.appliesToWorkloads' },
      description,
      age,
    ],
  },
  {
    kind: 'ApplicationRevision',
    plural: 'applicationrevisions',
    singular: 'applicationrevision',
    shortNames: ['apprev'],
    schema: ApplicationRevisionSchema,
    printerColumns: [{ name: 'Revision', type: 'integer', jsonPath: '.spec.revision' }, age],
  },
];

export function kindInfo(kind: string): KindInfo | undefined {
  return OAM_KINDS.find((k) => k.kind === kind);
}
