import { hostname } from 'node:os';
import { isNotFound, LEASES, type Client, type Logger } from '#runtime';
import { ANNOTATIONS, HEARTBEAT_LEASE } from '../constants.js';
import { ensureNamespace } from '../definitions/builtin-installer.js';

/**
 * A Lease renewed while the controller runs, leader election or not, so
 * tools can tell a controller is alive (`oam up`) and which version it is
 * (`oam version`): fresh `renewTime` = alive; annotation = version.
 */
export class Heartbeat {
  private timer?: ReturnType<typeof setInterval>;
  private readonly identity = `${hostname()}_${process.pid}`;

  constructor(
    private readonly client: Client,
    private readonly options: { namespace: string; version: string; intervalMs: number; log: Logger },
  ) {}

  async start(): Promise<void> {
    await ensureNamespace(this.client, this.options.namespace);
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: HEARTBEAT_LEASE,
        namespace: this.options.namespace,
        annotations: { [ANNOTATIONS.version]: this.options.version },
      },
      spec: {
        holderIdentity: this.identity,
        leaseDurationSeconds: Math.ceil((this.options.intervalMs * 3) / 1000),
        renewTime: new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
      },
    };
    try {
      await this.client.apply(LEASES, lease, { force: true }).catch(async (err: unknown) => {
        if (!isNotFound(err)) throw err;
        // Its namespace was deleted under it: make it again rather than stop beating.
        await ensureNamespace(this.client, this.options.namespace);
        await this.client.apply(LEASES, lease, { force: true });
      });
    } catch (err) {
      this.options.log.warn('heartbeat not renewed', {
        lease: `${this.options.namespace}/${HEARTBEAT_LEASE}`,
        error: err,
      });
    }
  }
}
