import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface HealthState {
  /** The process is alive and not shutting down. */
  healthy(): boolean;
  /** Caches synced; reported with the leader state, which does not affect readiness (standbys are ready). */
  ready(): boolean;
  leader(): 'leader' | 'standby' | 'disabled';
}

/** /healthz, /readyz and /metrics on a small node:http server. */
export class HealthServer {
  private server?: http.Server;

  constructor(
    private readonly state: HealthState,
    private readonly registry: Registry,
  ) {}

  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const send = (code: number, body: string, type = 'application/json'): void => {
      res.writeHead(code, { 'Content-Type': type });
      res.end(body);
    };
    try {
      if (path === '/healthz')
        return send(
          this.state.healthy() ? 200 : 503,
          JSON.stringify({ status: this.state.healthy() ? 'ok' : 'stopping' }),
        );
      if (path === '/readyz') {
        const ready = this.state.ready();
        return send(
          ready ? 200 : 503,
          JSON.stringify({
            status: ready ? 'ok' : 'not ready',
            caches: ready ? 'synced' : 'syncing',
            leader: this.state.leader(),
          }),
        );
      }
      if (path === '/metrics') return send(200, await this.registry.metrics(), this.registry.contentType);
      send(404, JSON.stringify({ error: `no route ${path}; try /healthz, /readyz, /metrics` }));
    } catch (err) {
      send(500, JSON.stringify({ error: String(err) }));
    }
  }
}
