import { createHash } from 'node:crypto';
import { KUBE_VERSION } from './discovery.js';
import type { Registry } from './registry.js';
import { apiVersionOf, type ResourceInfo } from './resources.js';

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

export function openApiV3Document(
  registry: Registry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const resources = registry.all().filter((r) => r.group === group && r.version === version);
  if (!resources.length) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const r of resources) {
    const gvk = [{ group: r.group, version: r.version, kind: r.kind }];
    const schemaName = `${r.group || 'core'}.${r.version}.${r.kind}`;
    schemas[schemaName] = {
      type: 'object',
      description: `${r.kind} (${apiVersionOf(r)}), served by oam-local`,
      'x-kubernetes-group-version-kind': gvk,
      'x-kubernetes-preserve-unknown-fields': true,
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
export function openApiV3Root(registry: Registry): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [group, versions] of registry.groups()) {
    for (const version of versions) {
      const doc = JSON.stringify(openApiV3Document(registry, group, version));
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
