import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyPatch, patchKindFromContentType } from '../../patch/index.js';
import type { ScalePaths } from '../../resources/crds.js';
import { ApiError } from '../../errors.js';
import { decodeBody, readBody, sendJson } from '../messages.js';
import { evaluateJsonPath } from '../../table/jsonpath.js';
import { conflict, MODIFIED_MESSAGE } from '../../objects/meta.js';
import type { ResourceInfo } from '../../resources/builtin.js';
import { type StoredObject } from '#kube-core';
import type { ResourceContext } from './resource.js';
import { writeOptions } from './params.js';

type Selector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
};

const BUILTIN_PATHS: ScalePaths = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
};

/** A label selector object as the string form Scale.status.selector carries. */
function selectorString(sel: Selector | undefined): string {
  const parts = Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of sel?.matchExpressions ?? []) {
    const op = { In: 'in', NotIn: 'notin' }[e.operator];
    if (op) parts.push(`${e.key} ${op} (${(e.values ?? []).join(',')})`);
    else parts.push(e.operator === 'Exists' ? e.key : `!${e.key}`);
  }
  return parts.join(',');
}

const first = (obj: unknown, path: string) => evaluateJsonPath(obj, path)[0];

/** autoscaling/v1 Scale of a workload or of a custom resource (through its CRD's scale paths). */
export function scaleOf(obj: StoredObject, paths: ScalePaths, builtin: boolean): StoredObject {
  const selector = builtin
    ? selectorString((obj.spec as { selector?: Selector } | undefined)?.selector)
    : paths.labelSelectorPath
      ? first(obj, paths.labelSelectorPath)
      : undefined;
  const m = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: (first(obj, paths.specReplicasPath) as number | undefined) ?? 0 },
    status: {
      replicas: (first(obj, paths.statusReplicasPath) as number | undefined) ?? 0,
      ...(selector ? { selector } : {}),
    },
  };
}

function setPath(obj: StoredObject, path: string, value: unknown): void {
  const keys = path.replace(/^\./, '').split('.');
  let cur = obj as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    if (!cur[key] || typeof cur[key] !== 'object') cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]] = value;
}

export async function handleScale(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceInfo,
  ns: string | undefined,
  name: string,
  query: URLSearchParams,
): Promise<void> {
  const method = req.method ?? 'GET';
  const paths = ctx.objects.core.crds.scalePaths(info) ?? BUILTIN_PATHS;
  const builtin = !info.crd;
  const live = ctx.objects.get(info, ns, name);
  if (method === 'GET') return sendJson(res, 200, scaleOf(live, paths, builtin));
  if (method !== 'PUT' && method !== 'PATCH')
    throw new ApiError(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
    );
  const raw = await readBody(req);
  let scale: { metadata?: { resourceVersion?: string }; spec?: { replicas?: unknown } };
  if (method === 'PUT') {
    scale = decodeBody(raw, req.headers['content-type'], 'Scale') as typeof scale;
  } else {
    const kind = patchKindFromContentType(req.headers['content-type'] ?? '');
    if (!kind || kind === 'apply')
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `unsupported patch type for scale: ${req.headers['content-type']}`,
      );
    const patch = decodeBody(raw, 'application/json', 'Scale');
    scale = applyPatch(kind, scaleOf(live, paths, builtin), patch, {
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    }) as typeof scale;
  }
  const replicas = scale.spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw new ApiError(
      422,
      'Invalid',
      `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
      {
        name,
        group: 'autoscaling',
        kind: 'Scale',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
            field: 'spec.replicas',
          },
        ],
      },
    );
  }
  const rv = scale.metadata?.resourceVersion;
  if (rv && rv !== live.metadata.resourceVersion) throw conflict(info, name, MODIFIED_MESSAGE);
  const next = structuredClone(live);
  setPath(next, paths.specReplicasPath, replicas);
  const updated = ctx.objects.update(info, ns, name, next, writeOptions(req, query)).object;
  sendJson(res, 200, scaleOf(updated, paths, builtin));
}
