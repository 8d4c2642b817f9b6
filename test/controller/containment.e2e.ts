import { eventually, type KubeObject } from '#kube-core';
import { ControllerCluster, helloApp } from './harness.js';

/**
 * A hostile tenant's namespace-local definition that burns CPU: its app reports the limit (the
 * Rendered condition and a RenderFailed Event name the component, the definition and the
 * limit), and a healthy app in another namespace still converges.
 */
let cluster: ControllerCluster;
beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController({ evalCpuLimitMs: 2000 });
}, 120_000);
afterAll(() => cluster?.stop());

const SPIN = `import "list"
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: x: "\\(len([for i in list.Range(0, 1000000000000, 1) if i < 0 {i}]))"
}
`;

const condition = (status: Record<string, any>, type: string) =>
  (status.conditions ?? []).find((c: { type: string }) => c.type === type);

describe('a runaway template in one namespace', () => {
  it('is stopped by its CPU time and reported at its component; another namespace converges', async () => {
    const bombs = await cluster.namespace('bombs');
    await cluster.applyObject({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'ComponentDefinition',
      metadata: { name: 'spin', namespace: bombs },
      spec: {
        workload: { definition: { apiVersion: 'v1', kind: 'ConfigMap' } },
        schematic: { cue: { template: SPIN } },
      },
    } as KubeObject);
    await cluster.applyApp({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'bomb', namespace: bombs },
      spec: { components: [{ name: 'api', type: 'spin' }] },
    } as KubeObject);

    const failed = await cluster.appStatus(
      bombs,
      'bomb',
      (s) => condition(s, 'Rendered')?.status === 'False',
      'the limit to be reported',
    );
    const message = condition(failed.status as Record<string, any>, 'Rendered').message as string;
    expect(message).toContain('components[0] "api" (spin)');
    expect(message).toContain('ComponentDefinition "spin": cpu time limit 2s exceeded');
    const events = await cluster.resource({ apiVersion: 'v1', kind: 'Event' });
    const event = await eventually(async () => {
      const list = await events.list({ namespace: bombs });
      return list.items.find((e: any) => e.reason === 'RenderFailed' && e.involvedObject?.name === 'bomb');
    }, 'a RenderFailed event');
    expect((event as any).message).toContain('cpu time limit 2s exceeded');

    const others = await cluster.namespace('others');
    await cluster.applyApp(helloApp(others));
    await cluster.appStatus(others, 'hello', (s) => s.status === 'running', 'hello to run beside the bomb');
  });
});
