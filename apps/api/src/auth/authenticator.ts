import type { Verb } from '../http/routes.js';

/** Who a request's bearer token is; never the token itself (it is never logged or kept on requests). */
export interface Principal {
  name: string;
  groups: string[];
  /** The key its rate limit is counted under. */
  id: string;
}

export interface AccessRequest {
  verb: Verb;
  resource: string;
  /** Undefined: the request names no namespace (the system catalog). */
  namespace?: string;
  name?: string;
}

/**
 * Checks bearer tokens and what their holders may do. `authenticate` resolves
 * undefined for an unknown token (401); `authorize` false for a refused
 * request (403). Both throw only when the check itself could not be made
 * (the cluster did not answer), which is a 503, never an open door.
 */
export interface Authenticator {
  authenticate(token: string): Promise<Principal | undefined>;
  authorize(principal: Principal, access: AccessRequest): Promise<boolean>;
}

export const AUTHENTICATOR = Symbol('AUTHENTICATOR');
