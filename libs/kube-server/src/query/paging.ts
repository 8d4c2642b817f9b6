import { ApiError } from '../errors.js';

/** The opaque continue token: the list's resourceVersion and the key to start after (as kube encodes it). */
export interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start })).toString(
    'base64url',
  );
}

export function decodeContinue(text: string): ContinueToken {
  const invalid = (why: string) =>
    new ApiError(400, 'BadRequest', `invalid continue token: continue key is not valid: ${why}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch (err) {
    throw invalid((err as Error).message);
  }
  const t = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (t?.v !== 'meta.k8s.io/v1') throw invalid('server does not recognize this encoded key');
  if (typeof t.rv !== 'number' || t.rv < 0 || typeof t.start !== 'string')
    throw invalid('incorrect encoded start resourceVersion');
  return { rv: t.rv, start: t.start };
}
