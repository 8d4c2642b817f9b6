import { ApiError } from '../errors.js';

/**
 * etcd's default --max-request-bytes (1.5 MiB): etcd refuses a write request bigger than this,
 * so kube-apiserver cannot store an object that big. (Its own 3 MiB limit is on request
 * bodies: http/messages.ts.)
 */
export const MAX_STORED_BYTES = 1.5 * 1024 * 1024;

/** UTF-8 bytes are at most 3 per UTF-16 unit: most texts need no counting. */
function byteLength(text: string): number {
  return text.length * 3 <= MAX_STORED_BYTES ? text.length : Buffer.byteLength(text);
}

/**
 * Refuses an object whose stored form (`text`, under `key`) is over etcd's limit, as
 * kube-apiserver passes etcd's answer on. etcd counts its own encoding (protobuf for built-in
 * kinds, JSON for custom resources) and framing; the JSON text and key are close to it.
 */
export function checkStoredSize(key: string, text: string): void {
  if (byteLength(text) + key.length > MAX_STORED_BYTES) throw new TooLargeToStore();
}

/** etcd's refusal as kube-apiserver passes it on: a bare 500. */
export class TooLargeToStore extends ApiError {
  constructor() {
    super(500, '', 'etcdserver: request is too large');
  }
}
