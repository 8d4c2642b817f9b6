import { hostname } from 'node:os';
import type { ILease } from 'kubernetes-models/coordination.k8s.io/v1/Lease';
import { isNotFound, LEASES, type Client, type Logger, type Model } from '#runtime';
import { ANNOTATIONS, HEARTBEAT_LEASE } from '#api';
import { ensureNamespace } from '../definitions/builtin-installer.js';

/**
 * A Lease renewed while the controller reconciles, so tools can tell a
 * controller is alive (`oam up`) and which version it is (`oam version`):
 * fresh `renewTime` = alive; annotation = version. With leader election only
 * the leader beats (`active`), so standbys write nothing at all.
 */
export class Heartbeat {
  private timer?: ReturnType<typeof setInterval>;
  private lastBeat = 0;
  private wasActive = false;
  private readonly identity = `${hostname()}_${process.pid}`;

  constructor(
    private readonly client: Client,
    private readonly options: {
      namespace: string;
      version: string;
      intervalMs: number;
      log: Logger;
      /** Beat only while this holds (the leader); default always. */
      active?: () => boolean;
    },
  ) {}

  async start(): Promise<void> {
    await ensureNamespace(this.client, this.options.namespace);
    await this.tick();
    // Ticks at most every second so a replica that just became leader beats at once.
    this.timer = setInterval(() => void this.tick(), Math.min(this.options.intervalMs, 1000));
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const active = this.options.active?.() ?? true;
    const due = Date.now() - this.lastBeat >= this.options.intervalMs;
    if (active && (due || !this.wasActive)) {
      this.lastBeat = Date.now();
      await this.beat();
    }
    this.wasActive = active;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    const lease: Model<ILease> = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: HEARTBEAT_LEASE,
        namespace: this.options.namespace,
        annotations: { [ANNOTATIONS.controllerVersion]: this.options.version },
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
