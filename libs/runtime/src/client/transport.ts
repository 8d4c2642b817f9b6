import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { realClock, type Clock, type TimerHandle } from '#kube-core';
import { sleep } from '../util/timing.js';
import { TokenBucket } from '../util/token-bucket.js';
import { KubeApiError } from './api-error.js';
import { requestMetrics, type RequestMetrics } from './request-metrics.js';

export interface TransportOptions {
  /** Client-side rate limit shared by every request of this transport (controller-runtime: 20 qps, burst 30). */
  qps?: number;
  burst?: number;
  /** Default time limit of a request, from sending to the end of the body. */
  timeoutMs?: number;
  registry?: Registry;
  userAgent?: string;
  /** Paces the rate limit and times request and idle timeouts and durations. Default: the wall clock. */
  clock?: Clock;
  /** Told of every request once it is answered (or not): what `oam -v` prints. Must not throw. */
  onResponse?: (event: HttpEvent) => void;
}

/** One request as sent and answered: `status` 0 when no answer came (`error` says why). */
export interface HttpEvent {
  method: RequestSpec['method'];
  url: string;
  status: number;
  durationMs: number;
  error?: string;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestSpec {
  /** The verb metrics are labelled with: get, list, watch, create, update, patch, delete. */
  verb: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  contentType?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface StreamSpec extends RequestSpec {
  /** The stream is declared dead (and closed) when no byte arrives for this long. */
  idleTimeoutMs: number;
}

/** How a stream ended: the server closed it, it went silent, the caller aborted, or the connection broke. */
export type StreamEnd = { reason: 'closed' | 'idle' | 'aborted' } | { reason: 'broken'; error: Error };

/**
 * HTTP to the API server: authentication and TLS from a client-node
 * KubeConfig, one keep-alive agent, a token-bucket rate limit, a time limit
 * on every request, and per-verb metrics. Nothing here retries: callers
 * decide (the Reflector re-watches, controllers requeue).
 */
export class KubeTransport {
  readonly registry: Registry;
  private readonly bucket: TokenBucket;
  private readonly timeoutMs: number;
  private readonly metrics: RequestMetrics;
  private readonly server: URL;
  /** The server's URL without a trailing slash: request paths are appended to it. */
  private readonly base: string;
  private agent?: http.Agent;
  /** The kubeconfig's credentials, once read, when they are static (see `credentials`). */
  private kept?: Promise<Credentials>;
  private readonly userAgent: string;
  private readonly clock: Clock;
  private readonly onResponse?: (event: HttpEvent) => void;

  constructor(
    readonly kubeConfig: KubeConfig,
    options: TransportOptions = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster)
      throw new Error(
        `kubeconfig has no current cluster (current context: "${kubeConfig.getCurrentContext()}")`,
      );
    this.server = new URL(cluster.server);
    this.base = this.server.href.replace(/\/$/, '');
    this.clock = options.clock ?? realClock;
    this.bucket = new TokenBucket(options.qps ?? 20, options.burst ?? 30, this.clock);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.registry = options.registry ?? new Registry();
    this.metrics = requestMetrics(this.registry);
    this.userAgent = options.userAgent ?? 'oam-runtime';
    this.onResponse = options.onResponse;
  }

  /** Sends a request and parses the JSON answer; non-2xx answers throw a KubeApiError. */
  async request<T>(spec: RequestSpec): Promise<T> {
    const timeoutMs = spec.timeoutMs ?? this.timeoutMs;
    const payload = payloadOf(spec);
    const { req, abort, cleanup } = await this.open(spec, timeoutMs, payload);
    const started = this.clock.now();
    try {
      const res = await responseOf(req, payload);
      this.metrics.duration.observe({ verb: spec.verb }, Math.max(0, this.clock.now() - started) / 1000);
      const text = await readBody(res);
      this.metrics.requests.inc({ verb: spec.verb, code: String(res.statusCode) });
      const code = res.statusCode ?? 0;
      this.tell(spec, started, code);
      if (code < 200 || code > 299) throw KubeApiError.fromResponse(code, text, spec.method, spec.path);
      return (text ? JSON.parse(text) : undefined) as T;
    } catch (err) {
      if (err instanceof KubeApiError) throw err;
      this.metrics.requests.inc({ verb: spec.verb, code: '0' });
      const failure = this.noAnswer(err, abort, spec, timeoutMs);
      this.tell(spec, started, 0, failure.message);
      throw failure;
    } finally {
      cleanup();
    }
  }

  /**
   * Opens a streaming GET and feeds it to `onLine` one line at a time
   * (watch responses are one JSON object per line). Resolves when the stream
   * ends, never rejects once the response has started; a non-2xx answer or
   * no answer at all rejects.
   */
  async stream(spec: StreamSpec, onLine: (line: string) => void): Promise<StreamEnd> {
    const { req, abort, cleanup, disarm } = await this.open(spec, spec.timeoutMs ?? this.timeoutMs);
    const started = this.clock.now();
    let res: http.IncomingMessage;
    try {
      res = await responseOf(req, undefined);
    } catch (err) {
      cleanup();
      this.metrics.requests.inc({ verb: spec.verb, code: '0' });
      const failure = this.noAnswer(err, abort, spec, spec.timeoutMs ?? this.timeoutMs);
      this.tell(spec, started, 0, failure.message);
      throw failure;
    }
    disarm(); // the overall time limit covered connecting; from here on the idle timer guards the stream
    this.metrics.requests.inc({ verb: spec.verb, code: String(res.statusCode) });
    const code = res.statusCode ?? 0;
    this.tell(spec, started, code);
    if (code < 200 || code > 299) {
      const text = await readBody(res).finally(cleanup);
      throw KubeApiError.fromResponse(code, text, spec.method, spec.path);
    }
    const clock = this.clock;
    const open = this.metrics.openStreams;
    open.inc({ verb: spec.verb });
    return new Promise<StreamEnd>((resolve) => {
      let buffered = '';
      let idle = clock.setTimeout(onIdle, spec.idleTimeoutMs);
      let ended = false;
      const onCallerAbort = (): void => finish({ reason: 'aborted' });
      function finish(end: StreamEnd): void {
        if (ended) return;
        ended = true;
        open.dec({ verb: spec.verb });
        spec.signal?.removeEventListener('abort', onCallerAbort);
        clock.clearTimeout(idle);
        cleanup();
        res.destroy();
        resolve(end);
      }
      function onIdle(): void {
        finish({ reason: 'idle' });
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        clock.clearTimeout(idle);
        idle = clock.setTimeout(onIdle, spec.idleTimeoutMs);
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (line && !deliver(line)) return;
          if (ended) return;
        }
      });
      // A consumer that cannot handle a line ends the stream as broken, with its error.
      function deliver(line: string): boolean {
        try {
          onLine(line);
          return true;
        } catch (error) {
          finish({ reason: 'broken', error: error as Error });
          return false;
        }
      }
      res.on('end', () => {
        if (buffered.trim() && !deliver(buffered.trim())) return;
        finish({ reason: 'closed' });
      });
      res.on('error', (error) =>
        finish(abort.signal.aborted ? { reason: 'aborted' } : { reason: 'broken', error }),
      );
      res.on('close', () => finish(abort.signal.aborted ? { reason: 'aborted' } : { reason: 'closed' }));
      spec.signal?.addEventListener('abort', onCallerAbort, { once: true });
    });
  }

  /** Closes idle keep-alive sockets (call when done with the transport). */
  close(): void {
    this.agent?.destroy();
  }

  private tell(spec: RequestSpec, started: number, status: number, error?: string): void {
    this.onResponse?.({
      method: spec.method,
      url: this.urlOf(spec).href,
      status,
      durationMs: Math.max(0, this.clock.now() - started),
      ...(error ? { error } : {}),
    });
  }

  private urlOf(spec: RequestSpec): URL {
    const url = new URL(this.base + spec.path);
    const query: [string, string][] = [];
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) query.push([k, String(v)]);
    // Serialized once (as searchParams.set would, pair by pair, re-serializing each time).
    if (query.length > 0) url.search = new URLSearchParams(query).toString();
    return url;
  }

  private async open(spec: RequestSpec, timeoutMs: number, payload?: string) {
    const waitMs = this.bucket.reserve();
    this.metrics.rateLimiterWait.observe({ verb: spec.verb }, waitMs / 1000);
    await sleep(waitMs, spec.signal, this.clock);
    const abort = new AbortController();
    const onCallerAbort = (): void => abort.abort(spec.signal?.reason);
    if (spec.signal?.aborted) abort.abort(spec.signal.reason);
    spec.signal?.addEventListener('abort', onCallerAbort, { once: true });
    let timer: TimerHandle | undefined = this.clock.setTimeout(
      () => abort.abort(new Error('timeout')),
      timeoutMs,
    );
    const options = await this.requestOptions(spec, payload);
    const lib = this.server.protocol === 'http:' ? http : https;
    const req = lib.request({ ...options, signal: abort.signal });
    const disarm = (): void => {
      this.clock.clearTimeout(timer);
      timer = undefined;
    };
    const cleanup = (): void => {
      disarm();
      spec.signal?.removeEventListener('abort', onCallerAbort);
    };
    return { req, abort, cleanup, disarm };
  }

  private async requestOptions(
    spec: RequestSpec,
    payload: string | undefined,
  ): Promise<https.RequestOptions> {
    const credentials = await this.credentials();
    const url = this.urlOf(spec);
    const headers: Record<string, string> = {
      ...credentials.headers,
      Accept: 'application/json',
      'User-Agent': this.userAgent,
    };
    if (payload !== undefined) {
      headers['Content-Type'] = spec.contentType ?? 'application/json';
      // Explicit: Node sends a DELETE body with neither Content-Length nor chunked encoding,
      // which the server reads as the start of the next request on the keep-alive connection.
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    return {
      agent: this.agent,
      auth: credentials.auth,
      method: spec.method,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (this.server.protocol === 'http:' ? 80 : 443),
      path: url.pathname + url.search,
      headers,
    };
  }

  /**
   * What the kubeconfig adds to a request: its headers (Authorization, impersonation) and
   * basic auth. With static credentials (no exec plugin, auth provider or custom
   * authenticator, which may refresh a token) they are read once: client-node otherwise
   * re-reads the CA, certificate and key files and builds an agent it is never asked for on
   * every request. The first read also builds the one keep-alive agent from the TLS material.
   */
  private credentials(): Promise<Credentials> {
    if (this.kept) return this.kept;
    const read = this.readCredentials();
    if (!hasStaticCredentials(this.kubeConfig)) return read;
    this.kept = read;
    read.catch(() => (this.kept = undefined)); // a failure is not kept: the next request reads again
    return read;
  }

  private async readCredentials(): Promise<Credentials> {
    const opts: https.RequestOptions = { headers: {} };
    await this.kubeConfig.applyToHTTPSOptions(opts);
    if (!this.agent) {
      // client-node builds a fresh agent per call; reuse the TLS material in one keep-alive agent instead.
      const servername = opts.servername ?? this.kubeConfig.getCurrentCluster()?.tlsServerName;
      const tls = {
        ca: opts.ca,
        cert: opts.cert,
        key: opts.key,
        rejectUnauthorized: opts.rejectUnauthorized,
        servername,
      };
      this.agent =
        this.server.protocol === 'http:'
          ? new http.Agent({ keepAlive: true })
          : new https.Agent({ keepAlive: true, ...tls });
    }
    return { headers: { ...(opts.headers as Record<string, string>) }, auth: opts.auth ?? undefined };
  }

  private noAnswer(err: unknown, abort: AbortController, spec: RequestSpec, timeoutMs: number): KubeApiError {
    const timedOut = abort.signal.aborted && !spec.signal?.aborted;
    const message = timedOut
      ? `no answer within ${timeoutMs} ms`
      : spec.signal?.aborted
        ? 'aborted by caller'
        : String((err as Error)?.message ?? err);
    return new KubeApiError(
      0,
      timedOut ? 'Timeout' : spec.signal?.aborted ? 'Aborted' : 'NetworkError',
      message,
      spec.method,
      spec.path,
    );
  }
}

/** What the kubeconfig adds to every request. */
interface Credentials {
  headers: Record<string, string>;
  auth?: string;
}

/** No exec plugin, auth provider or custom authenticator: nothing that may change a token between requests. */
function hasStaticCredentials(kubeConfig: KubeConfig): boolean {
  const user = kubeConfig.getCurrentUser();
  const custom = (kubeConfig as unknown as { custom_authenticators?: unknown[] }).custom_authenticators;
  return !user?.exec && !user?.authProvider && (custom?.length ?? 0) === 0;
}

/** The request body as sent: strings as they are, anything else as JSON. */
function payloadOf(spec: RequestSpec): string | undefined {
  if (spec.body === undefined) return undefined;
  return typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
}

function responseOf(req: http.ClientRequest, payload: string | undefined): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
    if (payload !== undefined) req.end(payload);
    else req.end();
  });
}

function readBody(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}
