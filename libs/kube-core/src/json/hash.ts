import { createHash } from 'node:crypto';
import { stableStringify } from './stable.js';

/** SHA-256 (hex) of a value's stable JSON: equal values hash equally whatever their key order. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex');
}
