import { parseApiVersion } from '#kube-core';
import { ApiError } from '../errors.js';
import messagesJson from './messages.json' with { type: 'json' };
import { WireReader } from './wire.js';

/** [field number, JSON name, s(ingle)|r(epeated)|m(ap), type, map value type] from k8s.io/api's generated.proto. */
type Field = [number, string, 's' | 'r' | 'm', string, string?];
const MESSAGES = messagesJson as unknown as Record<string, Field[]>;
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const MAGIC = [0x6b, 0x38, 0x73, 0x00]; // "k8s\0"

const fieldTables = new Map<string, Map<number, Field>>();
function fieldsOf(type: string): Map<number, Field> | undefined {
  let table = fieldTables.get(type);
  if (!table && MESSAGES[type]) {
    table = new Map(MESSAGES[type].map((f) => [f[0], f]));
    fieldTables.set(type, table);
  }
  return table;
}

const rfc3339 = (seconds: number, nanos: number, micro: boolean) => {
  const iso = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
};

/** Messages kube serializes to JSON as something other than an object. */
function special(type: string, value: Record<string, unknown>): unknown {
  switch (type) {
    case `${META}.Time`:
    case `${META}.MicroTime`:
      return value.seconds || value.nanos
        ? rfc3339(Number(value.seconds ?? 0), Number(value.nanos ?? 0), type.endsWith('MicroTime'))
        : undefined;
    case `${META}.Duration`:
      return `${Number(value.duration ?? 0) / 1e9}s`;
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return Number(value.type ?? 0) === 1 ? (value.strVal ?? '') : Number(value.intVal ?? 0);
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return value.string;
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
    case `${META}.FieldsV1`: {
      const raw = (value.raw ?? value.Raw) as string | undefined;
      return raw ? JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) : undefined;
    }
  }
  return value;
}

function scalar(reader: WireReader, wireType: number, type: string): unknown {
  switch (type) {
    case 'string':
      return Buffer.from(reader.bytes()).toString('utf8');
    case 'bytes':
      return Buffer.from(reader.bytes()).toString('base64');
    case 'bool':
      return reader.varint() !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, reader.varint()));
    case 'int64':
      return Number(BigInt.asIntN(64, reader.varint()));
    case 'uint32':
    case 'uint64':
      return Number(reader.varint());
    case 'double':
      return reader.fixed64().getFloat64(0, true);
    case 'float':
      return reader.fixed32().getFloat32(0, true);
    default:
      reader.skip(wireType);
      return undefined;
  }
}

function value(reader: WireReader, wireType: number, type: string): unknown {
  if (fieldsOf(type)) return special(type, message(reader.bytes(), type));
  return scalar(reader, wireType, type);
}

/**
 * Pointer fields where 0/false is a deliberate value (replicas: 0, runAsUser: 0,
 * automountServiceAccountToken: false). The .proto does not say which fields are
 * pointers, so these are listed; other zero values are dropped.
 */
const KEEP_ZERO = new Set([
  'replicas',
  'minReplicas',
  'parallelism',
  'completions',
  'backoffLimit',
  'revisionHistoryLimit',
  'successfulJobsHistoryLimit',
  'failedJobsHistoryLimit',
  'ttlSecondsAfterFinished',
  'activeDeadlineSeconds',
  'terminationGracePeriodSeconds',
  'runAsUser',
  'runAsGroup',
  'fsGroup',
  'runAsNonRoot',
  'privileged',
  'allowPrivilegeEscalation',
  'readOnlyRootFilesystem',
  'automountServiceAccountToken',
  'enableServiceLinks',
  'shareProcessNamespace',
  'hostUsers',
  'suspend',
  'optional',
  'immutable',
  'partition',
  'defaultMode',
  'mode',
  'allocateLoadBalancerNodePorts',
  'publishNotReadyAddresses',
  'unschedulable',
]);

/**
 * Decodes one message into kube's JSON shape. Go's marshaller writes every
 * non-pointer field, even empty; JSON omits those (omitempty), so empty strings
 * and zero values (outside KEEP_ZERO) are dropped.
 */
export function message(buf: Uint8Array, type: string): Record<string, unknown> {
  const table = fieldsOf(type);
  const out: Record<string, unknown> = {};
  const reader = new WireReader(buf);
  while (!reader.done()) {
    const { field, wireType } = reader.key();
    const f = table?.get(field);
    if (!f) {
      reader.skip(wireType);
      continue;
    }
    const [, name, shape, t, valueType] = f;
    if (shape === 'm') {
      const entry = new WireReader(reader.bytes());
      let key: unknown = '';
      let val: unknown;
      while (!entry.done()) {
        const k = entry.key();
        if (k.field === 1) key = value(entry, k.wireType, t);
        else if (k.field === 2) val = value(entry, k.wireType, valueType as string);
        else entry.skip(k.wireType);
      }
      const map = (out[name] ??= {}) as Record<string, unknown>;
      map[String(key)] = val ?? (valueType === 'string' || valueType === 'bytes' ? '' : val);
    } else if (shape === 'r') {
      const list = (out[name] ??= []) as unknown[];
      if (wireType === 2 && !fieldsOf(t) && t !== 'string' && t !== 'bytes') {
        const packed = new WireReader(reader.bytes());
        while (!packed.done()) list.push(scalar(packed, t === 'double' ? 1 : t === 'float' ? 5 : 0, t));
      } else list.push(value(reader, wireType, t));
    } else {
      const v = value(reader, wireType, t);
      if (v === undefined || v === '' || ((v === 0 || v === false) && !KEEP_ZERO.has(name))) delete out[name];
      else out[name] = v;
    }
  }
  return out;
}

/** The proto message of a kind: k8s.io.api.<group's first label or core>.<version>.<Kind>. */
export function messageType(apiVersion: string, kind: string): string {
  const { group, version } = parseApiVersion(apiVersion);
  if (group === 'meta.k8s.io' || kind === 'DeleteOptions') return `${META}.${kind}`;
  return `k8s.io.api.${group ? group.split('.')[0] : 'core'}.${version}.${kind}`;
}

/** Decodes a kube protobuf body ("k8s\0" + runtime.Unknown) into the object as JSON would carry it. */
export function decodeKubeProtobuf(body: Uint8Array): Record<string, unknown> {
  if (body.length < 4 || MAGIC.some((b, i) => body[i] !== b)) {
    throw new ApiError(400, 'BadRequest', 'the protobuf body does not start with the "k8s\\x00" envelope');
  }
  try {
    const unknown = message(body.subarray(4), 'k8s.io.apimachinery.pkg.runtime.Unknown');
    const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
    const type = messageType(typeMeta.apiVersion ?? '', typeMeta.kind ?? '');
    if (!MESSAGES[type]) {
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `protobuf is not supported for ${typeMeta.apiVersion}/${typeMeta.kind}; send JSON`,
      );
    }
    const raw = Buffer.from((unknown.raw as string | undefined) ?? '', 'base64');
    return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...message(raw, type) };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(
      400,
      'BadRequest',
      `the object provided is unrecognized: protobuf: ${(err as Error).message}`,
    );
  }
}
