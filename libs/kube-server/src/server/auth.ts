import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';

/** The bearer token, random at first start and kept with the state. */
export function loadOrCreateToken(stateDir: string): string {
  const file = join(stateDir, 'token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, token + '\n', { mode: 0o600 });
  return token;
}

export function tokenMatches(expected: string, presented: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Throws 401 in the Status format unless the request carries the bearer token. */
export function authenticate(req: IncomingMessage, token: string): void {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (!m || !tokenMatches(token, m[1].trim())) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
}

/** The identity of the local token, as TokenReview and SelfSubjectReview report it. */
export const LOCAL_USER = {
  username: 'oam-local-admin',
  uid: 'oam-local-admin',
  groups: ['system:masters', 'system:authenticated'],
};
