/**
 * Pure helpers on object values: timestamps, conditions, int-or-percent, omitempty.
 */
import { randomBytes } from 'node:crypto';

/** RFC 3339 with seconds, as Kubernetes writes timestamps. */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const parseTime = (value: unknown): number | undefined => {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * A status condition, of any kind's (the models' condition types are all assignable to it):
 * `status` is "True", "False" or "Unknown"; a Pod's `lastProbeTime` is written as null.
 */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string | null;
  lastHeartbeatTime?: string;
}

export const findCondition = <C extends Condition>(conditions: C[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);

/** Random lowercase hex, e.g. for container IDs. */
export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Integer or percent of a total (intstr.GetScaledValueFromIntOrPercent). */
export function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const m = /^(\d+)%$/.exec(value);
    if (m) {
      const v = (Number(m[1]) * total) / 100;
      return roundUp ? Math.ceil(v) : Math.floor(v);
    }
    if (/^\d+$/.test(value)) return Number(value);
  }
  return 0;
}

/** Drops zero counters, as Go's `omitempty` does for the int32 status fields that carry it. */
export function omitZero<T extends object>(status: T, keys: Array<keyof T & string>): T {
  const fields: Record<string, unknown> = status as Record<string, unknown>;
  for (const k of keys) if (fields[k] === 0) delete fields[k];
  return status;
}
