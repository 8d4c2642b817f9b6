import { z } from 'zod';
import { API_VERSION, GROUP, VERSION } from '../meta.js';
import { OAM_KINDS, type KindInfo } from '../kinds.js';
import { toStructural } from './structural.js';

/** A CustomResourceDefinition (apiextensions.k8s.io/v1) for one OAM kind, derived from its zod schema. */
export function crdFor(info: KindInfo): Record<string, unknown> {
  const json = z.toJSONSchema(info.schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const structural = toStructural(json);
  const properties = { ...(structural.properties as Record<string, unknown>) };
  // The API server owns metadata's schema; CRDs may only say it is an object.
  properties.metadata = { type: 'object' };
  const hasStatus = 'status' in properties;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${info.plural}.${GROUP}` },
    spec: {
      group: GROUP,
      names: {
        kind: info.kind,
        listKind: `${info.kind}List`,
        plural: info.plural,
        singular: info.singular,
        shortNames: info.shortNames,
        categories: ['oam'],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties, required: structural.required } },
          ...(hasStatus ? { subresources: { status: {} } } : {}),
          additionalPrinterColumns: info.printerColumns,
        },
      ],
    },
  };
}

export function generateCrds(): Record<string, unknown>[] {
  return OAM_KINDS.map(crdFor);
}

/**
 * One JSON Schema for editors (e.g. yaml-language-server): a file holding
 * any OAM kind validates against the schema its `kind` selects.
 */
export function generateEditorSchema(): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (const info of OAM_KINDS) {
    const json = z.toJSONSchema(info.schema, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    delete json.$schema;
    defs[info.kind] = json;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://oam.dev/schemas/oam.schema.json',
    title: `OAM ${API_VERSION} objects`,
    type: 'object',
    required: ['apiVersion', 'kind'],
    oneOf: OAM_KINDS.map((k) => ({ $ref: `#/$defs/${k.kind}` })),
    $defs: defs,
  };
}
