import { stableStringify } from '#kube-core';

/** 32-bit FNV-1a, the hash kube's controllers use for template hashes. */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** k8s.io/apimachinery/pkg/util/rand.SafeEncodeString: no vowels, no confusable characters. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += ALPHANUMS[s.charCodeAt(i) % ALPHANUMS.length];
  return out;
}

/**
 * controller.ComputeHash: FNV-1a of the object (here its canonical JSON, where
 * kube hashes a spew dump of the Go struct), plus the collision count as 8
 * little-endian bytes, printed in decimal and safe-encoded ("5d8f7b9c6").
 */
export function computeHash(value: unknown, collisionCount?: number): string {
  const data = new TextEncoder().encode(stableStringify(value));
  let h = fnv32a(data);
  if (collisionCount !== undefined && collisionCount !== null) {
    const extra = new Uint8Array(8);
    new DataView(extra.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(extra, h);
  }
  return safeEncodeString(String(h));
}
