import { Registry } from 'prom-client';
import { eventually, type KubeObject } from '#kube-core';
import { ControllerCluster } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** "api" depends on "db"; db's Pods run but are not ready (a failing readiness probe) until a test says so. */
function app(namespace: string): KubeObject {
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata: { name: 'shop', namespace },
    spec: {
      components: [
        {
          name: 'api',
          type: 'worker',
          properties: { image: 'example/api:1' },
          dependsOn: ['db'],
        },
        {
          name: 'db',
          type: 'worker',
          properties: { image: 'postgres:16' },
          traits: [{ type: 'annotations', properties: { 'simulation.oam.dev/ready': 'false' } }],
        },
      ],
    },
  };
}

const condition = (s: Record<string, any>, type: string) => s.conditions?.find((c: any) => c.type === type);

async function makeReady(ns: string, component: string): Promise<void> {
  const pods = await cluster.resource({ apiVersion: 'v1', kind: 'Pod' });
  const list = await eventually(async () => {
    const l = await pods.list({ namespace: ns, labelSelector: `app.oam.dev/component=${component}` });
    return l.items.length > 0 ? l.items : undefined;
  }, `${component}'s Pods`);
  for (const p of list)
    await pods.patch(
      ns,
      p.metadata!.name!,
      { metadata: { annotations: { 'simulation.oam.dev/ready': 'true' } } },
      { type: 'merge', fieldManager: 'e2e-user' },
    );
}

async function eventFor(ns: string, reason: string): Promise<any> {
  const events = await cluster.resource({ apiVersion: 'v1', kind: 'Event' });
  return eventually(async () => {
    const list = await events.list({ namespace: ns });
    return list.items.find((e: any) => e.reason === reason && e.involvedObject?.name === 'shop');
  }, `a ${reason} event`);
}

describe('dependsOn', () => {
  it('applies a component only once what it depends on is healthy, and says what it waits for meanwhile', async () => {
    const ns = await cluster.namespace('deps');
    await cluster.applyApp(app(ns));
    const waiting = await cluster.appStatus(
      ns,
      'shop',
      (s) => condition(s, 'DependsOn')?.reason === 'Waiting',
      'api to wait for db',
    );
    const status = waiting.status as any;
    expect(condition(status, 'DependsOn').message).toMatch(
      /^"api" waits for "db" \(.*\) to be healthy, since \d{4}-\d\d-\d\dT.*\(gives up after 10m\)$/,
    );
    expect(status.waiting).toEqual([
      { component: 'api', waitingFor: ['db'], since: expect.any(String), revision: 1 },
    ]);
    expect(status.services.find((s: any) => s.name === 'api')).toMatchObject({
      healthy: false,
      message: expect.stringContaining('waits for "db"'),
    });
    expect(condition(status, 'Ready')).toMatchObject({ status: 'False', reason: 'WaitingForDependencies' });
    expect(status.status).toBe('runningWorkflow');
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'db')).toBeDefined();
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'api')).toBeUndefined();

    await makeReady(ns, 'db');
    const running = await cluster.appStatus(ns, 'shop', (s) => s.status === 'running', 'shop to run');
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'api')).toBeDefined();
    expect(condition(running.status as any, 'DependsOn')).toMatchObject({
      status: 'True',
      reason: 'Satisfied',
    });
    expect((running.status as any).waiting).toBeUndefined();
  });

  it('a cycle is a render error naming the components', async () => {
    const ns = await cluster.namespace('cycle');
    const cyclic = app(ns);
    (cyclic.spec as any).components[1].dependsOn = ['api'];
    await cluster.applyApp(cyclic);
    const failed = await cluster.appStatus(
      ns,
      'shop',
      (s) => condition(s, 'Rendered')?.status === 'False',
      'the cycle to be reported',
    );
    expect(condition(failed.status as any, 'Rendered').message).toContain(
      'dependsOn forms a cycle: api → db → api',
    );
    expect((await eventFor(ns, 'RenderFailed')).message).toContain('dependsOn forms a cycle');
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'db')).toBeUndefined();
  });
});

describe('dependsOn with a short --depends-on-timeout', () => {
  beforeAll(async () => {
    await cluster.controller?.stop();
    await cluster.startController({ dependsOnTimeoutMs: 500, registry: new Registry() });
  }, 120_000);

  it('gives up with a reason (condition, Warning Event, Ready) instead of waiting silently forever', async () => {
    const ns = await cluster.namespace('timeout');
    await cluster.applyApp(app(ns));
    const gaveUp = await cluster.appStatus(
      ns,
      'shop',
      (s) => condition(s, 'DependsOn')?.reason === 'DependencyTimeout',
      'api to give up waiting for db',
    );
    const status = gaveUp.status as any;
    expect(condition(status, 'DependsOn').message).toMatch(
      /^"api" gave up waiting for "db" \(.*\) after 500ms \(waiting since .*\); it is applied once they are healthy$/,
    );
    expect(condition(status, 'Ready')).toMatchObject({ status: 'False', reason: 'DependencyTimeout' });
    expect(status.waiting[0]).toMatchObject({ component: 'api', timedOut: true });
    const event = await eventFor(ns, 'DependencyTimeout');
    expect(event.type).toBe('Warning');
    expect(event.message).toContain('"api" gave up waiting for "db"');
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'api')).toBeUndefined();

    // Level-triggered: once db is healthy after all, api is applied.
    await makeReady(ns, 'db');
    await cluster.appStatus(ns, 'shop', (s) => s.status === 'running', 'shop to run in the end');
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'api')).toBeDefined();
  });
});
