import type { DependencyWait } from '#api';
import { orderByDependencies } from '#renderer';
import type { ConditionInput } from '../status/conditions.js';
import type { Held, Workflow, WorkflowReport, WorkflowRun } from './workflow.js';

/**
 * The default workflow: every component, in dependsOn order, each waiting
 * until what it depends on is healthy. A wait is in status, never silent,
 * and gives up (says so, once) after `timeoutMs`, staying level-triggered:
 * a dependency that turns healthy after all still lets it through.
 */
export class DependsOnWorkflow implements Workflow {
  constructor(private readonly timeoutMs: number) {}

  async run(run: WorkflowRun): Promise<WorkflowReport> {
    const held = await applyInOrder(run);
    const timeout = this.timeoutMs;
    const { waits, timedOutNow, nextDeadlineMs } = dependencyWaits(
      held,
      run.previousWaits,
      run.revision,
      run.nowMs,
      timeout,
    );
    for (const w of timedOutNow) run.event('Warning', 'DependencyTimeout', describeWait(w, held, timeout));
    const usesDependsOn = run.components.some((c) => c.dependsOn.length > 0);
    const phase = waits.length > 0 ? 'waiting' : 'succeeded';
    return {
      phase,
      steps: [{ name: 'deploy', type: 'deploy', phase }],
      waits,
      messages: new Map(waits.map((w) => [w.component, describeWait(w, held, timeout)])),
      conditions: usesDependsOn ? [dependsOnCondition(waits, held, timeout)] : [],
      ...(nextDeadlineMs !== undefined ? { requeueAfterMs: nextDeadlineMs } : {}),
    };
  }
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
export async function applyInOrder(run: WorkflowRun): Promise<Held[]> {
  const held: Held[] = [];
  const state = new Map<string, 'held' | 'changed' | 'settled'>();
  for (const c of orderByDependencies(run.components as { name: string; dependsOn: string[] }[])) {
    const waitingFor: Held['waitingFor'] = [];
    if (!run.upToDate(c.name)) {
      for (const d of c.dependsOn) {
        const s = state.get(d);
        if (s === 'held') waitingFor.push({ name: d, why: 'waiting itself' });
        else if (s === 'changed') waitingFor.push({ name: d, why: 'just updated' });
        else {
          const h = await run.health(d);
          if (!h.healthy) waitingFor.push({ name: d, why: h.message ?? 'not healthy' });
        }
      }
    }
    if (waitingFor.length > 0) {
      const h = { component: c.name, waitingFor };
      held.push(h);
      await run.hold(h);
      state.set(c.name, 'held');
      continue;
    }
    const applied = await run.apply({ component: c.name });
    state.set(c.name, applied.changed ? 'changed' : 'settled');
  }
  return held;
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
