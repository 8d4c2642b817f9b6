import { z } from 'zod';
import { ProblemSchema } from '../http/problem.js';
import { ROUTES, type RouteSpec } from '../http/routes.js';

/** JSON Schema 2020-12 (what OpenAPI 3.1 uses) of a zod schema, as a request or as a response reads it. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
}

const problem = { $ref: '#/components/schemas/Problem' };
const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: problem } },
});

function operation(id: string, spec: RouteSpec): Record<string, unknown> {
  const params = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  for (const q of spec.query ?? [])
    params.push({
      name: q.name,
      in: 'query',
      required: false,
      schema: { type: 'string' },
      description: q.description,
    } as never);
  const status = String(spec.status ?? 200);
  const responses: Record<string, unknown> = {
    [status]: {
      description: spec.summary,
      ...(spec.response
        ? {
            content: {
              [spec.response.contentType ?? 'application/json']: {
                schema: schemaOf(spec.response.schema, 'output'),
              },
            },
          }
        : {}),
    },
  };
  if (spec.access !== 'public') {
    responses['401'] = problemResponse('no bearer token, or not a valid one');
    responses['403'] = problemResponse('the token may not do this');
    responses['429'] = problemResponse('too many requests with this token');
    responses['404'] = problemResponse('not found (also a missing namespace)');
  } else if (params.some((p) => p.in === 'path')) responses['404'] = problemResponse('not found');
  if (spec.body) {
    responses['400'] = problemResponse('the body is not JSON');
    responses['422'] = problemResponse('invalid: every error with its field path');
  }
  if (spec.method === 'post' || spec.method === 'put' || spec.method === 'patch')
    responses['409'] = problemResponse('conflict: exists already, or a stale resourceVersion');
  return {
    operationId: id,
    summary: spec.summary,
    tags: [
      spec.path.includes('/catalog/') ? 'catalog' : spec.access === 'public' ? 'service' : 'applications',
    ],
    ...(params.length ? { parameters: params } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: spec.body.required,
            content: { [spec.body.contentType]: { schema: schemaOf(spec.body.schema, 'input') } },
          },
        }
      : {}),
    responses,
    ...(spec.access === 'public' ? { security: [] } : {}),
  };
}

/**
 * The OpenAPI 3.1 document, generated from the route table and the zod
 * schemas the handlers validate with (libs/api's for the OAM kinds), so it
 * cannot drift from the code.
 */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, spec] of Object.entries(ROUTES) as [string, RouteSpec][]) {
    if (id === 'openapiAlias') continue;
    (paths[spec.path] ??= {})[spec.method] = operation(id, spec);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'OAM platform REST API',
      version,
      description:
        'Browse component and trait types, and manage Applications, on the Kubernetes API (the only source of truth). ' +
        'Every route except health and this document needs `Authorization: Bearer <token>`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Problem: schemaOf(ProblemSchema, 'output') },
    },
  };
}
