import type { AppliedResource, DependencyWait, ServiceStatus } from '#api';
import { orderByDependencies, type RenderedApp } from '#renderer';
import type { ApplyOutcome } from '../apply/applier.js';
import { identityKey, resourceKey } from '../apply/identity.js';
import type { Planned } from '../apply/plan.js';
import type { ConditionInput } from '../status/conditions.js';

/** A component not applied this time, and what it waits for (with each one's health message). */
export interface Held {
  component: string;
  waitingFor: { name: string; why: string }[];
}

export interface ApplyInOrderDeps {
  apply(p: Planned): Promise<ApplyOutcome>;
  /** Whether applying would change nothing (then there is nothing to hold back). */
  upToDate(p: Planned): boolean;
  /** A component's health from the cached live objects. */
  health(component: string): Promise<{ healthy: boolean; message?: string }>;
  /** What the application recorded before: a held object keeps its record, so it is not pruned. */
  recorded: readonly AppliedResource[];
}

/**
 * Applies component by component in dependsOn order. A component with
 * something to change waits while a component it depends on is held itself,
 * was changed in this same reconcile (its health is not known yet), or is not
 * healthy; its objects are then neither applied nor pruned. Nothing to change
 * (a steady state): nothing to wait for. Level-triggered: the dependency
 * turning healthy enqueues the application (its objects are watched), and
 * the next reconcile applies what waited.
 */
export async function applyInOrder(
  rendered: RenderedApp,
  planned: readonly Planned[],
  deps: ApplyInOrderDeps,
): Promise<{ outcomes: ApplyOutcome[]; held: Held[] }> {
  const outcomes: ApplyOutcome[] = [];
  const held: Held[] = [];
  const state = new Map<string, 'held' | 'changed' | 'settled'>();
  const records = new Map(deps.recorded.map((r) => [resourceKey(r), r]));
  for (const c of orderByDependencies(rendered.app.components)) {
    const mine = planned.filter((p) => p.intent.component === c.name);
    const stale = mine.filter((p) => !deps.upToDate(p));
    const waitingFor: Held['waitingFor'] = [];
    if (stale.length > 0) {
      for (const d of c.dependsOn) {
        const s = state.get(d);
        if (s === 'held') waitingFor.push({ name: d, why: 'waiting itself' });
        else if (s === 'changed') waitingFor.push({ name: d, why: 'just updated' });
        else {
          const h = await deps.health(d);
          if (!h.healthy) waitingFor.push({ name: d, why: h.message ?? 'not healthy' });
        }
      }
    }
    if (waitingFor.length > 0) {
      held.push({ component: c.name, waitingFor });
      state.set(c.name, 'held');
      for (const p of mine) {
        if (!stale.includes(p)) outcomes.push(await deps.apply(p));
        else {
          const record = records.get(identityKey(p.intent.object));
          outcomes.push({ intent: p.intent, result: 'waiting', ...(record ? { applied: record } : {}) });
        }
      }
      continue;
    }
    const results = [];
    for (const p of mine) results.push(await deps.apply(p));
    outcomes.push(...results);
    state.set(c.name, results.some((o) => o.result === 'applied') ? 'changed' : 'settled');
  }
  return { outcomes, held };
}

/**
 * The waits to record in `status.waiting`: each held component keeps the
 * time its wait began for this revision (a new revision starts a new wait)
 * and is timed out once `timeoutMs` passed. Also returns the waits that
 * timed out just now (for one Warning Event each) and when the next deadline
 * falls, to look again then.
 */
export function dependencyWaits(
  held: readonly Held[],
  previous: readonly DependencyWait[] | undefined,
  revision: number,
  nowMs: number,
  timeoutMs: number,
): { waits: DependencyWait[]; timedOutNow: DependencyWait[]; nextDeadlineMs?: number } {
  const waits: DependencyWait[] = [];
  const timedOutNow: DependencyWait[] = [];
  let nextDeadlineMs: number | undefined;
  for (const h of held) {
    const before = previous?.find((w) => w.component === h.component && w.revision === revision);
    const since = before?.since ?? new Date(nowMs).toISOString();
    const left = Date.parse(since) + timeoutMs - nowMs;
    const wait: DependencyWait = {
      component: h.component,
      waitingFor: h.waitingFor.map((w) => w.name),
      since,
      revision,
      ...(left <= 0 ? { timedOut: true } : {}),
    };
    if (wait.timedOut && !before?.timedOut) timedOutNow.push(wait);
    if (left > 0) nextDeadlineMs = Math.min(nextDeadlineMs ?? left, left);
    waits.push(wait);
  }
  return { waits, timedOutNow, nextDeadlineMs };
}

/** One line per wait: what it waits for and why, since when; or that it gave up. */
export function describeWait(wait: DependencyWait, held: readonly Held[], timeoutMs: number): string {
  const why = held.find((h) => h.component === wait.component)?.waitingFor ?? [];
  const on = (
    why.length > 0 ? why.map((w) => `"${w.name}" (${w.why})`) : wait.waitingFor.map((n) => `"${n}"`)
  ).join(', ');
  return wait.timedOut
    ? `"${wait.component}" gave up waiting for ${on} after ${formatDuration(timeoutMs)} (waiting since ${wait.since}); it is applied once they are healthy`
    : `"${wait.component}" waits for ${on} to be healthy, since ${wait.since} (gives up after ${formatDuration(timeoutMs)})`;
}

/**
 * The `DependsOn` condition, for applications that use dependsOn: True when
 * nothing waits, else False with reason `Waiting` or `DependencyTimeout`.
 */
export function dependsOnCondition(
  waits: readonly DependencyWait[],
  held: readonly Held[],
  timeoutMs: number,
): ConditionInput {
  if (waits.length === 0) return { type: 'DependsOn', status: 'True', reason: 'Satisfied' };
  const timedOut = waits.some((w) => w.timedOut);
  return {
    type: 'DependsOn',
    status: 'False',
    reason: timedOut ? 'DependencyTimeout' : 'Waiting',
    message: waits.map((w) => describeWait(w, held, timeoutMs)).join('\n'),
  };
}

/** Services of held components are not healthy (not at this revision) and say what they wait for. */
export function withWaits(
  services: readonly ServiceStatus[],
  waits: readonly DependencyWait[],
  held: readonly Held[],
  timeoutMs: number,
): ServiceStatus[] {
  return services.map((s) => {
    const wait = waits.find((w) => w.component === s.name);
    return wait ? { ...s, healthy: false, message: describeWait(wait, held, timeoutMs) } : s;
  });
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const s = Math.round(ms / 1000);
  const parts = [
    [Math.floor(s / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'm'],
    [s % 60, 's'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, u]) => `${n}${u}`)
    .join('');
}
