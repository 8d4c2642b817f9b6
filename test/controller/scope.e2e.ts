import { ControllerCluster, helloApp } from './harness.js';

let cluster: ControllerCluster;
let teamA: string;
let teamB: string;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  teamA = await cluster.namespace('team-a');
  teamB = await cluster.namespace('team-b');
  await cluster.startController({ watchNamespaces: [teamA] });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('--watch-namespace', () => {
  it('reconciles Applications only in the namespaces it watches', async () => {
    // Out of scope first: had it been reconciled, it would have been before the in-scope one.
    await cluster.applyApp(helloApp(teamB));
    await cluster.applyApp(helloApp(teamA));
    await cluster.appStatus(teamA, 'hello', (s) => s.status === 'running', 'the team-a app to be running');
    const outside = await cluster.app(teamB, 'hello');
    expect(outside?.status).toBeUndefined();
    expect(outside?.metadata?.finalizers).toBeUndefined();
    expect(await cluster.get('apps/v1', 'Deployment', teamB, 'hello-web')).toBeUndefined();
  });
});
