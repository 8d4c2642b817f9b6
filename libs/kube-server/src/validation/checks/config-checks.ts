/** ConfigMap and Secret checks (core/validation ValidateConfigMap, ValidateSecret). */
import { type FieldCause, invalid, required, tooLong } from '../field-errors.js';
import { isConfigMapKey } from '../syntax.js';
import { type Obj, asObj } from './meta-checks.js';

/** Both kinds cap their payload at 1 MiB (etcd's request limit leaves room for the rest). */
const MAX_PAYLOAD_BYTES = 1024 * 1024;

function validateKeys(map: unknown, field: string): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const key of Object.keys(asObj(map))) {
    for (const msg of isConfigMapKey(key)) causes.push(invalid(`${field}[${key}]`, key, msg));
  }
  return causes;
}

const textBytes = (map: unknown): number =>
  Object.values(asObj(map)).reduce<number>(
    (n, v) => n + (typeof v === 'string' ? Buffer.byteLength(v) : 0),
    0,
  );

/** Secret `data` values are base64; their decoded size counts. */
const base64Bytes = (map: unknown): number =>
  Object.values(asObj(map)).reduce<number>(
    (n, v) => n + (typeof v === 'string' ? Buffer.from(v, 'base64').length : 0),
    0,
  );

export function validateConfigMap(obj: Obj): FieldCause[] {
  const causes = [...validateKeys(obj.data, 'data'), ...validateKeys(obj.binaryData, 'binaryData')];
  const data = asObj(obj.data);
  for (const key of Object.keys(asObj(obj.binaryData))) {
    if (Object.prototype.hasOwnProperty.call(data, key)) {
      causes.push(invalid(`binaryData[${key}]`, key, 'duplicate of key present in data'));
    }
  }
  if (textBytes(obj.data) + base64Bytes(obj.binaryData) > MAX_PAYLOAD_BYTES)
    // ValidateConfigMap reports the whole payload at field.NewPath(""), which prints as "[]".
    causes.push(tooLong('[]', MAX_PAYLOAD_BYTES));
  return causes;
}

/** Keys each typed secret must carry (stringData counts: kube merges it into data first). */
const REQUIRED_SECRET_KEYS: Record<string, string[]> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
};

export function validateSecret(obj: Obj): FieldCause[] {
  // stringData is folded into data before kube validates, so its keys are reported under data[...].
  const causes = [...validateKeys({ ...asObj(obj.data), ...asObj(obj.stringData) }, 'data')];
  const keys = new Set([...Object.keys(asObj(obj.data)), ...Object.keys(asObj(obj.stringData))]);
  for (const key of REQUIRED_SECRET_KEYS[obj.type as string] ?? []) {
    if (!keys.has(key)) causes.push(required(`data[${key}]`));
  }
  if (obj.type === 'kubernetes.io/service-account-token') {
    const annotations = asObj(asObj(obj.metadata).annotations);
    if (!annotations['kubernetes.io/service-account.name']) {
      causes.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
    }
  }
  if (base64Bytes(obj.data) + textBytes(obj.stringData) > MAX_PAYLOAD_BYTES)
    causes.push(tooLong('data', MAX_PAYLOAD_BYTES));
  return causes;
}
