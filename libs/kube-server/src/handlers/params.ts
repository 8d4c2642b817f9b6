import type { IncomingMessage } from 'node:http';
import type { WriteOptions } from '../core.js';
import { ApiError } from '../errors.js';
import type { DeleteOptions, PropagationPolicy } from '../objects/deleter.js';
import type { ListQuery } from '../objects/reader.js';

/** The field manager: ?fieldManager=, else the client's user agent up to the first '/', as kube-apiserver does. */
export function managerOf(req: IncomingMessage, query: URLSearchParams): string {
  const explicit = query.get('fieldManager');
  if (explicit) return explicit;
  const agent = (req.headers['user-agent'] ?? '').split('/')[0].trim();
  return agent || 'unknown';
}

export function writeOptions(req: IncomingMessage, query: URLSearchParams): WriteOptions {
  const dryRun = query.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All')) {
    throw new ApiError(
      400,
      'BadRequest',
      `dryRun: Unsupported value: "${dryRun.find((d) => d !== 'All')}": supported values: "All"`,
    );
  }
  return {
    dryRun: dryRun.includes('All'),
    manager: managerOf(req, query),
    force: query.get('force') === 'true',
    fieldValidation: query.get('fieldValidation') ?? undefined,
    warnings: [],
  };
}

export function listQuery(query: URLSearchParams): ListQuery {
  const limit = query.get('limit');
  return {
    labelSelector: query.get('labelSelector') ?? undefined,
    fieldSelector: query.get('fieldSelector') ?? undefined,
    limit: limit ? Number(limit) : undefined,
    continue: query.get('continue') ?? undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
  };
}

const POLICIES = ['Background', 'Foreground', 'Orphan'];

/** DeleteOptions from the body (kubectl sends one) and/or the query string. */
export function deleteOptions(body: unknown, query: URLSearchParams): DeleteOptions {
  const b = (body && typeof body === 'object' ? body : {}) as {
    propagationPolicy?: string;
    orphanDependents?: boolean;
    preconditions?: { uid?: string; resourceVersion?: string };
    dryRun?: string[];
  };
  let policy = query.get('propagationPolicy') ?? b.propagationPolicy;
  const orphan = query.get('orphanDependents') ?? b.orphanDependents;
  if (!policy && orphan !== undefined && orphan !== null)
    policy = String(orphan) === 'true' ? 'Orphan' : 'Background';
  if (policy && !POLICIES.includes(policy)) {
    throw new ApiError(
      422,
      'Invalid',
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
    );
  }
  return {
    dryRun: query.getAll('dryRun').includes('All') || (b.dryRun ?? []).includes('All'),
    propagationPolicy: policy as PropagationPolicy | undefined,
    preconditions: b.preconditions,
  };
}
