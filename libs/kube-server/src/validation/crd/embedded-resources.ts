/**
 * Checks apiextensions-apiserver adds for `x-kubernetes-embedded-resource`
 * values (schema/objectmeta validateEmbeddedResource): apiVersion and kind
 * present and well-formed, and a metadata.name, when given, a DNS subdomain.
 */
import { isJsonObject } from '#kube-core';
import { type FieldCause, invalid, required } from '../field-errors.js';
import { isDns1035Label, isDns1123Subdomain } from '../syntax.js';
import { type Json, type JsonSchemaProps, valueSchema } from './schema-types.js';

const GROUP_VERSION = /^([^/]+\/)?[^/]+$/;

function checkResource(x: Json, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (!('apiVersion' in x)) causes.push(required(at('apiVersion'), 'must not be empty'));
  if (!('kind' in x)) causes.push(required(at('kind'), 'must not be empty'));
  const { apiVersion, kind } = x;
  if ('apiVersion' in x) {
    if (typeof apiVersion !== 'string')
      causes.push(invalid(at('apiVersion'), apiVersion, 'must be a string'));
    else if (apiVersion.length === 0) causes.push(invalid(at('apiVersion'), apiVersion, 'must not be empty'));
    else if (!GROUP_VERSION.test(apiVersion)) {
      causes.push(invalid(at('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    }
  }
  if ('kind' in x) {
    if (typeof kind !== 'string') causes.push(invalid(at('kind'), kind, 'must be a string'));
    else if (kind.length === 0) causes.push(invalid(at('kind'), kind, 'must not be empty'));
    else {
      const errs = isDns1035Label(kind.toLowerCase());
      if (errs.length) {
        causes.push(
          invalid(at('kind'), kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`),
        );
      }
    }
  }
  const name = isJsonObject(x.metadata) ? x.metadata.name : undefined;
  if (typeof name === 'string' && name.length > 0) {
    for (const msg of isDns1123Subdomain(name)) causes.push(invalid(at('metadata.name'), name, msg));
  }
  return causes;
}

function walk(value: unknown, schema: JsonSchemaProps | undefined, path: string, out: FieldCause[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, schema.items, `${path}[${i}]`, out));
    return;
  }
  if (!isJsonObject(value)) return;
  if (schema['x-kubernetes-embedded-resource'] && path) out.push(...checkResource(value, path));
  const mapValues = valueSchema(schema);
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    walk(child, schema.properties?.[key] ?? mapValues, childPath, out);
  }
}

export function validateEmbeddedResources(obj: object, schema: JsonSchemaProps): FieldCause[] {
  const out: FieldCause[] = [];
  walk(obj, schema, '', out);
  return out;
}
