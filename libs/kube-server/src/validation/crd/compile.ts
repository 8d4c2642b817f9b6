/**
 * Per-version validators for a CRD's custom resources: ajv-compiled from each
 * version's openAPIV3Schema once, then reused for every object. CEL rules
 * (`x-kubernetes-validations`) are not evaluated.
 */
import { isJsonObject } from '#kube-core';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { type FieldCause, dedupe } from '../field-errors.js';
import { schemaErrorsToCauses } from '../schema-errors.js';
import { validateMetadataMaps } from '../checks/meta-checks.js';
import { applySchemaDefaults } from './defaults.js';
import { validateEmbeddedResources } from './embedded-resources.js';
import { validateListTypes } from './list-types.js';
import { pruneResource } from './prune.js';
import { type Json, type JsonSchemaProps } from './schema-types.js';
import { toAjvSchema } from './to-ajv.js';

export interface CustomResourceSchema {
  /** [] when valid; schema errors with kube-openapi's messages, plus embedded-resource and metadata checks. */
  validate(obj: object): FieldCause[];
  /** A copy without the fields the schema does not specify. */
  prune(obj: object): object;
  /** A copy with the schema's defaults filled in. */
  applyDefaults(obj: object): object;
  /** `applyDefaults(prune(obj))`, copying the object once: what a write stores. */
  pruneAndDefault(obj: object): object;
  /** The paths prune would drop, for fieldValidation=Strict/Warn. */
  unknownFields(obj: object): string[];
}

export interface CrdVersionSchemas {
  forVersion(version: string): CustomResourceSchema | undefined;
}

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** A version without a schema keeps everything, as kube treats it. */
const PRESERVE_ALL: JsonSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function newAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv;
}

function versionSchema(schema: JsonSchemaProps, validator: ValidateFunction): CustomResourceSchema {
  return {
    validate(obj) {
      const valid = validator(obj);
      const causes = valid ? [] : schemaErrorsToCauses(validator.errors ?? [], obj);
      causes.push(...validateListTypes(obj, schema));
      causes.push(...validateEmbeddedResources(obj, schema));
      causes.push(...validateMetadataMaps((obj as Json).metadata));
      return dedupe(causes);
    },
    prune: (obj) => pruneResource(obj, schema).pruned,
    applyDefaults: (obj) => applySchemaDefaults(obj, schema),
    pruneAndDefault: (obj) => applySchemaDefaults(pruneResource(obj, schema, false).pruned, schema),
    unknownFields: (obj) => pruneResource(obj, schema, false).dropped,
  };
}

function versionsOf(crd: object): Json[] {
  const spec = (crd as Json).spec;
  const versions = isJsonObject(spec) ? spec.versions : undefined;
  return Array.isArray(versions) ? versions.filter(isJsonObject) : [];
}

function compileVersion(ajv: Ajv, crdName: string, entry: Json): CustomResourceSchema {
  const declared = isJsonObject(entry.schema) ? entry.schema.openAPIV3Schema : undefined;
  const schema = (isJsonObject(declared) ? declared : PRESERVE_ALL) as JsonSchemaProps;
  try {
    return versionSchema(schema, ajv.compile(toAjvSchema(schema)));
  } catch (err) {
    const version = String(entry.name);
    throw new Error(
      `cannot compile the openAPIV3Schema of ${crdName} version ${version}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}

/**
 * The schemas of every version of a CRD, compiled once, here: a schema that
 * cannot compile throws now (naming the CRD and version), never mid-request.
 */
export function compileCrdSchemas(crd: object): CrdVersionSchemas {
  const crdName = String(((crd as Json).metadata as Json | undefined)?.name ?? '<unnamed CRD>');
  const ajv = newAjv();
  const byVersion = new Map<string, CustomResourceSchema>();
  for (const entry of versionsOf(structuredClone(crd))) {
    byVersion.set(String(entry.name), compileVersion(ajv, crdName, entry));
  }
  return { forVersion: (version) => byVersion.get(version) };
}
