import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '#kube-server';

/**
 * An embedded API server in a temp state dir plus a keep-alive HTTPS client
 * for it. Server and client share this process, as they do in `oam up`.
 */
export interface BenchServer {
  url: string;
  send(
    method: string,
    path: string,
    body?: object,
    contentType?: string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed JSON of whichever endpoint a bench asked for
  ): Promise<{ status: number; body: any }>;
  /** Opens a watch; `onEvent` gets each parsed event with the time it arrived (performance.now()). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a watch event of whichever kind a bench watches
  watch(path: string, onEvent: (event: any, at: number) => void): Promise<() => void>;
  stop(): Promise<void>;
}

export async function startBenchServer(historyWindow?: number): Promise<BenchServer> {
  const stateDir = mkdtempSync(join(tmpdir(), 'oam-bench-'));
  const srv = await startServer({ port: 0, stateDir, ...(historyWindow ? { historyWindow } : {}) });
  const client = httpsClient(srv.url, srv.caCert, srv.token);
  return {
    ...client,
    stop: async () => {
      client.close();
      await srv.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

export type BenchClient = Omit<BenchServer, 'stop'> & { close(): void };

/** A keep-alive HTTPS client for an API server (JSON in, JSON out; a status of 300 or more rejects). */
export function httpsClient(url: string, caCert: string, token: string): BenchClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, ca: caCert });
  const base = new URL(url);
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };

  const send: BenchServer['send'] = (method, path, body, contentType = 'application/json') =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          method,
          hostname: base.hostname,
          port: base.port,
          path,
          agent,
          headers:
            payload === undefined
              ? headers
              : { ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) >= 300)
              reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
            else resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const watch: BenchServer['watch'] = (path, onEvent) =>
    new Promise((resolve, reject) => {
      const req = request(
        { method: 'GET', hostname: base.hostname, port: base.port, path, agent, headers },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`watch ${path}: ${res.statusCode}`));
          let buffered = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            const at = performance.now();
            buffered += chunk;
            let nl: number;
            while ((nl = buffered.indexOf('\n')) >= 0) {
              const line = buffered.slice(0, nl);
              buffered = buffered.slice(nl + 1);
              if (line.trim()) onEvent(JSON.parse(line), at);
            }
          });
          res.on('error', () => undefined);
          resolve(() => req.destroy());
        },
      );
      req.on('error', (err) => reject(new Error(`watch ${path}: ${err.message}`, { cause: err })));
      req.end();
    });

  return { url, send, watch, close: () => agent.destroy() };
}

/** Runs `count` tasks with at most `concurrency` in flight. */
export async function pool(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await task(next++);
  });
  await Promise.all(lanes);
}

export async function createNamespace(server: Pick<BenchServer, 'send'>, name: string): Promise<void> {
  await server.send('POST', '/api/v1/namespaces', { metadata: { name } });
}

export function configMap(name: string, i: number): object {
  return {
    metadata: { name, labels: { bench: 'yes', shard: String(i % 10) } },
    data: { index: String(i), value: `value-${i}`.repeat(4) },
  };
}
