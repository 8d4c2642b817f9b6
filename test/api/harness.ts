import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startApi, type ApiOptions, type RunningApi } from '#api-server';
import { jsonLogger, silentLogger } from '#runtime';
import { ControllerCluster } from '../controller/harness.js';

export const ADMIN = 'admin-token-0123456789abcdef';
/** May only read, in namespace `team-a`. */
export const READER = 'reader-token-0123456789abcdef';

/**
 * The embedded API server with the controller reconciling, and the REST API
 * on a free port in front of it (tokens file auth unless told otherwise).
 */
export class ApiPlane {
  private constructor(
    readonly cluster: ControllerCluster,
    readonly api: RunningApi,
    private readonly dir: string,
  ) {}

  static async start(options: Partial<ApiOptions> = {}, cluster?: ControllerCluster): Promise<ApiPlane> {
    const dir = mkdtempSync(join(tmpdir(), 'oam-api-e2e-'));
    const tokensFile = join(dir, 'tokens.yaml');
    writeFileSync(
      tokensFile,
      stringify([
        { token: ADMIN, name: 'admin', namespaces: ['*'], verbs: ['*'] },
        { token: READER, name: 'reader', namespaces: ['team-a'], verbs: ['get', 'list', 'watch'] },
      ]),
    );
    const c = cluster ?? (await ControllerCluster.start());
    if (!cluster) await c.startController();
    const api = await startApi({
      kubeConfig: c.kubeConfig,
      port: 0,
      auth: 'tokens',
      tokensFile,
      logger: process.env.OAM_E2E_LOG ? jsonLogger({ level: 'debug' }) : silentLogger,
      rateLimitQps: 1000,
      qps: 500,
      burst: 500,
      ...options,
    });
    return new ApiPlane(c, api, dir);
  }

  get url(): string {
    return this.api.url;
  }

  /** The local admin's bearer token of the embedded server (what `--auth kubernetes` accepts). */
  get kubeToken(): string {
    return this.cluster.kubeConfig.getCurrentUser()!.token!;
  }

  async stop(options: { cluster?: boolean } = {}): Promise<void> {
    await this.api.stop();
    if (options.cluster !== false) await this.cluster.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** One request with fetch; the body parsed when it is JSON. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; contentType?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: any = text;
  if (/json/.test(res.headers.get('content-type') ?? '')) body = text ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, body };
}

/**
 * Reads a Server-Sent Events stream with a streaming fetch and the
 * Authorization header, as the web page does; `until` sees each event's
 * parsed data and ends the read when it returns true.
 */
export async function readEvents(
  url: string,
  token: string,
  until: (event: { type: string; data: any }) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<{ type: string; data: any }[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const seen: { type: string; data: any }[] = [];
  try {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: abort.signal });
    if (res.status !== 200) throw new Error(`watch answered ${res.status}: ${await res.text()}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!type || !data) continue;
        const event = { type, data: JSON.parse(data) };
        seen.push(event);
        if (until(event)) return seen;
      }
    }
    throw new Error(`the stream ended before ${what}`);
  } catch (err) {
    if (abort.signal.aborted)
      throw new Error(
        `no event showed ${what} within ${timeoutMs} ms; saw ${JSON.stringify(seen.map((e) => [e.type, e.data.application?.phase, e.data.application?.healthy]))}`,
        { cause: err },
      );
    throw err;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}
