import { randomInt } from 'node:crypto';
import { ApiError, type StatusCause } from '../errors.js';
import type { ResourceInfo } from '../resources/builtin.js';
import { jsonEqual, type StoredObject } from '#kube-core';

/** RFC 3339 with seconds, as kube-apiserver writes timestamps. */
export function nowTimestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function generateNameSuffix(): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[randomInt(NAME_ALPHABET.length)];
  return suffix;
}

/** True when something outside metadata and status changed: what bumps metadata.generation. */
export function specChanged(before: StoredObject, after: StoredObject): boolean {
  const strip = (o: StoredObject) => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
    return rest;
  };
  return !jsonEqual(strip(before), strip(after));
}

/**
 * Same object apart from resourceVersion: such a write is a no-op and stores nothing.
 * managedFields count, as they do for etcd's byte comparison: a second manager applying
 * the same values changes only ownership, and that change must be stored.
 */
export function sameContent(a: StoredObject, b: StoredObject): boolean {
  const strip = (o: StoredObject) => {
    const { resourceVersion: _r, ...meta } = o.metadata;
    return { ...o, metadata: meta };
  };
  return jsonEqual(strip(a), strip(b));
}

export function notFound(info: ResourceInfo, name: string): ApiError {
  const kind = info.plural;
  const qualified = info.group ? `${kind}.${info.group}` : kind;
  return new ApiError(404, 'NotFound', `${qualified} "${name}" not found`, {
    name,
    ...(info.group ? { group: info.group } : {}),
    kind,
  });
}

export function namespaceNotFound(namespace: string): ApiError {
  return new ApiError(404, 'NotFound', `namespaces "${namespace}" not found`, {
    name: namespace,
    kind: 'namespaces',
  });
}

export function alreadyExists(info: ResourceInfo, name: string): ApiError {
  const qualified = info.group ? `${info.plural}.${info.group}` : info.plural;
  return new ApiError(409, 'AlreadyExists', `${qualified} "${name}" already exists`, {
    name,
    ...(info.group ? { group: info.group } : {}),
    kind: info.plural,
  });
}

export function conflict(info: ResourceInfo, name: string, why: string): ApiError {
  const qualified = info.group ? `${info.plural}.${info.group}` : info.plural;
  return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified} "${name}": ${why}`, {
    name,
    ...(info.group ? { group: info.group } : {}),
    kind: info.plural,
  });
}

export const MODIFIED_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid: `<Kind> "<name>" is invalid: <field>: <message>` with details.causes. */
export function invalid(info: ResourceInfo, name: string, causes: StatusCause[]): ApiError {
  const summary = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const text = summary.length === 1 ? summary[0] : `[${summary.join(', ')}]`;
  return new ApiError(
    422,
    'Invalid',
    `${info.kind}${info.group ? `.${info.group}` : ''} "${name}" is invalid: ${text}`,
    {
      name,
      ...(info.group ? { group: info.group } : {}),
      kind: info.kind,
      causes,
    },
  );
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}
