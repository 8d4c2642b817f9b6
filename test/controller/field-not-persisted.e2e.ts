import { eventually } from '#kube-core';
import { ControllerCluster, helloApp } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/**
 * Another controller that wants 1 replica: it puts its value back each time
 * the OAM controller writes 2 (the scaler trait of examples/hello), and
 * counts those writes. It stops when asked.
 */
function revertReplicas(ns: string, name: string) {
  let stop = false;
  let writes = 0;
  const done = (async () => {
    const deployments = await cluster.resource({ apiVersion: 'apps/v1', kind: 'Deployment' });
    while (!stop) {
      const live = await cluster.get('apps/v1', 'Deployment', ns, name);
      if ((live?.spec as any)?.replicas === 2) {
        writes++;
        await deployments.patch(
          ns,
          name,
          { spec: { replicas: 1 } },
          { type: 'merge', fieldManager: 'other-controller' },
        );
      }
      // Polls, as a simple controller would; how often does not change what it counts.
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return { writes: () => writes, stop: () => ((stop = true), done) };
}

describe('writes that do not stick', () => {
  it('stop after 3, said as Applied False/FieldNotPersisted naming the field, with an Event', async () => {
    const ns = await cluster.namespace('fight');
    const other = revertReplicas(ns, 'hello-web');
    await cluster.applyApp(helloApp(ns));
    const stopped = await cluster.appStatus(
      ns,
      'hello',
      (s) => s.conditions?.some((c: any) => c.type === 'Applied' && c.reason === 'FieldNotPersisted'),
      'Applied: FieldNotPersisted',
    );
    await other.stop();
    const applied = (stopped.status as any).conditions.find((c: any) => c.type === 'Applied');
    expect(applied.status).toBe('False');
    expect(applied.message).toMatch(
      new RegExp(
        `^Deployment "${ns}/hello-web": spec\\.replicas does not persist \\(3 writes did not stick\\); not written until `,
      ),
    );
    // Three lost writes trip it; a write sent on a cache that had not seen the last one yet counts none.
    expect(other.writes()).toBeGreaterThanOrEqual(3);
    // Backing off: the other controller's value stands.
    expect(((await cluster.get('apps/v1', 'Deployment', ns, 'hello-web'))!.spec as any).replicas).toBe(1);
    const events = await cluster.resource({ apiVersion: 'v1', kind: 'Event' });
    await eventually(async () => {
      const list = await events.list({ namespace: ns });
      return list.items.some(
        (e: any) => e.reason === 'FieldNotPersisted' && e.involvedObject?.name === 'hello',
      );
    }, 'a FieldNotPersisted event');
  });
});
