import { ControllerCluster, helloApp } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController({ watchNamespaces: ['team-a'] });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('--watch-namespace', () => {
  it('reconciles Applications only in the namespaces it watches', async () => {
    const namespaces = await cluster.resource({ apiVersion: 'v1', kind: 'Namespace' });
    for (const name of ['team-a', 'team-b'])
      await namespaces
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
        .catch(() => undefined);
    // Out of scope first: had it been reconciled, it would have been before the in-scope one.
    await cluster.applyApp(helloApp('team-b'));
    await cluster.applyApp(helloApp('team-a'));
    await cluster.appStatus('team-a', 'hello', (s) => s.status === 'running', 'the team-a app to be running');
    const outside = await cluster.app('team-b', 'hello');
    expect(outside?.status).toBeUndefined();
    expect(outside?.metadata?.finalizers).toBeUndefined();
    expect(await cluster.get('apps/v1', 'Deployment', 'team-b', 'hello-web')).toBeUndefined();
  });
});
