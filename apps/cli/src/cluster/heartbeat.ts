import { ANNOTATIONS, CONTROLLER_NAMESPACE, HEARTBEAT_LEASE } from '#api';
import { isNotFound, LEASES } from '#runtime';
import type { Session } from './session.js';

export interface Heartbeat {
  /** When the controller last renewed it (ms since the epoch), NaN when never. */
  renewedAt: number;
  leaseDurationSeconds?: number;
  version?: string;
}

/** The controller's heartbeat, or undefined when there is no Lease (no controller ever ran). */
export async function readHeartbeat(session: Session): Promise<Heartbeat | undefined> {
  const lease = await session
    .call(() => session.client(LEASES).get(CONTROLLER_NAMESPACE, HEARTBEAT_LEASE))
    .catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  if (!lease) return undefined;
  const spec = (lease as { spec?: { renewTime?: string; leaseDurationSeconds?: number } }).spec;
  return {
    renewedAt: spec?.renewTime ? Date.parse(spec.renewTime) : NaN,
    leaseDurationSeconds: spec?.leaseDurationSeconds,
    version: lease.metadata?.annotations?.[ANNOTATIONS.controllerVersion],
  };
}

/** Whether a heartbeat is recent enough to call the controller alive (two lease durations, at least a minute). */
export function isAlive(beat: Heartbeat | undefined, now = Date.now()): boolean {
  if (!beat || Number.isNaN(beat.renewedAt)) return false;
  return now - beat.renewedAt <= Math.max((beat.leaseDurationSeconds ?? 30) * 1000 * 2, 60_000);
}
