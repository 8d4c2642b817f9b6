import type { RenderedApp } from '#renderer';
import type { ApplyOutcome } from '../apply/applier.js';
import type { Planned } from '../apply/plan.js';
import { ApplyDriver, type ApplyDeps } from '../apply/stage.js';
import { applyInOrder, dependencyWaits, dependsOnCondition, formatDuration } from './depends-on.js';

const T0 = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();

/** db ← api ← web: each component one Deployment. */
const app = {
  app: {
    components: [
      { name: 'web', dependsOn: ['api'] },
      { name: 'api', dependsOn: ['db'] },
      { name: 'db', dependsOn: [] },
    ],
  },
} as unknown as RenderedApp;
const plan = (component: string): Planned =>
  ({
    intent: {
      component,
      object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: component, namespace: 'ns' } },
    },
  }) as unknown as Planned;
const planned = ['web', 'api', 'db'].map(plan);

async function run(opts: { upToDate?: string[]; healthy?: string[]; writes?: boolean }) {
  const applied: string[] = [];
  const deps: ApplyDeps = {
    apply: async (p): Promise<ApplyOutcome> => {
      applied.push(p.intent.component);
      const changed = opts.writes !== false && !opts.upToDate?.includes(p.intent.component);
      return { intent: p.intent, result: changed ? 'applied' : 'unchanged' };
    },
    upToDate: (p) => opts.upToDate?.includes(p.intent.component) ?? false,
    health: async (name) => ({ healthy: opts.healthy?.includes(name) ?? false, message: 'Ready:0/1' }),
    recorded: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'ns',
        name: 'api',
        uid: 'u-api',
        component: 'api',
      },
    ],
  };
  const driver = new ApplyDriver(planned, deps);
  const held = await applyInOrder({
    components: app.app.components,
    revision: 1,
    previousWaits: undefined,
    nowMs: T0,
    upToDate: (c) => driver.upToDate(c),
    health: (c) => driver.health(c),
    apply: (r) => driver.apply(r),
    hold: (h) => driver.hold(h),
    event: () => undefined,
  });
  return { applied, held, outcomes: await driver.finish() };
}

describe('applyInOrder', () => {
  it('applies what depends on nothing and holds the rest, in dependency order', async () => {
    const r = await run({});
    expect(r.applied).toEqual(['db']);
    expect(r.held).toEqual([
      { component: 'api', waitingFor: [{ name: 'db', why: 'just updated' }] },
      { component: 'web', waitingFor: [{ name: 'api', why: 'waiting itself' }] },
    ]);
    // A held object keeps its record (so it is not pruned) and is marked waiting.
    const api = r.outcomes.find((o) => o.intent.component === 'api');
    expect(api).toMatchObject({ result: 'waiting', applied: { uid: 'u-api' } });
  });

  it('holds a component whose dependency is not healthy, with its health message', async () => {
    const r = await run({ upToDate: ['db'] });
    expect(r.applied).toEqual(['db']);
    expect(r.held[0]).toEqual({ component: 'api', waitingFor: [{ name: 'db', why: 'Ready:0/1' }] });
  });

  it('applies a component once its dependency is healthy and unchanged', async () => {
    const r = await run({ upToDate: ['db'], healthy: ['db'] });
    expect(r.applied).toEqual(['db', 'api']);
    expect(r.held.map((h) => h.component)).toEqual(['web']);
  });

  it('holds nothing when nothing would change (a steady state never waits)', async () => {
    const r = await run({ upToDate: ['db', 'api', 'web'] });
    expect(r.held).toEqual([]);
    expect(r.applied).toEqual(['db', 'api', 'web']);
  });
});

describe('dependencyWaits', () => {
  const held = [{ component: 'api', waitingFor: [{ name: 'db', why: 'Ready:0/1' }] }];

  it('starts a wait now, keeps its start for the same revision, and restarts it for a new one', () => {
    const first = dependencyWaits(held, undefined, 1, T0, 60_000);
    expect(first.waits).toEqual([{ component: 'api', waitingFor: ['db'], since: iso(T0), revision: 1 }]);
    expect(first.nextDeadlineMs).toBe(60_000);
    const later = dependencyWaits(held, first.waits, 1, T0 + 20_000, 60_000);
    expect(later.waits[0].since).toBe(iso(T0));
    expect(later.nextDeadlineMs).toBe(40_000);
    const next = dependencyWaits(held, first.waits, 2, T0 + 20_000, 60_000);
    expect(next.waits[0].since).toBe(iso(T0 + 20_000));
  });

  it('times out once, at the deadline', () => {
    const first = dependencyWaits(held, undefined, 1, T0, 60_000);
    const out = dependencyWaits(held, first.waits, 1, T0 + 60_000, 60_000);
    expect(out.waits[0].timedOut).toBe(true);
    expect(out.timedOutNow.map((w) => w.component)).toEqual(['api']);
    expect(out.nextDeadlineMs).toBeUndefined();
    expect(dependencyWaits(held, out.waits, 1, T0 + 90_000, 60_000).timedOutNow).toEqual([]);
  });

  it('forgets a wait once the component is no longer held', () => {
    const first = dependencyWaits(held, undefined, 1, T0, 60_000);
    expect(dependencyWaits([], first.waits, 1, T0 + 1, 60_000).waits).toEqual([]);
  });
});

describe('dependsOnCondition', () => {
  const held = [{ component: 'api', waitingFor: [{ name: 'db', why: 'Ready:0/1' }] }];

  it('says what waits for what, since when, and when it gave up', () => {
    const waiting = dependencyWaits(held, undefined, 1, T0, 600_000).waits;
    expect(dependsOnCondition(waiting, held, 600_000)).toEqual({
      type: 'DependsOn',
      status: 'False',
      reason: 'Waiting',
      message: `"api" waits for "db" (Ready:0/1) to be healthy, since ${iso(T0)} (gives up after 10m)`,
    });
    const timedOut = dependencyWaits(held, waiting, 1, T0 + 600_000, 600_000).waits;
    expect(dependsOnCondition(timedOut, held, 600_000)).toMatchObject({
      reason: 'DependencyTimeout',
      message: `"api" gave up waiting for "db" (Ready:0/1) after 10m (waiting since ${iso(T0)}); it is applied once they are healthy`,
    });
    expect(dependsOnCondition([], [], 600_000)).toEqual({
      type: 'DependsOn',
      status: 'True',
      reason: 'Satisfied',
    });
  });

  it('formats durations briefly', () => {
    expect(formatDuration(500)).toBe('500ms');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(3_600_000)).toBe('1h');
  });
});
