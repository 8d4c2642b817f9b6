import { apiVersionOf } from '#kube-core';
import { createHash } from 'node:crypto';
import { KUBE_VERSION } from './discovery.js';
import type { Registry } from '../resources/registry.js';
import { customResourceSchema, modelOf, modelSchemaRef } from './openapi-schemas.js';
import { WireWriter } from '../protobuf/wire.js';
import { type ResourceInfo } from '../resources/builtin.js';

/**
 * OpenAPI v3 as far as kubectl reads it: per group/version, one path per
 * resource whose PATCH declares the `fieldValidation` query parameter and its
 * x-kubernetes-group-version-kind. kubectl then leaves validation to the
 * server (fieldValidation=Strict) instead of validating client-side.
 */
function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

function resourcePath(r: ResourceInfo): string {
  const base = `/${gvPath(r.group, r.version)}`;
  return r.namespaced ? `${base}/namespaces/{namespace}/${r.plural}/{name}` : `${base}/${r.plural}/{name}`;
}

const QUERY = (name: string, description: string) => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string', uniqueItems: true },
});

/** Where custom resources' schemas come from (the CRD manager). */
export type CrdSchemaSource = (r: ResourceInfo) => Record<string, unknown> | undefined;

/** A kind's schema: the generated model's fields for built-ins, the CRD's openAPIV3Schema for custom resources. */
function kindSchema(
  r: ResourceInfo,
  schemas: Record<string, Record<string, unknown>>,
  crdSchema?: CrdSchemaSource,
): Record<string, unknown> {
  if (r.crd) return customResourceSchema(crdSchema?.(r), schemas);
  const model = modelOf(r.group, r.version, r.kind);
  if (!model) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const ref = String(modelSchemaRef(model, schemas).$ref).split('/').pop() as string;
  return { ...schemas[ref] };
}

export function openApiV3Document(
  registry: Registry,
  group: string,
  version: string,
  crdSchema?: CrdSchemaSource,
): Record<string, unknown> | undefined {
  const resources = registry.all().filter((r) => r.group === group && r.version === version);
  if (!resources.length) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const r of resources) {
    const gvk = [{ group: r.group, version: r.version, kind: r.kind }];
    const schemaName = definitionName(r);
    schemas[schemaName] = {
      ...kindSchema(r, schemas, crdSchema),
      description: `${r.kind} (${apiVersionOf(r)}), served by oam-local`,
      'x-kubernetes-group-version-kind': gvk,
    };
    const response = {
      '200': {
        description: 'OK',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` } } },
      },
    };
    paths[resourcePath(r)] = {
      get: {
        operationId: `read${r.kind}`,
        'x-kubernetes-action': 'get',
        'x-kubernetes-group-version-kind': gvk[0],
        responses: response,
      },
      put: {
        operationId: `replace${r.kind}`,
        'x-kubernetes-action': 'put',
        'x-kubernetes-group-version-kind': gvk[0],
        parameters: [
          QUERY('dryRun', 'dry run'),
          QUERY('fieldManager', 'field manager'),
          QUERY('fieldValidation', 'field validation'),
        ],
        responses: response,
      },
      patch: {
        operationId: `patch${r.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': gvk[0],
        parameters: [
          QUERY('dryRun', 'dry run'),
          QUERY('fieldManager', 'field manager'),
          QUERY('fieldValidation', 'field validation'),
          {
            name: 'force',
            in: 'query',
            description: 'force apply',
            schema: { type: 'boolean', uniqueItems: true },
          },
        ],
        responses: response,
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: KUBE_VERSION.gitVersion },
    paths,
    components: { schemas },
  };
}

/** /openapi/v3: one entry per served group/version, with a hash kubectl uses for caching. */
export function openApiV3Root(registry: Registry, crdSchema?: CrdSchemaSource): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [group, versions] of registry.groups()) {
    for (const version of versions) {
      const doc = JSON.stringify(openApiV3Document(registry, group, version, crdSchema));
      const hash = createHash('sha512').update(doc).digest('hex').slice(0, 64).toUpperCase();
      paths[gvPath(group, version)] = {
        serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${hash}`,
      };
    }
  }
  return { paths };
}

/** The definition name kube uses in /openapi/v2 (io.k8s.api.apps.v1.Deployment, com.example.v1.Widget for CRDs). */
export function definitionName(r: ResourceInfo): string {
  if (r.crd) return `${r.group.split('.').reverse().join('.')}.${r.version}.${r.kind}`;
  if (r.group === 'apiextensions.k8s.io')
    return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${r.version}.${r.kind}`;
  const pkg = r.group ? r.group.split('.')[0] : 'core';
  return `io.k8s.api.${pkg}.${r.version}.${r.kind}`;
}

/** /openapi/v2 in JSON: one definition per served kind, tagged with its group/version/kind. */
export function openApiV2Document(registry: Registry): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  for (const r of registry.all()) {
    definitions[definitionName(r)] = {
      type: 'object',
      description: `${r.kind} (${apiVersionOf(r)}), served by oam-local`,
      'x-kubernetes-group-version-kind': [{ group: r.group, kind: r.kind, version: r.version }],
    };
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: KUBE_VERSION.gitVersion },
    paths: {},
    definitions,
  };
}

/**
 * The media type of /openapi/v2 in protobuf (gnostic's openapi_v2.Document). Clients ask for the
 * deprecated `@v1.0` spelling; kube-openapi answers both with this one (Go's mime parser rejects `@`).
 */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** Whether an Accept header asks /openapi/v2 for protobuf (kube-openapi also takes the `.v1.0` spelling). */
export function wantsOpenApiV2Protobuf(accept: string | undefined): boolean {
  return /application\/com\.github\.proto-openapi\.spec\.v2[@.]v1\.0\+protobuf/.test(accept ?? '');
}

/**
 * /openapi/v2 as gnostic's protobuf Document (OpenAPIv2.proto: swagger=1, info=2, definitions=9;
 * NamedSchema name=1 value=2; Schema description=4, type=22). The definitions carry no
 * x-kubernetes-group-version-kind: their schemas are empty, and kubectl's client-side validation
 * skips a kind it cannot find (it validates server-side, as /openapi/v3 advertises fieldValidation).
 */
export function openApiV2Protobuf(registry: Registry): Buffer {
  const w = new WireWriter();
  w.bytes(1, '2.0');
  w.message(2, (info) => info.bytes(1, 'Kubernetes').bytes(2, KUBE_VERSION.gitVersion));
  w.message(9, (defs) => {
    for (const r of registry.all()) {
      defs.message(1, (named) =>
        named
          .bytes(1, definitionName(r))
          .message(2, (schema) =>
            schema
              .bytes(4, `${r.kind} (${apiVersionOf(r)}), served by oam-local`)
              .message(22, (type) => type.bytes(1, 'object')),
          ),
      );
    }
  });
  return w.finish();
}

/** Whether an Accept header takes JSON (no header, application/json, application/* or * / *). */
export function acceptsJson(accept: string | undefined): boolean {
  if (!accept?.trim()) return true;
  return accept
    .split(',')
    .map((clause) => clause.split(';')[0].trim().toLowerCase())
    .some((type) => type === 'application/json' || type === 'application/*' || type === '*/*');
}
