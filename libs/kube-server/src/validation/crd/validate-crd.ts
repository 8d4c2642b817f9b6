/**
 * The CustomResourceDefinition object itself, checked as apiextensions-apiserver's
 * ValidateCustomResourceDefinition does (v1): name, group, names, scope,
 * versions (exactly one storage version, schemas present and structural,
 * defaults valid), printer columns.
 */
import { isJsonObject } from '#kube-core';
import { Ajv } from 'ajv';
import {
  type FieldCause,
  dedupe,
  invalid,
  invalidRendered,
  notSupported,
  required,
} from '../field-errors.js';
import { schemaErrorsToCauses } from '../schema-errors.js';
import { isDns1035Label, isDns1123Subdomain } from '../syntax.js';
import { asList, asObj } from '../checks/meta-checks.js';
import { type JsonSchemaProps } from './schema-types.js';
import { validateStructuralSchema } from './structural.js';
import { toAjvSchema } from './to-ajv.js';

const VERSIONS_VALUE = '[]apiextensions.CustomResourceDefinitionVersion{...}';
const PRINTER_COLUMN_TYPES = ['integer', 'number', 'string', 'boolean', 'date'];

function validateGroup(group: unknown): FieldCause[] {
  if (typeof group !== 'string' || group.length === 0) return [required('spec.group')];
  const errs = isDns1123Subdomain(group);
  if (errs.length) return [invalid('spec.group', group, errs.join(','))];
  if (group.split('.').length < 2)
    return [invalid('spec.group', group, 'should be a domain with at least one dot')];
  return [];
}

function dns1035(value: unknown, field: string, mixedCase = false): FieldCause[] {
  if (typeof value !== 'string' || value.length === 0) return [];
  const errs = isDns1035Label(mixedCase ? value.toLowerCase() : value);
  if (!errs.length) return [];
  const detail = mixedCase
    ? `may have mixed case, but should otherwise match: ${errs.join(',')}`
    : errs.join(',');
  return [invalid(field, value, detail)];
}

function validateNames(names: Record<string, unknown>): FieldCause[] {
  const causes: FieldCause[] = [];
  if (!names.plural) causes.push(required('spec.names.plural'));
  if (!names.kind) causes.push(required('spec.names.kind'));
  causes.push(
    ...dns1035(names.plural, 'spec.names.plural'),
    ...dns1035(names.singular, 'spec.names.singular'),
  );
  causes.push(
    ...dns1035(names.kind, 'spec.names.kind', true),
    ...dns1035(names.listKind, 'spec.names.listKind', true),
  );
  asList(names.shortNames).forEach((s, i) => causes.push(...dns1035(s, `spec.names.shortNames[${i}]`)));
  asList(names.categories).forEach((c, i) => causes.push(...dns1035(c, `spec.names.categories[${i}]`)));
  if (names.kind && names.kind === names.listKind) {
    causes.push(invalid('spec.names.listKind', names.listKind, 'kind and listKind may not be the same'));
  }
  return causes;
}

/** Every `default` must itself be valid against the schema node that declares it. */
function validateDefaults(s: JsonSchemaProps, path: string, ajv: Ajv, out: FieldCause[]): void {
  if (s.default !== undefined) {
    const check = ajv.compile({ type: 'object', properties: { default: toAjvSchema(s) } });
    const wrapped = { default: s.default };
    if (!check(wrapped)) {
      for (const cause of schemaErrorsToCauses(check.errors ?? [], wrapped)) {
        out.push({ ...cause, field: `${path}.${cause.field}` });
      }
    }
  }
  for (const [key, child] of Object.entries(s.properties ?? {}))
    validateDefaults(child, `${path}.properties[${key}]`, ajv, out);
  if (isJsonObject(s.additionalProperties)) {
    validateDefaults(s.additionalProperties as JsonSchemaProps, `${path}.additionalProperties`, ajv, out);
  }
  if (s.items) validateDefaults(s.items, `${path}.items`, ajv, out);
}

function validatePrinterColumns(columns: unknown, base: string): FieldCause[] {
  const causes: FieldCause[] = [];
  asList(columns).forEach((raw, i) => {
    const col = asObj(raw);
    const at = `${base}[${i}]`;
    if (!col.name) causes.push(required(`${at}.name`));
    if (!col.type) causes.push(required(`${at}.type`));
    else if (!PRINTER_COLUMN_TYPES.includes(col.type as string))
      causes.push(notSupported(`${at}.type`, col.type, PRINTER_COLUMN_TYPES));
    if (!col.jsonPath) causes.push(required(`${at}.jsonPath`));
  });
  return causes;
}

function validateVersions(versions: unknown[]): FieldCause[] {
  const causes: FieldCause[] = [];
  const seen = new Set<unknown>();
  let unique = true;
  let storage = 0;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false });
  versions.forEach((raw, i) => {
    const version = asObj(raw);
    const at = `spec.versions[${i}]`;
    if (version.storage === true) storage++;
    if (seen.has(version.name)) unique = false;
    seen.add(version.name);
    if (typeof version.name !== 'string' || version.name.length === 0) causes.push(required(`${at}.name`));
    else causes.push(...dns1035(version.name, `${at}.name`));
    const schema = asObj(version.schema).openAPIV3Schema;
    const schemaPath = `${at}.schema.openAPIV3Schema`;
    if (!isJsonObject(schema)) {
      causes.push(required(schemaPath, 'schemas are required'));
    } else {
      const structural = validateStructuralSchema(schema as JsonSchemaProps, schemaPath);
      causes.push(...structural);
      // Defaults are only checked once the schema itself is sound (ajv would reject a broken one).
      if (structural.length === 0) validateDefaults(schema as JsonSchemaProps, schemaPath, ajv, causes);
    }
    causes.push(
      ...validatePrinterColumns(version.additionalPrinterColumns, `${at}.additionalPrinterColumns`),
    );
  });
  if (!unique)
    causes.push(invalidRendered('spec.versions', VERSIONS_VALUE, 'must contain unique version names'));
  if (storage !== 1) {
    causes.push(
      invalidRendered(
        'spec.versions',
        VERSIONS_VALUE,
        'must have exactly one version marked as storage version',
      ),
    );
  }
  return causes;
}

/** [] when the CRD is acceptable; otherwise kube's causes (422 Invalid). */
export function validateCrd(crd: object): FieldCause[] {
  const obj = asObj(crd);
  const spec = asObj(obj.spec);
  const names = asObj(spec.names);
  const causes: FieldCause[] = [];
  const name = asObj(obj.metadata).name;
  if (typeof name === 'string' && name.length > 0 && name !== `${names.plural}.${spec.group}`) {
    causes.push(invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }
  causes.push(...validateGroup(spec.group), ...validateNames(names));
  if (!spec.scope) causes.push(required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
    causes.push(notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  }
  const versions = asList(spec.versions);
  if (versions.length === 0)
    causes.push(required('spec.versions', 'must have exactly one version marked as storage version'));
  else causes.push(...validateVersions(versions));
  return dedupe(causes);
}
