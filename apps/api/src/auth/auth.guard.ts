import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest as Request, HttpResponse as Response } from '../http/express-types.js';
import { TokenBucket } from '#runtime';
import { API_OPTIONS, type ResolvedApiOptions } from '../options.js';
import { ApiProblem } from '../http/problem.js';
import { ROUTE_KEY } from '../http/route.decorator.js';
import { routeSpec, type RouteId } from '../http/routes.js';
import { AUTHENTICATOR, type Authenticator, type Principal } from './authenticator.js';
import { bearerToken, requestPrincipal } from './request-principal.js';

/** Who made a request, for the access log (set once the token is checked). */
export const principals = new WeakMap<Request, Principal>();

/**
 * Every request passes here. A handler without an entry in ROUTES is refused
 * (fail closed); a public route passes; any other needs a valid bearer token
 * (401), within its rate limit (429), allowed to do the route's verb on its
 * resource in the request's namespace (403).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(AUTHENTICATOR) private readonly auth: Authenticator,
    @Inject(API_OPTIONS) private readonly options: ResolvedApiOptions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const id = this.reflector.get<RouteId | undefined>(ROUTE_KEY, context.getHandler());
    if (!id) throw new ApiProblem(403, 'this route is not in the route table');
    const spec = routeSpec(id);
    if (spec.access === 'public') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    if (!bearerToken(req)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new ApiProblem(401, 'a bearer token is required (Authorization: Bearer <token>)');
    }
    const principal = await requestPrincipal(this.auth, req).catch(unavailable);
    if (!principal) {
      res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw new ApiProblem(401, 'the bearer token is not valid');
    }
    principals.set(req, principal);
    if (!this.bucket(principal.id).tryTake()) {
      res.setHeader('Retry-After', '1');
      throw new ApiProblem(429, `more than ${this.options.rateLimitQps} requests per second with this token`);
    }
    const { verb, resource, namespaceFrom } = spec.access;
    const fromQuery = typeof req.query.namespace === 'string' ? req.query.namespace : undefined;
    const namespace = namespaceFrom === 'path' ? req.params.namespace : fromQuery;
    // The system namespace's catalog is what the platform offers every signed-in user.
    if (namespaceFrom === 'query' && !namespace) return true;
    const name = typeof req.params.name === 'string' ? req.params.name : undefined;
    const allowed = await this.auth
      .authorize(principal, { verb, resource, namespace: namespace as string, name })
      .catch(unavailable);
    if (!allowed)
      throw new ApiProblem(403, `${principal.name} may not ${verb} ${resource} in namespace "${namespace}"`);
    return true;
  }

  private bucket(id: string): TokenBucket {
    let b = this.buckets.get(id);
    if (!b) {
      const qps = this.options.rateLimitQps;
      this.buckets.set(id, (b = new TokenBucket(qps, qps * 2)));
    }
    return b;
  }
}

function unavailable(err: unknown): never {
  throw new ApiProblem(503, `cannot check the token with the cluster: ${(err as Error).message}`);
}
