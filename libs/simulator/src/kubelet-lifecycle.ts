/**
 * Container lifecycle timing for the simulated kubelet: the per-pod
 * `simulation.oam.dev/*` knobs and what they mean in milliseconds — how long a
 * pod stays Pending, how long its containers run, the exit code, and the
 * CrashLoopBackOff back-off. Kept separate so the reconcile loop reads as a
 * sequence of states rather than arithmetic.
 */
import { type StoredObject } from '#kube-core';
import { SIM_PREFIX, type ResolvedOptions } from './options.js';
import type { Pod } from './sim.js';
import { parseTime } from './values.js';

/** The per-pod knobs, as annotations on the Pod (or its template). */
export const ANNOTATIONS = {
  readyDelayMs: `${SIM_PREFIX}ready-delay-ms`,
  runDurationMs: `${SIM_PREFIX}run-duration-ms`,
  exitCode: `${SIM_PREFIX}exit-code`,
  ready: `${SIM_PREFIX}ready`,
};

const MAX_BACKOFF_MS = 300_000;

export interface PodMemory {
  /** When the current container state began, by the simulator's clock (finer than status timestamps). */
  since: number;
}

const numberAnnotation = (pod: StoredObject, key: string): number | undefined => {
  const raw = pod.metadata.annotations?.[key];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

export function readyDelay(opts: ResolvedOptions, pod: StoredObject): number {
  return numberAnnotation(pod, ANNOTATIONS.readyDelayMs) ?? opts.readyDelayMs;
}

export function runDuration(opts: ResolvedOptions, pod: StoredObject): number {
  return numberAnnotation(pod, ANNOTATIONS.runDurationMs) ?? opts.runDurationMs;
}

export function exitCode(pod: StoredObject): number {
  return Math.trunc(numberAnnotation(pod, ANNOTATIONS.exitCode) ?? 0);
}

/** Containers of run-to-completion pods exit; others only when an exit code is simulated. */
export function exits(pod: Pod): boolean {
  const policy = pod.spec!.restartPolicy ?? 'Always';
  return policy !== 'Always' || pod.metadata.annotations?.[ANNOTATIONS.exitCode] !== undefined;
}

/** CrashLoopBackOff: doubles from the ready delay (at least 10ms) with each restart, up to five minutes. */
export function backoff(opts: ResolvedOptions, restarts: number): number {
  const base = Math.max(opts.readyDelayMs, 10);
  return Math.min(MAX_BACKOFF_MS, base * 2 ** Math.max(0, Math.min(restarts - 1, 20)));
}

/** When the current state began, from the status (after a restart of the simulator). */
export function stateStart(pod: Pod): number | undefined {
  const status = pod.status ?? {};
  const main = (status.containerStatuses ?? [])[0];
  return (
    parseTime(main?.state?.running?.startedAt) ??
    parseTime(main?.lastState?.terminated?.finishedAt) ??
    parseTime(status.startTime)
  );
}
