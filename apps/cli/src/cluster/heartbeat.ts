import { isNotFound, LEASES } from '#runtime';
import type { Session } from './session.js';

/** The controller's heartbeat Lease (its namespace and name are the controller's constants). */
export const HEARTBEAT = { namespace: 'oam-system', name: 'oam-controller-heartbeat' };
/** The Lease annotation holding the running controller's version. */
export const CONTROLLER_VERSION_ANNOTATION = 'oam.dev/controller-version';

export interface Heartbeat {
  /** When the controller last renewed it (ms since the epoch), NaN when never. */
  renewedAt: number;
  leaseDurationSeconds?: number;
  version?: string;
}

/** The controller's heartbeat, or undefined when there is no Lease (no controller ever ran). */
export async function readHeartbeat(session: Session): Promise<Heartbeat | undefined> {
  const lease = await session
    .call(() => session.client(LEASES).get(HEARTBEAT.namespace, HEARTBEAT.name))
    .catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  if (!lease) return undefined;
  const spec = (lease as { spec?: { renewTime?: string; leaseDurationSeconds?: number } }).spec;
  return {
    renewedAt: spec?.renewTime ? Date.parse(spec.renewTime) : NaN,
    leaseDurationSeconds: spec?.leaseDurationSeconds,
    version: lease.metadata?.annotations?.[CONTROLLER_VERSION_ANNOTATION],
  };
}

/** Whether a heartbeat is recent enough to call the controller alive (two lease durations, at least a minute). */
export function isAlive(beat: Heartbeat | undefined, now = Date.now()): boolean {
  if (!beat || Number.isNaN(beat.renewedAt)) return false;
  return now - beat.renewedAt <= Math.max((beat.leaseDurationSeconds ?? 30) * 1000 * 2, 60_000);
}
