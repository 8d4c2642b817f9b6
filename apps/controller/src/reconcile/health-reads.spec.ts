import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '#definitions';
import { createRenderer, evaluateHealth, type LiveState, type RendererHandle } from '#renderer';
import { cutFor, policyReads, pruned } from './health-reads.js';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'a',
    resourceVersion: '42',
    generation: 2,
    annotations: { 'app.oam.dev/applied-hash': 'h', 'app.oam.dev/disable-health-check': 'true' },
  },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'a' }] } } },
  status: {
    replicas: 2,
    readyReplicas: 1,
    conditions: [{ type: 'Available', lastUpdateTime: '2026-01-01T00:00:00Z' }],
  },
};

function policiesOf(file: string): { healthPolicy?: string; customStatus?: string } {
  const doc = parse(readFileSync(join(projectRoot(), 'definitions', file), 'utf8'));
  return doc.spec?.status ?? {};
}

describe('policyReads', () => {
  it("keeps what webservice's policies read of the workload and drops the rest", () => {
    const { healthPolicy, customStatus } = policiesOf('components/webservice.yaml');
    const reads = policyReads(`${healthPolicy}\n${customStatus}`);
    expect(reads.parameter).toBe(false);
    expect(pruned({ output: deployment, outputs: {}, appName: 'a' }, reads.context!)).toEqual({
      output: {
        metadata: { generation: 2, annotations: { 'app.oam.dev/disable-health-check': 'true' } },
        spec: { replicas: 2 },
        status: { replicas: 2, readyReplicas: 1 },
      },
    });
  });

  it("keeps the whole outputs for gateway's policies, and nothing of the workload", () => {
    const { healthPolicy, customStatus } = policiesOf('traits/gateway.yaml');
    const reads = policyReads(`${healthPolicy}\n${customStatus}`);
    const outputs = { ingress: { kind: 'Ingress', spec: { rules: [{ host: 'x' }] } } };
    expect(pruned({ output: deployment, outputs }, reads.context!)).toEqual({ outputs });
  });

  it('keeps all of context when it is used whole, aliased or interpolated', () => {
    for (const source of [
      'c: context\nisHealth: c.output.x',
      'isHealth: len(context) > 0',
      'm: "\\(context)"',
    ])
      expect(policyReads(source).context).toBeUndefined();
  });

  it('keeps the whole value where a chain stops: a computed index, an operator, a call', () => {
    const reads = policyReads(
      [
        'a: context.output.metadata.labels[k]',
        'b: len(context.output.spec.template) > 0',
        'c: 1 + context.output.status != _|_',
        'd: context.output.metadata.annotations["\\(k)"]',
      ].join('\n'),
    );
    expect(pruned({ output: deployment }, reads.context!)).toEqual({
      output: {
        metadata: { annotations: deployment.metadata.annotations },
        spec: { template: deployment.spec.template },
        status: deployment.status,
      },
    });
  });

  it('keeps only the existence of a struct compared with _|_ in a condition', () => {
    const reads = policyReads('if context.output.status != _|_ && context.output.spec == _|_ { x: 1 }');
    expect(pruned({ output: deployment }, reads.context!)).toEqual({ output: { status: {}, spec: {} } });
  });

  it('keeps parameter when the policy mentions it', () => {
    expect(policyReads('isHealth: parameter.replicas > 0').parameter).toBe(true);
    expect(policyReads('isHealth: context.parameterish == 1').parameter).toBe(false);
  });
});

describe('cutFor', () => {
  it('gives two applications in the same state the same request for webservice', () => {
    const policy = policiesOf('components/webservice.yaml');
    const state = (name: string, resourceVersion: string): LiveState => ({
      output: { ...deployment, metadata: { ...deployment.metadata, name, resourceVersion } },
      outputs: {},
      parameter: { image: name },
      context: { appName: name, name, namespace: 'ns' } as LiveState['context'],
    });
    expect(cutFor(policy, state('a', '1'))).toEqual(cutFor(policy, state('b', '2')));
  });
});

describe('a health request cut to what its policy reads', () => {
  let handle: RendererHandle;
  beforeAll(() => (handle = createRenderer({ poolSize: 1 })));
  afterAll(() => handle.close());

  const states: Pick<LiveState, 'output' | 'outputs'>[] = [
    { output: deployment, outputs: {} },
    {
      output: { ...deployment, metadata: { name: 'a', generation: 3 }, status: { readyReplicas: 2 } },
      outputs: {
        service: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'a' },
          spec: { clusterIP: '10.0.0.1' },
        },
        ingress: {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: 'a' },
          spec: { rules: [{ host: 'a.example.com' }] },
          status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }] } },
        },
      },
    },
    {
      output: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'a' }, status: { succeeded: 1 } },
      outputs: {},
    },
  ];

  it('gives every built-in definition the verdict of the whole request', async () => {
    const files = ['components', 'traits'].flatMap((dir) =>
      readdirSync(join(projectRoot(), 'definitions', dir)).map((f) => `${dir}/${f}`),
    );
    let compared = 0;
    for (const file of files) {
      const policy = policiesOf(file);
      if (!policy?.healthPolicy && !policy?.customStatus) continue;
      for (const live of states) {
        const state: LiveState = {
          ...live,
          parameter: { replicas: 2, port: 80 },
          context: { appName: 'a', name: 'a', namespace: 'ns' } as LiveState['context'],
        };
        const whole = await evaluateHealth(policy, state, handle.health);
        expect({ file, verdict: await evaluateHealth(policy, cutFor(policy, state), handle.health) }).toEqual(
          {
            file,
            verdict: whole,
          },
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(3 * 5);
  });
});
