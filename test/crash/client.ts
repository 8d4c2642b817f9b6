import { Agent, request } from 'node:https';
import * as k8s from '@kubernetes/client-node';

/**
 * A minimal keep-alive HTTPS client for thousands of writes: the CA and the
 * bearer token come from the server's kubeconfig, the URL may be overridden
 * (a restarted server listens on a new port).
 */
export class CrashClient {
  private readonly agent: Agent;
  readonly token: string;
  readonly ca: string;

  constructor(
    kubeconfigText: string,
    readonly url: string,
  ) {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(kubeconfigText);
    const cluster = kc.getCurrentCluster();
    const user = kc.getCurrentUser();
    if (!cluster?.caData || !user?.token)
      throw new Error('kubeconfig lacks certificate-authority-data or a token');
    this.ca = Buffer.from(cluster.caData, 'base64').toString('utf8');
    this.token = user.token;
    this.agent = new Agent({ keepAlive: true, maxSockets: 16, ca: this.ca });
  }

  send(
    method: string,
    path: string,
    body?: object,
    contentType = 'application/json',
  ): Promise<{ status: number; body: any }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const url = new URL(path, this.url);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          method,
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          agent: this.agent,
          headers: {
            Authorization: `Bearer ${this.token}`,
            Accept: 'application/json',
            ...(payload === undefined
              ? {}
              : { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
            } catch (err) {
              reject(
                new Error(`${method} ${path}: ${res.statusCode} non-JSON body: ${text.slice(0, 200)}`, {
                  cause: err,
                }),
              );
            }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
