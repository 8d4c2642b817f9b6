import type { IncomingMessage } from 'node:http';
import type { WriteOptions } from '../../core.js';
import { ApiError } from '../../errors.js';
import type { DeleteOptions, PropagationPolicy } from '../../objects/deleter.js';
import type { ListQuery } from '../../objects/reader.js';

/** The field manager: ?fieldManager=, else the client's user agent up to the first '/', as kube-apiserver does. */
export function managerOf(req: IncomingMessage, query: URLSearchParams): string {
  const explicit = query.get('fieldManager');
  if (explicit) return explicit;
  const agent = (req.headers['user-agent'] ?? '').split('/')[0].trim();
  return agent || 'unknown';
}

const FIELD_VALIDATIONS = ['Ignore', 'Strict', 'Warn'];
/** The options kind each write's query parameters decode into. */
const OPTIONS_KIND: Record<string, string> = {
  POST: 'CreateOptions',
  PUT: 'UpdateOptions',
  PATCH: 'PatchOptions',
};

/** ValidateFieldValidation's 422, under the write's options kind. */
function unsupportedFieldValidation(kind: string, value: string): ApiError {
  const message = `Unsupported value: ${JSON.stringify(value)}: supported values: "", "Ignore", "Strict", "Warn"`;
  return new ApiError(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: fieldValidation: ${message}`, {
    group: 'meta.k8s.io',
    kind,
    causes: [{ reason: 'FieldValueNotSupported', message, field: 'fieldValidation' }],
  });
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
  const fieldValidation = query.get('fieldValidation') ?? undefined;
  if (fieldValidation && !FIELD_VALIDATIONS.includes(fieldValidation))
    throw unsupportedFieldValidation(OPTIONS_KIND[req.method ?? ''] ?? 'CreateOptions', fieldValidation);
  return {
    dryRun: dryRun.includes('All'),
    manager: managerOf(req, query),
    force: query.get('force') === 'true',
    fieldValidation,
    warnings: [],
  };
}

interface ListCause {
  reason: string;
  message: string;
  field: string;
}

/** ValidateListOptions (apimachinery meta/internalversion/validation) for a list that is not a watch. */
function listOptionCauses(query: URLSearchParams): ListCause[] {
  const causes: ListCause[] = [];
  const forbid = (field: string, detail: string) =>
    causes.push({ reason: 'FieldValueForbidden', message: `Forbidden: ${detail}`, field });
  const match = query.get('resourceVersionMatch') ?? '';
  const rv = query.get('resourceVersion') ?? '';
  if (match) {
    if (!rv)
      forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (query.get('continue'))
      forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      causes.push({
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan", ""`,
        field: 'resourceVersionMatch',
      });
    }
    if (match === 'Exact' && rv === '0')
      forbid('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  if (query.get('sendInitialEvents') !== null)
    forbid('sendInitialEvents', 'sendInitialEvents is forbidden for list');
  return causes;
}

/** validateWatchOptions (the same file): resourceVersionMatch and sendInitialEvents go together. */
function watchOptionCauses(query: URLSearchParams): ListCause[] {
  const causes: ListCause[] = [];
  const forbid = (field: string, detail: string) =>
    causes.push({ reason: 'FieldValueForbidden', message: `Forbidden: ${detail}`, field });
  const match = query.get('resourceVersionMatch') ?? '';
  const sendInitialEvents = query.get('sendInitialEvents') !== null;
  if (sendInitialEvents && match !== 'NotOlderThan')
    forbid('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  if (match) {
    if (!sendInitialEvents)
      forbid(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      );
    if (match !== 'NotOlderThan') {
      causes.push({
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${JSON.stringify(match)}: supported values: "NotOlderThan"`,
        field: 'resourceVersionMatch',
      });
    }
    if (query.get('continue'))
      forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
  }
  return causes;
}

/** kube's 422 for invalid list or watch options: `ListOptions.meta.k8s.io "" is invalid: ...`. */
function throwListOptionErrors(causes: ListCause[]): void {
  if (!causes.length) return;
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const text = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  throw new ApiError(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${text}`, {
    group: 'meta.k8s.io',
    kind: 'ListOptions',
    causes,
  });
}

export function validateListOptions(query: URLSearchParams): void {
  throwListOptionErrors(listOptionCauses(query));
}

export function validateWatchOptions(query: URLSearchParams): void {
  throwListOptionErrors(watchOptionCauses(query));
}

/** ?sendInitialEvents= as Go's strconv.ParseBool reads it; unset stays unset. */
export function sendInitialEventsOf(query: URLSearchParams): boolean | undefined {
  const value = query.get('sendInitialEvents');
  if (value === null) return undefined;
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value);
}

export function listQuery(query: URLSearchParams): ListQuery {
  validateListOptions(query);
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
