import type { KubeObject } from '#kube-core';
import type { Intent } from './intent.js';
import { unrecorded, type Planned } from './plan.js';

const app = { metadata: { name: 'app', namespace: 'ns', uid: 'app-uid' } } as KubeObject;
const controller = (uid: string) => [{ apiVersion: 'v1', kind: 'X', name: 'x', uid, controller: true }];
const planned = (name: string, owned: boolean, live?: 'ours' | 'theirs'): Planned => ({
  intent: {
    owned,
    component: 'c',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: owned ? 'ns' : 'other' } },
  } as Intent,
  live: live
    ? { metadata: { name, ownerReferences: controller(live === 'ours' ? 'app-uid' : 'other-uid') } }
    : undefined,
});
const record = (name: string, namespace: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespace,
  name,
});

describe('unrecorded', () => {
  it('lists what is about to be created, owned or not, unless recorded already', () => {
    const recorded = [{ ...record('known', 'other'), uid: 'x' }];
    const out = unrecorded(
      [planned('owned', true), planned('known', false), planned('new', false)],
      recorded,
      app,
    );
    expect(out).toEqual([
      { ...record('owned', 'ns'), component: 'c' },
      { ...record('new', 'other'), component: 'c' },
    ]);
  });

  it("lists live objects the owner controls that are not recorded, never someone else's", () => {
    const out = unrecorded([planned('mine', true, 'ours'), planned('theirs', true, 'theirs')], [], app);
    expect(out).toEqual([{ ...record('mine', 'ns'), component: 'c' }]);
  });
});
