import { TerminalError } from '../errors.js';
import type { ApplyOutcome } from './applier.js';
import type { Planned } from './plan.js';
import { ApplyDriver, type ApplyDeps } from './stage.js';

const plan = (component: string): Planned =>
  ({
    intent: {
      component,
      object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: component, namespace: 'ns' } },
    },
  }) as unknown as Planned;

function driver(applied: string[]): ApplyDriver {
  const deps: ApplyDeps = {
    apply: async (p): Promise<ApplyOutcome> => {
      applied.push(p.intent.component);
      return { intent: p.intent, result: 'applied' };
    },
    upToDate: () => false,
    health: async () => ({ healthy: true }),
    recorded: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'ns',
        name: 'db',
        uid: 'u-db',
        component: 'db',
      },
    ],
  };
  return new ApplyDriver(['web', 'db'].map(plan), deps);
}

describe('ApplyDriver', () => {
  it('holds what the workflow left undecided: nothing written, its record kept so it is not pruned', async () => {
    const applied: string[] = [];
    const d = driver(applied);
    await d.apply({ component: 'web' });
    const outcomes = await d.finish();
    expect(applied).toEqual(['web']);
    expect(outcomes.map((o) => [o.intent.component, o.result])).toEqual([
      ['web', 'applied'],
      ['db', 'waiting'],
    ]);
    expect(outcomes[1].applied?.uid).toBe('u-db');
  });

  it('refuses overrides it cannot render, as a terminal error', async () => {
    const d = driver([]);
    await expect(d.apply({ component: 'web', namespace: 'elsewhere' })).rejects.toBeInstanceOf(TerminalError);
    await expect(d.apply({ component: 'web', properties: { image: 'x' } })).rejects.toBeInstanceOf(
      TerminalError,
    );
  });
});
