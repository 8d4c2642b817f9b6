import type { Intent } from './intent.js';
import { unrecordedUnowned, type Planned } from './plan.js';

const planned = (name: string, owned: boolean, exists = false): Planned => ({
  intent: {
    owned,
    component: 'c',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'other' } },
  } as Intent,
  live: exists ? { metadata: { name } } : undefined,
});

describe('unrecordedUnowned', () => {
  it('lists objects to be created that cannot be owned and are not recorded yet', () => {
    const recorded = [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other', name: 'known', uid: 'x' }];
    const out = unrecordedUnowned(
      [
        planned('owned', true),
        planned('exists', false, true),
        planned('known', false),
        planned('new', false),
      ],
      recorded,
    );
    expect(out).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other', name: 'new', component: 'c' },
    ]);
  });
});
