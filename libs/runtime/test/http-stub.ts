import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

/**
 * A plain-HTTP stand-in for an API server, for unit tests of the transport
 * and the clients: every request is recorded and answered by `handler`.
 */
export interface HttpStub {
  kubeConfig: KubeConfig;
  requests: Array<{ method: string; url: URL; headers: http.IncomingHttpHeaders; body: string; at: number }>;
  close(): Promise<void>;
}

export async function startHttpStub(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
): Promise<HttpStub> {
  const requests: HttpStub['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://stub'),
        headers: req.headers,
        body,
        at: performance.now(),
      });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'stub', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'stub-token' }],
    contexts: [{ name: 'stub', cluster: 'stub', user: 'u' }],
    currentContext: 'stub',
  });
  return {
    kubeConfig,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(res: http.ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
