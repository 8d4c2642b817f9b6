import { apiVersionOf, type Clock, type StoredObject } from '#kube-core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { patchKindFromContentType } from '../../patch/index.js';
import type { WriteOptions } from '../../core.js';
import { ApiError } from '../../errors.js';
import { decodeBody, readBody, sendJson, setWarnings, wantsTable } from '../messages.js';
import { compileFilter, type ListResult } from '../../objects/reader.js';
import type { ObjectService } from '../../objects/service.js';
import {
  POD_CONNECT_SUBRESOURCES,
  type PodConnectSubresource,
  type ResourceInfo,
  type Verb,
} from '../../resources/builtin.js';
import type { ResourceRoute } from '../router.js';
import { columnsFor, toTable } from '../../table/table.js';
import type { WatchHub } from '../watch.js';
import {
  deleteOptions,
  listQuery,
  sendInitialEventsOf,
  validateWatchOptions,
  writeOptions,
} from './params.js';
import { untilReadable } from './fresh-read.js';
import { handleScale } from './scale.js';
import { handleSubjectAccessReview } from './subjectaccessreview.js';
import { handleTokenRequest } from './tokenrequest.js';
import { handleTokenReview } from './tokenreview.js';

export interface ResourceContext {
  objects: ObjectService;
  watches: WatchHub;
  /** The bearer token, for TokenReview (and the key ServiceAccount tokens are signed with). */
  token: string;
  /** What a read's wait for a resourceVersion not committed yet is timed on. */
  clock: Clock;
}

const notServed = () => new ApiError(404, 'NotFound', 'the server could not find the requested resource');
const notAllowed = () =>
  new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');

function requireVerb(info: ResourceInfo, verb: Verb): void {
  if (!info.verbs.includes(verb)) throw notAllowed();
}

/** Serves one resource request: collection and object verbs, watch, and the status/scale subresources. */
export async function handleResource(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  r: ResourceRoute,
  query: URLSearchParams,
): Promise<void> {
  const info = ctx.objects.core.registry.find(r.group, r.version, r.resource);
  if (!info) throw notServed();
  if (r.namespace !== undefined && !info.namespaced) throw notServed();
  if (r.subresource && !(info.subresources ?? []).includes(r.subresource as 'status')) throw notServed();
  const ns = info.namespaced ? r.namespace : undefined;
  const method = req.method ?? 'GET';
  if (info.virtual)
    return info.kind === 'SubjectAccessReview'
      ? handleSubjectAccessReview(ctx, req, res, method)
      : handleTokenReview(ctx, req, res, method);
  if (info.kind === 'Pod' && !info.group && POD_CONNECT_SUBRESOURCES.includes(r.subresource as 'log'))
    return refusePodConnect(ctx, info, ns, r.name as string, r.subresource as PodConnectSubresource, method);
  if (r.subresource === 'token')
    return handleTokenRequest(ctx, req, res, info, ns as string, r.name as string, method);
  if (r.subresource === 'scale') return handleScale(ctx, req, res, info, ns, r.name as string, query);
  if (r.subresource === 'finalize' && method === 'PUT') {
    const body = decodeBody(await readBody(req), req.headers['content-type']);
    return sendJson(
      res,
      200,
      ctx.objects.update(info, ns, r.name as string, body, requestWrite(req, query)).object,
    );
  }
  const accept = req.headers.accept;

  if (!r.name) {
    if (method === 'GET') {
      const watching = r.watchPath || query.get('watch') === 'true' || query.get('watch') === '1';
      if (watching) return startWatch(ctx, req, res, info, ns, query);
      requireVerb(info, 'list');
      const q = listQuery(query);
      await untilReadable(ctx.objects.core.store, ctx.clock, query, res);
      const result = ctx.objects.list(info, ns, q);
      return sendJson(
        res,
        200,
        wantsTable(accept) ? listTable(ctx, info, result, query) : listBody(info, result),
      );
    }
    if (method === 'POST') {
      requireVerb(info, 'create');
      const body = decodeBody(await readBody(req), req.headers['content-type'], info.kind);
      const opts = requestWrite(req, query);
      const created = ctx.objects.create(info, ns, body, opts);
      setWarnings(res, opts.warnings);
      return sendJson(res, 201, created);
    }
    if (method === 'DELETE') {
      requireVerb(info, 'deletecollection');
      const raw = await readBody(req);
      const opts = deleteOptions(raw.length ? decodeBody(raw, req.headers['content-type']) : {}, query);
      return sendJson(
        res,
        200,
        listBody(info, ctx.objects.deleteCollection(info, ns, listQuery(query), opts)),
      );
    }
    throw notAllowed();
  }

  const name = r.name;
  switch (method) {
    case 'GET': {
      requireVerb(info, 'get');
      await untilReadable(ctx.objects.core.store, ctx.clock, query, res);
      const obj = ctx.objects.get(info, ns, name);
      const body = wantsTable(accept)
        ? toTable(
            columnsFor(info, ctx.objects.core.crds),
            [obj],
            { resourceVersion: obj.metadata.resourceVersion },
            { includeObject: query.get('includeObject') ?? undefined },
          )
        : obj;
      return sendJson(res, 200, body);
    }
    case 'PUT': {
      requireVerb(info, 'update');
      const body = decodeBody(await readBody(req), req.headers['content-type'], info.kind);
      const opts = requestWrite(req, query);
      const result = ctx.objects.update(info, ns, name, body, opts, r.subresource);
      setWarnings(res, opts.warnings);
      return sendJson(res, result.created ? 201 : 200, result.object);
    }
    case 'PATCH': {
      requireVerb(info, 'patch');
      const contentType = req.headers['content-type'] ?? '';
      const kind = patchKindFromContentType(contentType);
      if (!kind) {
        throw new ApiError(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml${info.crd ? '' : ', application/strategic-merge-patch+json'}`,
        );
      }
      const body = decodeBody(
        await readBody(req),
        kind === 'apply' ? 'application/yaml' : 'application/json',
      );
      const opts = requestWrite(req, query);
      if (kind === 'apply' && !query.get('fieldManager')) {
        throw new ApiError(
          422,
          'Invalid',
          'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
          {
            group: 'meta.k8s.io',
            kind: 'PatchOptions',
            causes: [
              {
                reason: 'FieldValueRequired',
                message: 'Required value: is required for apply patch',
                field: 'fieldManager',
              },
            ],
          },
        );
      }
      const result = ctx.objects.patch(info, ns, name, kind, body, opts, r.subresource);
      setWarnings(res, opts.warnings);
      return sendJson(res, result.created ? 201 : 200, result.object);
    }
    case 'DELETE': {
      requireVerb(info, 'delete');
      const raw = await readBody(req);
      const opts = deleteOptions(raw.length ? decodeBody(raw, req.headers['content-type']) : {}, query);
      const result = ctx.objects.delete(info, ns, name, opts);
      if (result.pending || info.crd || info.kind === 'Pod' || opts.dryRun)
        return sendJson(res, 200, result.object);
      return sendJson(res, 200, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: {
          name,
          ...(info.group ? { group: info.group } : {}),
          kind: info.plural,
          uid: result.object.metadata.uid,
        },
      });
    }
  }
  throw notAllowed();
}

/** The options of a write whose body this request decoded: the writer keeps it rather than copying it. */
function requestWrite(req: IncomingMessage, query: URLSearchParams): WriteOptions {
  return { ...writeOptions(req, query), ownsBody: true };
}

function listBody(info: ResourceInfo, result: ListResult): Record<string, unknown> {
  const metadata: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continue) metadata.continue = result.continue;
  if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  const items = result.items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest);
  return { kind: `${info.kind}List`, apiVersion: apiVersionOf(info), metadata, items };
}

function listTable(ctx: ResourceContext, info: ResourceInfo, result: ListResult, query: URLSearchParams) {
  const metadata: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continue) metadata.continue = result.continue;
  if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  return toTable(columnsFor(info, ctx.objects.core.crds), result.items, metadata, {
    includeObject: query.get('includeObject') ?? undefined,
  });
}

function startWatch(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceInfo,
  ns: string | undefined,
  query: URLSearchParams,
): void | Promise<void> {
  requireVerb(info, 'watch');
  validateWatchOptions(query);
  const filter = compileFilter(
    info,
    query.get('labelSelector') ?? undefined,
    query.get('fieldSelector') ?? undefined,
  );
  const table = wantsTable(req.headers.accept);
  const columns = table ? columnsFor(info, ctx.objects.core.crds) : [];
  const includeObject = query.get('includeObject') ?? undefined;
  const timeout = query.get('timeoutSeconds');
  return ctx.watches.start(
    {
      info,
      namespace: ns,
      filter: (obj: StoredObject) => filter(obj),
      resourceVersion: query.get('resourceVersion') ?? undefined,
      timeoutSeconds: timeout ? Number(timeout) : undefined,
      allowWatchBookmarks: query.get('allowWatchBookmarks') === 'true',
      sendInitialEvents: sendInitialEventsOf(query),
      render: table
        ? (obj) =>
            toTable(columns, [obj], { resourceVersion: obj.metadata.resourceVersion }, { includeObject })
        : (obj) => obj,
      renderKey: table ? `table:${includeObject ?? ''}` : 'json',
    },
    res,
  );
}

const POD_CONNECT_NOTHING: Record<PodConnectSubresource, string> = {
  log: 'so there are no logs',
  exec: 'so there is nothing to exec in',
  attach: 'so there is nothing to attach to',
  portforward: 'so there is nothing to forward to',
};

/**
 * pods/log, exec, attach and portforward: the pod must exist (404 otherwise, as kube answers),
 * and then a 400 that says why — no container runs on this server (kubectl prints the message).
 */
function refusePodConnect(
  ctx: ResourceContext,
  info: ResourceInfo,
  ns: string | undefined,
  name: string,
  sub: PodConnectSubresource,
  method: string,
): never {
  const allowed = sub === 'log' ? ['GET'] : ['GET', 'POST'];
  if (!allowed.includes(method))
    throw new ApiError(
      405,
      'MethodNotAllowed',
      `the server does not allow this method on the requested resource`,
    );
  ctx.objects.get(info, ns, name);
  throw new ApiError(
    400,
    'BadRequest',
    `pods "${name}" is simulated by oam-local: no containers run, ${POD_CONNECT_NOTHING[sub]}`,
  );
}
