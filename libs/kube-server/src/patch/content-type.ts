export type PatchKind = 'json' | 'merge' | 'strategic' | 'apply';

const KINDS: Record<string, PatchKind> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/**
 * The patch kind named by a request's Content-Type (parameters such as `; charset=utf-8`
 * ignored). `application/apply-patch+cbor` is undefined: kube serves it only behind the
 * CBORServingAndStorage feature gate, off by default.
 */
export function patchKindFromContentType(contentType: string): PatchKind | undefined {
  const base = contentType.split(';')[0].trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(KINDS, base) ? KINDS[base] : undefined;
}
