/**
 * The structural-schema rules apiextensions-apiserver enforces on a CRD
 * version's openAPIV3Schema (apiserver/schema/validation.go and the CRD
 * OpenAPI schema validation), with kube's messages.
 */
import { isJsonObject } from '#kube-core';
import { type FieldCause, forbidden, invalid, required } from '../field-errors.js';
import { type JsonSchemaProps } from './schema-types.js';

type Level = 'root' | 'item' | 'field';

const EMPTY_TYPE_DETAIL: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** Keys a schema under allOf/anyOf/oneOf/not may not carry (value validations only). */
const NESTED_FORBIDDEN: Array<[key: string, detail: string]> = [
  ['type', 'must be empty to be structural'],
  ['additionalProperties', 'must be undefined to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
];

const isIntOrStringBranch = (branches: JsonSchemaProps[] | undefined): boolean =>
  branches?.length === 2 && branches[0]?.type === 'integer' && branches[1]?.type === 'string';

function nestedCauses(s: JsonSchemaProps, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const [key, detail] of NESTED_FORBIDDEN) {
    const value = s[key];
    if (value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0)) {
      causes.push(forbidden(`${path}.${key}`, detail));
    }
  }
  if (s.properties?.metadata)
    causes.push(forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  for (const [k, v] of Object.entries(s.properties ?? {}))
    causes.push(...nestedCauses(v, `${path}.properties[${k}]`));
  if (s.items) causes.push(...nestedCauses(s.items, `${path}.items`));
  causes.push(...junctorCauses(s, path, false));
  return causes;
}

function junctorCauses(s: JsonSchemaProps, path: string, intOrString: boolean): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = s[junctor];
    if (!Array.isArray(branches)) continue;
    // kube's two int-or-string exceptions: anyOf [integer, string], or the same as allOf[0].anyOf.
    if (intOrString && junctor === 'anyOf' && isIntOrStringBranch(branches)) continue;
    branches.forEach((branch, i) => {
      const branchPath = `${path}.${junctor}[${i}]`;
      if (intOrString && junctor === 'allOf' && i === 0 && isIntOrStringBranch(branch.anyOf)) {
        const { anyOf: _skipped, ...rest } = branch;
        causes.push(...nestedCauses(rest, branchPath));
      } else {
        causes.push(...nestedCauses(branch, branchPath));
      }
    });
  }
  if (isJsonObject(s.not)) causes.push(...nestedCauses(s.not as JsonSchemaProps, `${path}.not`));
  return causes;
}

function typeCauses(s: JsonSchemaProps, level: Level, path: string): FieldCause[] {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded && s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    return [s.type ? invalid(`${path}.type`, s.type, detail) : required(`${path}.type`, detail)];
  }
  const typeless = !s.type && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields'];
  if (typeless) return [required(`${path}.type`, EMPTY_TYPE_DETAIL[level])];
  if (level === 'root' && s.type && s.type !== 'object')
    return [invalid(`${path}.type`, s.type, 'must be object at the root')];
  return [];
}

function rootMetadataCauses(s: JsonSchemaProps, path: string): FieldCause[] {
  const metadata = s.properties?.metadata;
  if (!metadata) return [];
  const causes: FieldCause[] = [];
  if (metadata.type !== 'object')
    causes.push(invalid(`${path}.properties[metadata].type`, metadata.type ?? '', 'must be object'));
  const allowed = new Set(['type', 'properties', 'description']);
  const onlyNames = Object.keys(metadata.properties ?? {}).every((k) => k === 'name' || k === 'generateName');
  if (!onlyNames || Object.keys(metadata).some((k) => !allowed.has(k))) {
    causes.push(
      forbidden(
        `${path}.properties[metadata]`,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
  }
  return causes;
}

function patternCauses(s: JsonSchemaProps, path: string): FieldCause[] {
  if (typeof s.pattern !== 'string') return [];
  try {
    new RegExp(s.pattern);
    return [];
  } catch (err) {
    const reason = (err as Error).message;
    return [
      invalid(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${reason}`),
    ];
  }
}

function walk(s: JsonSchemaProps, level: Level, path: string): FieldCause[] {
  const causes = typeCauses(s, level, path);
  if (s.type === 'array' && !s.items) causes.push(required(`${path}.items`, 'must be specified'));
  if (s.additionalProperties !== undefined) {
    if (level === 'root')
      causes.push(forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (s.properties && Object.keys(s.properties).length > 0) {
      causes.push(
        forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'),
      );
    }
    if (s.additionalProperties === false) {
      causes.push(forbidden(`${path}.additionalProperties`, 'additionalProperties cannot be set to false'));
    }
    if (s['x-kubernetes-embedded-resource']) {
      causes.push(
        forbidden(
          `${path}.additionalProperties`,
          'must not be used if x-kubernetes-embedded-resource is set',
        ),
      );
    }
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  if (intOrString && s['x-kubernetes-preserve-unknown-fields']) {
    causes.push(
      invalid(
        `${path}.x-kubernetes-preserve-unknown-fields`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (intOrString && s['x-kubernetes-embedded-resource']) {
    causes.push(
      invalid(
        `${path}.x-kubernetes-embedded-resource`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (s['x-kubernetes-embedded-resource'] && !s['x-kubernetes-preserve-unknown-fields'] && !s.properties) {
    causes.push(
      required(
        `${path}.properties`,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
  if (level === 'root') causes.push(...rootMetadataCauses(s, path));
  causes.push(...patternCauses(s, path), ...junctorCauses(s, path, intOrString));
  for (const [key, child] of Object.entries(s.properties ?? {})) {
    if (level === 'root' && key === 'metadata') continue;
    causes.push(...walk(child, 'field', `${path}.properties[${key}]`));
  }
  if (isJsonObject(s.additionalProperties)) {
    causes.push(...walk(s.additionalProperties as JsonSchemaProps, 'field', `${path}.additionalProperties`));
  }
  if (s.items) causes.push(...walk(s.items, 'item', `${path}.items`));
  return causes;
}

/** Structural-schema problems of one version's openAPIV3Schema, reported under `path`. */
export function validateStructuralSchema(schema: JsonSchemaProps, path: string): FieldCause[] {
  return walk(schema, 'root', path);
}
