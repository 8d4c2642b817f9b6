import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type * as k8s from '@kubernetes/client-node';

/**
 * Raw HTTPS against the API server, for what @kubernetes/client-node hides:
 * status codes, reasons, headers, Table output, watch streams. Credentials
 * (CA, bearer token or client certificate) come from the same KubeConfig.
 */
export interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
  /** The body parsed as JSON; throws with the body in the message when it is not JSON. */
  json<T = any>(): T;
}

export interface RawRequest {
  body?: string | Buffer | object;
  contentType?: string;
  accept?: string;
  headers?: Record<string, string>;
  /** Send no credentials at all (the 401 tests). */
  anonymous?: boolean;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: any;
}

export interface WatchResult {
  status: number;
  events: WatchEvent[];
  /** True when the server closed the stream itself (timeoutSeconds, or an ERROR event). */
  closedByServer: boolean;
  /** The body, when the server answered with a non-200 status instead of a stream. */
  text: string;
}

export class RawClient {
  constructor(private readonly kc: k8s.KubeConfig) {}

  get server(): string {
    const cluster = this.kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    return cluster.server;
  }

  private async options(method: string, path: string, req: RawRequest): Promise<RequestOptions> {
    const url = new URL(path, this.server);
    const opts: RequestOptions = {
      method,
      hostname: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      headers: {},
    };
    await this.kc.applyToHTTPSOptions(opts);
    const headers = opts.headers as Record<string, string>;
    if (req.anonymous) {
      delete headers.Authorization;
      delete headers.authorization;
      // The client certificate, if any, lives in the agent applyToHTTPSOptions made; keep only the CA.
      delete opts.agent;
      delete opts.cert;
      delete opts.key;
      delete opts.pfx;
    }
    headers.Accept = req.accept ?? 'application/json';
    if (req.body !== undefined) headers['Content-Type'] = req.contentType ?? 'application/json';
    Object.assign(headers, req.headers ?? {});
    return opts;
  }

  async request(method: string, path: string, req: RawRequest = {}): Promise<RawResponse> {
    const opts = await this.options(method, path, req);
    const payload =
      req.body === undefined
        ? undefined
        : typeof req.body === 'string' || Buffer.isBuffer(req.body)
          ? req.body
          : JSON.stringify(req.body);
    // Node sends neither Content-Length nor chunked encoding for a DELETE body by default.
    if (payload !== undefined)
      (opts.headers as Record<string, string>)['Content-Length'] = String(Buffer.byteLength(payload));
    return new Promise<RawResponse>((resolve, reject) => {
      const r = httpsRequest(opts, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => parseJson(text, `${method} ${path}`),
          });
        });
      });
      // The server may answer (413) before it has read the whole body and close the socket.
      r.on('error', (err: NodeJS.ErrnoException) =>
        reject(new Error(`${method} ${path}: ${err.message}`, { cause: err })),
      );
      r.end(payload);
    });
  }

  get = (path: string, req?: RawRequest) => this.request('GET', path, req);
  post = (path: string, body: RawRequest['body'], req: RawRequest = {}) =>
    this.request('POST', path, { ...req, body });
  put = (path: string, body: RawRequest['body'], req: RawRequest = {}) =>
    this.request('PUT', path, { ...req, body });
  patch = (path: string, contentType: string, body: RawRequest['body'], req: RawRequest = {}) =>
    this.request('PATCH', path, { ...req, body, contentType });
  delete = (path: string, body?: RawRequest['body'], req: RawRequest = {}) =>
    this.request('DELETE', path, { ...req, body });

  /**
   * Opens a watch and collects events until `done(events)` is true, the
   * server closes the stream, or `timeoutMs` passes (then the client closes it).
   * `onOpen` is called when the response headers arrive (the watch is established).
   */
  async watch(
    path: string,
    done: (events: WatchEvent[]) => boolean = () => false,
    timeoutMs = 10_000,
    onOpen?: () => void,
  ): Promise<WatchResult> {
    const opts = await this.options('GET', path, {});
    return new Promise<WatchResult>((resolve, reject) => {
      const events: WatchEvent[] = [];
      let settled = false;
      let buffered = '';
      let text = '';
      let status = 0;
      const finish = (closedByServer: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        r.destroy();
        resolve({ status, events, closedByServer, text });
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const r = httpsRequest(opts, (res) => {
        status = res.statusCode ?? 0;
        onOpen?.();
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (status !== 200) {
            text += chunk;
            return;
          }
          buffered += chunk;
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (line) events.push(parseJson<WatchEvent>(line, `watch ${path}`));
          }
          if (done(events)) finish(false);
        });
        res.on('end', () => finish(true));
        res.on('error', (err) => {
          if (!settled) reject(new Error(`watch ${path}: ${err.message}`, { cause: err }));
        });
      });
      r.on('error', (err) => {
        if (!settled) reject(new Error(`watch ${path}: ${err.message}`, { cause: err }));
      });
      r.end();
    });
  }
}

function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new Error(`${what}: response is not JSON: ${text.slice(0, 300)}`, { cause: err });
  }
}
