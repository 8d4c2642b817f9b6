import type { HttpRequest } from '../http/express-types.js';
import type { Authenticator, Principal } from './authenticator.js';

const checked = new WeakMap<HttpRequest, Promise<Principal | undefined>>();

/** The bearer token of a request's Authorization header, if it has one. */
export function bearerToken(req: HttpRequest): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/**
 * Who sent the request: its bearer token checked once per request (the body
 * reader asks before reading, the guard again), undefined without a valid
 * token. Rejects only when the check could not be made (see Authenticator).
 */
export function requestPrincipal(auth: Authenticator, req: HttpRequest): Promise<Principal | undefined> {
  let principal = checked.get(req);
  if (!principal) {
    const token = bearerToken(req);
    checked.set(req, (principal = token ? auth.authenticate(token) : Promise.resolve(undefined)));
  }
  return principal;
}
