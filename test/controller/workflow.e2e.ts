import { eventually, type KubeObject } from '#kube-core';
import type { Workflow, WorkflowReport, WorkflowRun } from '#controller';
import { ControllerCluster } from './harness.js';

/**
 * A stub behind the workflow seam: every component in the reverse of the
 * spec's order, `dependsOn` ignored, nothing held. What it was offered is
 * kept for the test to read.
 */
class ReverseWorkflow implements Workflow {
  readonly runs: string[][] = [];

  async run(run: WorkflowRun): Promise<WorkflowReport> {
    const order = run.components.map((c) => c.name).reverse();
    this.runs.push(order);
    for (const component of order) await run.apply({ component });
    return { phase: 'succeeded', steps: [], waits: [], messages: new Map(), conditions: [] };
  }
}

let cluster: ControllerCluster;
const workflow = new ReverseWorkflow();

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController({ workflow });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** "api" depends on "db", whose Pods never turn ready: the default workflow never applies "api". */
function app(namespace: string): KubeObject {
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata: { name: 'shop', namespace },
    spec: {
      components: [
        { name: 'db', type: 'worker', properties: { image: 'postgres:16' }, traits: [notReady] },
        { name: 'api', type: 'worker', properties: { image: 'example/api:1' }, dependsOn: ['db'] },
      ],
    },
  };
}
const notReady = { type: 'annotations', properties: { 'simulation.oam.dev/ready': 'false' } };

describe('the workflow seam', () => {
  it('applies what the workflow asks for, in its order: a stub applies "api" before the "db" it depends on', async () => {
    const ns = await cluster.namespace('workflow');
    await cluster.applyApp(app(ns));
    const events = await cluster.resource({ apiVersion: 'v1', kind: 'Event' });
    const applied = await eventually(async () => {
      const list = await events.list({ namespace: ns });
      return list.items.find(
        (e: any) =>
          e.reason === 'Applied' && e.involvedObject?.name === 'shop' && e.message.includes(`"${ns}/api"`),
      );
    }, 'an Applied event naming api');
    // One reconcile applied both, the workflow's order kept: the default would have held "api".
    expect((applied as any).message).toBe(`shop-v1: applied Deployment "${ns}/api", Deployment "${ns}/db"`);
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'api')).toBeDefined();
    expect(workflow.runs[0]).toEqual(['api', 'db']);
    const written = await cluster.appStatus(
      ns,
      'shop',
      (st) => st.conditions?.some((c: any) => c.type === 'Applied' && c.status === 'True'),
      'the status of that reconcile',
    );
    const status = written.status as any;
    expect(status.waiting).toBeUndefined();
    expect(status.conditions.find((c: any) => c.type === 'DependsOn')).toBeUndefined();
  });
});
