import { Histogram, type Registry } from 'prom-client';
import type { Logger } from '#runtime';
import type { HttpRequest, HttpResponse } from './express-types.js';
import { principals } from '../auth/auth.guard.js';
import { ApiProblem } from './problem.js';

type Next = (err?: unknown) => void;
export type Middleware = (req: HttpRequest, res: HttpResponse, next: Next) => void;

export function sendProblem(res: HttpResponse, problem: ApiProblem): void {
  if (res.headersSent) return void res.end();
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem.toJSON()));
}

const JSON_TYPE = /^application\/(json|merge-patch\+json|[\w.-]+\+json)\s*(;|$)/i;

/**
 * Reads a JSON body (also merge-patch+json) up to `limit` bytes: 413 above it, 415 for other
 * types, 400 if not JSON. Only once `authenticated` says the caller's token is valid: anyone
 * else gets the guard's 401 before the body is read or judged (no public route takes a body).
 */
export function jsonBody(limit: number, authenticated: (req: HttpRequest) => Promise<boolean>): Middleware {
  const read = readJsonBody(limit);
  return (req, res, next) => {
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return next();
    authenticated(req).then(
      (ok) => (ok ? read(req, res, next) : next()),
      () => next(), // the guard asks again and answers 503
    );
  };
}

function readJsonBody(limit: number): Middleware {
  return (req, res, next) => {
    const type = req.headers['content-type'] ?? '';
    if (!JSON_TYPE.test(type))
      return sendProblem(
        res,
        new ApiProblem(415, `send JSON (application/json or application/merge-patch+json), not "${type}"`),
      );
    if (Number(req.headers['content-length'] ?? 0) > limit)
      return sendProblem(res, new ApiProblem(413, `the request body is larger than ${limit} bytes`));
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit && !failed) {
        failed = true;
        sendProblem(res, new ApiProblem(413, `the request body is larger than ${limit} bytes`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (failed) return;
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        req.body = text.trim() ? JSON.parse(text) : undefined;
      } catch (err) {
        return sendProblem(
          res,
          new ApiProblem(400, `the request body is not valid JSON: ${(err as Error).message}`),
        );
      }
      next();
    });
    req.on('error', (err) => next(err));
  };
}

/**
 * One JSON line per request (method, path, status, duration, who: a name,
 * never the token) and its latency in `oam_api_request_duration_seconds`,
 * labelled by the route's pattern (not the path, which names objects).
 */
export function accessLog(log: Logger, registry: Registry): Middleware {
  const latency = new Histogram({
    name: 'oam_api_request_duration_seconds',
    help: 'REST API requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('close', () => {
      const ms = Number((process.hrtime.bigint() - start) / 1000n) / 1000;
      const route = req.route?.path ?? 'unmatched';
      latency.observe({ method: req.method, route, status: String(res.statusCode) }, ms / 1000);
      log.info('request', {
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms,
        user: principals.get(req)?.name,
      });
    });
    next();
  };
}

/** A request not answered within `ms` gets 503 (watch streams are meant to stay open). */
const SIGNALS = new WeakMap<object, AbortSignal>();

/**
 * Gives each request an AbortSignal that fires once its response is closed: sent (a 503 for
 * the time limit included) or abandoned by the client. Work done only for that response
 * (a preview's template evaluations) stops then instead of running on for no one.
 */
export function abortOnClose(): Middleware {
  return (req, res, next) => {
    const controller = new AbortController();
    SIGNALS.set(req, controller.signal);
    res.on('close', () =>
      controller.abort(
        Object.assign(new Error('the response was sent or the client went away'), { name: 'AbortError' }),
      ),
    );
    next();
  };
}

/** The request's signal (see abortOnClose); undefined for a request that did not pass through it. */
export function requestSignal(req: object): AbortSignal | undefined {
  return SIGNALS.get(req);
}

export function requestTimeout(ms: number): Middleware {
  return (req, res, next) => {
    if (req.path.endsWith('/watch')) return next();
    const timer = setTimeout(() => sendProblem(res, new ApiProblem(503, `no answer within ${ms} ms`)), ms);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    next();
  };
}
