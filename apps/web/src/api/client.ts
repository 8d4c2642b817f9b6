import createClient from 'openapi-fetch';
import type { components, operations, paths } from './schema';
import { session } from '../session';

type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type Ok<Id extends keyof operations> = operations[Id]['responses'] extends { 200: infer R }
  ? JsonOf<R>
  : never;

export type CatalogEntry = Ok<'listComponentTypes'>['items'][number];
export type CatalogDetail = Ok<'getComponentType'>;
export type ApplicationView = Ok<'applicationStatus'>;
export type Application = Ok<'getApplication'>;
export type PreviewResult = Ok<'previewNew'>;
export type Revision = Ok<'listRevisions'>['items'][number];
export type EventView = Ok<'applicationEvents'>['items'][number];
export type Problem = components['schemas']['Problem'];
export type FieldError = NonNullable<Problem['errors']>[number];
export type WatchEvent = operations['watchApplications']['responses'][200]['content']['text/event-stream'];

/** A failed call: the API's problem+json, or status 0 when the API could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title);
  }
  get fieldErrors(): FieldError[] {
    return this.problem.errors ?? [];
  }
}

function unreachable(err: unknown): ApiError {
  return new ApiError(0, {
    type: 'about:blank',
    title: 'API not reachable',
    status: 0,
    detail: `cannot reach the API at ${location.origin} (${(err as Error).message}); is \`oam server\` running?`,
  });
}

/** Turns a non-2xx answer into an ApiError; a 401 also signs out (the token is wrong or was revoked). */
async function failure(response: Response, body: unknown): Promise<ApiError> {
  const problem =
    body && typeof body === 'object' && 'status' in body
      ? (body as Problem)
      : {
          type: 'about:blank',
          title: response.statusText,
          status: response.status,
          detail: String(body ?? ''),
        };
  if (response.status === 401) session.signOut('The token was not accepted (401). Sign in again.');
  return new ApiError(response.status, problem);
}

export const api = createClient<paths>({ baseUrl: location.origin });
api.use({
  onRequest({ request }) {
    const token = session.token();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
});

/** Awaits an openapi-fetch call: its data, or throws ApiError. */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await pending;
  } catch (err) {
    throw unreachable(err);
  }
  if (!result.response.ok) throw await failure(result.response, result.error);
  return result.data as T;
}

type WatchPath =
  | '/api/v1/namespaces/{namespace}/applications/watch'
  | '/api/v1/namespaces/{namespace}/applications/{name}/watch';

/**
 * Reads a Server-Sent Events stream with a streaming fetch (EventSource cannot
 * send the Authorization header, and a token never goes in a URL). Resolves
 * when the stream ends or `signal` aborts; rejects with ApiError on failure.
 */
export async function watch(
  path: WatchPath,
  params: { namespace: string; name?: string },
  onEvent: (event: WatchEvent) => void,
  signal: AbortSignal,
  onOpen?: () => void,
): Promise<void> {
  const url = path
    .replace('{namespace}', encodeURIComponent(params.namespace))
    .replace('{name}', encodeURIComponent(params.name ?? ''));
  let res: Response;
  try {
    res = await fetch(location.origin + url, {
      headers: { Authorization: `Bearer ${session.token()}`, Accept: 'text/event-stream' },
      signal,
    });
  } catch (err) {
    if (signal.aborted) return;
    throw unreachable(err);
  }
  if (!res.ok || !res.body) throw await failure(res, await res.json().catch(() => undefined));
  onOpen?.();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data) onEvent(JSON.parse(data) as WatchEvent);
      }
    }
  } catch (err) {
    if (signal.aborted) return;
    throw unreachable(err);
  }
}

export type ApplicationBody = NonNullable<
  operations['createApplication']['requestBody']
>['content']['application/json'];
