import { z } from 'zod';
import { ApplicationSchema, ComponentSchema, REVISION_ANNOTATIONS, TraitSchema } from '#api';
import {
  ApplicationListSchema,
  ApplicationViewSchema,
  EventListSchema,
  PreviewResultSchema,
  ResourcesSchema,
  RevisionListSchema,
  RollbackRequestSchema,
  WatchEventSchema,
} from '../applications/application.dto.js';
import { CatalogDetailSchema, CatalogListSchema } from '../catalog/catalog.dto.js';

/** What a token must be allowed to do for a route (tokens file verbs; SubjectAccessReview attributes). */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

export interface Access {
  verb: Verb;
  /** The core.oam.dev resource checked. */
  resource:
    | 'applications'
    | 'applicationrevisions'
    | 'componentdefinitions'
    | 'traitdefinitions'
    | 'components'
    | 'traits';
  /** Where the namespace comes from: the `{namespace}` path parameter, or the optional `?namespace=` (catalog). */
  namespaceFrom: 'path' | 'query';
}

export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI-style path: `/api/v1/namespaces/{namespace}/applications/{name}`. */
  path: string;
  summary: string;
  /** `public`: no token needed (health and the OpenAPI document only). */
  access: Access | 'public';
  status?: number;
  body?: { schema: z.ZodType; contentType: string; required: boolean };
  response?: { schema: z.ZodType; contentType?: string };
  query?: { name: string; description: string }[];
}

const V1 = '/api/v1';
/** Swagger UI and the document it shows (`/api/v1/openapi.json` is the same document). */
export const DOCS_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';
const APPS = `${V1}/namespaces/{namespace}/applications`;
const APP = `${APPS}/{name}`;
const json = (schema: z.ZodType) => ({ schema });
const appAccess = (verb: Verb): Access => ({ verb, resource: 'applications', namespaceFrom: 'path' });
const catalogQuery = [
  {
    name: 'namespace',
    description: "also list the definitions of this namespace (besides the system namespace's)",
  },
  { name: 'q', description: 'search: a substring of the name or description, case-insensitive' },
];

/** CRUD routes of a standalone kind (Components, Traits), the same shape as the Applications'. */
function crud<N extends string>(
  noun: N,
  plural: 'components' | 'traits',
  schema: z.ZodType,
): Record<`list${N}s` | `create${N}` | `get${N}` | `replace${N}` | `patch${N}` | `delete${N}`, RouteSpec> {
  const all = `${V1}/namespaces/{namespace}/${plural}`;
  const one = `${all}/{name}`;
  const access = (verb: Verb): Access => ({ verb, resource: plural, namespaceFrom: 'path' });
  const body = { schema, contentType: 'application/json', required: true };
  const what = noun === 'Component' ? 'standalone Component' : 'Trait';
  return {
    [`list${noun}s`]: {
      method: 'get',
      path: all,
      summary: `the namespace’s ${what}s`,
      access: access('list'),
      response: json(z.object({ items: z.array(schema) })),
    },
    [`create${noun}`]: {
      method: 'post',
      path: all,
      summary: `create a ${what} (409 if it exists); validated and rendered where it goes first`,
      access: access('create'),
      status: 201,
      body,
      response: json(schema),
    },
    [`get${noun}`]: {
      method: 'get',
      path: one,
      summary: `a ${what} as stored`,
      access: access('get'),
      response: json(schema),
    },
    [`replace${noun}`]: {
      method: 'put',
      path: one,
      summary: `replace a ${what}; metadata.resourceVersion is required and a stale one is 409`,
      access: access('update'),
      body,
      response: json(schema),
    },
    [`patch${noun}`]: {
      method: 'patch',
      path: one,
      summary: `JSON merge patch of a ${what}; the result is validated first`,
      access: access('patch'),
      body: {
        schema: z.record(z.string(), z.unknown()),
        contentType: 'application/merge-patch+json',
        required: true,
      },
      response: json(schema),
    },
    [`delete${noun}`]: {
      method: 'delete',
      path: one,
      summary: `delete a ${what}`,
      access: access('delete'),
      status: 202,
      response: json(schema),
    },
  } as Record<`list${N}s` | `create${N}` | `get${N}` | `replace${N}` | `patch${N}` | `delete${N}`, RouteSpec>;
}

/**
 * Every route of the API, once: the controllers are mapped from it (the
 * `@Route` decorator), the guard checks each request against its `access`,
 * the OpenAPI document is generated from it, and the tests walk it. A route
 * cannot exist without an entry here, so none can forget authentication.
 */
export const ROUTES = {
  healthz: { method: 'get', path: '/healthz', summary: 'liveness', access: 'public' },
  readyz: { method: 'get', path: '/readyz', summary: 'readiness: every cache has synced', access: 'public' },
  openapi: { method: 'get', path: `${V1}/openapi.json`, summary: 'this document', access: 'public' },
  openapiAlias: { method: 'get', path: OPENAPI_PATH, summary: 'this document', access: 'public' },
  docs: {
    method: 'get',
    path: DOCS_PATH,
    summary: 'Swagger UI for this document',
    access: 'public',
    response: { schema: z.string(), contentType: 'text/html' },
  },
  docsAsset: {
    method: 'get',
    path: `${DOCS_PATH}/{file}`,
    summary: 'a file of the Swagger UI page (swagger-ui-dist)',
    access: 'public',
  },
  // Any valid token (no namespace to check): request counts and latencies, cache and client figures.
  metrics: {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (any valid token)',
    access: { verb: 'get', resource: 'applications', namespaceFrom: 'query' },
    response: { schema: z.string(), contentType: 'text/plain' },
  },

  listComponentTypes: {
    method: 'get',
    path: `${V1}/catalog/components`,
    summary: 'component types of the system namespace, and of ?namespace= when given',
    access: { verb: 'list', resource: 'componentdefinitions', namespaceFrom: 'query' },
    query: catalogQuery,
    response: json(CatalogListSchema),
  },
  getComponentType: {
    method: 'get',
    path: `${V1}/catalog/components/{name}`,
    summary: 'a component type with its parameter schema (JSON Schema) and an example',
    access: { verb: 'get', resource: 'componentdefinitions', namespaceFrom: 'query' },
    query: catalogQuery.slice(0, 1),
    response: json(CatalogDetailSchema),
  },
  listTraitTypes: {
    method: 'get',
    path: `${V1}/catalog/traits`,
    summary: 'trait types of the system namespace, and of ?namespace= when given',
    access: { verb: 'list', resource: 'traitdefinitions', namespaceFrom: 'query' },
    query: [
      ...catalogQuery,
      { name: 'component', description: 'only the traits that apply to this component type (appliesTo)' },
    ],
    response: json(CatalogListSchema),
  },
  getTraitType: {
    method: 'get',
    path: `${V1}/catalog/traits/{name}`,
    summary: 'a trait type with its parameter schema (JSON Schema) and an example',
    access: { verb: 'get', resource: 'traitdefinitions', namespaceFrom: 'query' },
    query: catalogQuery.slice(0, 1),
    response: json(CatalogDetailSchema),
  },

  previewNew: {
    method: 'post',
    path: `${V1}/namespaces/{namespace}/preview`,
    summary: 'render an Application without applying it: the objects, or 422 with every error at its field',
    access: appAccess('get'),
    body: { schema: ApplicationSchema, contentType: 'application/json', required: true },
    response: json(PreviewResultSchema),
  },
  listApplications: {
    method: 'get',
    path: APPS,
    summary: 'the namespace’s applications with their health',
    access: appAccess('list'),
    response: json(ApplicationListSchema),
  },
  watchApplications: {
    method: 'get',
    path: `${APPS}/watch`,
    summary: 'Server-Sent Events: every application of the namespace, then each change',
    access: appAccess('watch'),
    response: { schema: WatchEventSchema, contentType: 'text/event-stream' },
  },
  createApplication: {
    method: 'post',
    path: APPS,
    summary: 'create an Application (409 if it exists); validated and rendered first',
    access: appAccess('create'),
    status: 201,
    body: { schema: ApplicationSchema, contentType: 'application/json', required: true },
    response: json(ApplicationSchema),
  },
  getApplication: {
    method: 'get',
    path: APP,
    summary: 'an Application as stored (its metadata.resourceVersion is what PUT sends back)',
    access: appAccess('get'),
    response: json(ApplicationSchema),
  },
  replaceApplication: {
    method: 'put',
    path: APP,
    summary: 'replace an Application; metadata.resourceVersion is required and a stale one is 409',
    access: appAccess('update'),
    body: { schema: ApplicationSchema, contentType: 'application/json', required: true },
    response: json(ApplicationSchema),
  },
  patchApplication: {
    method: 'patch',
    path: APP,
    summary: 'JSON merge patch (RFC 7386) of an Application; the result is validated and rendered first',
    access: appAccess('patch'),
    body: {
      schema: z.record(z.string(), z.unknown()),
      contentType: 'application/merge-patch+json',
      required: true,
    },
    response: json(ApplicationSchema),
  },
  deleteApplication: {
    method: 'delete',
    path: APP,
    summary: 'delete an Application (the controller removes what it applied)',
    access: appAccess('delete'),
    status: 202,
    response: json(ApplicationSchema),
  },
  watchApplication: {
    method: 'get',
    path: `${APP}/watch`,
    summary: 'Server-Sent Events: the application now, then each change',
    access: appAccess('watch'),
    response: { schema: WatchEventSchema, contentType: 'text/event-stream' },
  },
  applicationStatus: {
    method: 'get',
    path: `${APP}/status`,
    summary: 'the health tree: components, traits, objects, conditions',
    access: appAccess('get'),
    response: json(ApplicationViewSchema),
  },
  applicationResources: {
    method: 'get',
    path: `${APP}/resources`,
    summary: 'the live objects the controller applied for it',
    access: appAccess('get'),
    response: json(ResourcesSchema),
  },
  applicationEvents: {
    method: 'get',
    path: `${APP}/events`,
    summary: 'Kubernetes Events about it and its objects, newest last',
    access: appAccess('get'),
    response: json(EventListSchema),
  },
  previewApplication: {
    method: 'post',
    path: `${APP}/preview`,
    summary: 'render the stored Application, or the body when one is sent, without applying',
    access: appAccess('get'),
    body: { schema: ApplicationSchema, contentType: 'application/json', required: false },
    response: json(PreviewResultSchema),
  },
  listRevisions: {
    method: 'get',
    path: `${APP}/revisions`,
    summary: 'its ApplicationRevisions, oldest first',
    access: { verb: 'list', resource: 'applicationrevisions', namespaceFrom: 'path' },
    response: json(RevisionListSchema),
  },
  rollback: {
    method: 'post',
    path: `${APP}/rollback`,
    summary: `roll back to a revision (the controller’s ${REVISION_ANNOTATIONS.rollbackTo} annotation)`,
    access: appAccess('patch'),
    status: 202,
    body: { schema: RollbackRequestSchema, contentType: 'application/json', required: true },
    response: json(ApplicationSchema),
  },
  ...crud('Component', 'components', ComponentSchema),
  ...crud('Trait', 'traits', TraitSchema),
} satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof ROUTES;

export function routeSpec(id: RouteId): RouteSpec {
  return ROUTES[id] as RouteSpec;
}
