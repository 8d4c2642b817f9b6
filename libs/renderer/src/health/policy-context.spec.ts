import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { type TypedObject } from '#kube-core';
import { projectRoot } from '#definitions';
import { createCueEngine, type CueEngine } from '../engines/cue/index.js';
import { evaluateHealth, type HealthPolicy, type LiveState } from './index.js';

// What a health request carries of `context` is what CUE finds its policy reads: the request
// (the controller's cache key) stays the same while anything else of the live objects changes.

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'a', resourceVersion: '42', generation: 2, annotations: { x: 'y' } },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'a' }] } } },
  status: {
    replicas: 2,
    readyReplicas: 1,
    conditions: [{ type: 'Available', lastUpdateTime: '2026-01-01T00:00:00Z' }],
  },
} as TypedObject;

function policyOf(file: string): HealthPolicy {
  const doc = parse(readFileSync(join(projectRoot(), 'definitions', file), 'utf8'));
  return doc.spec?.status ?? {};
}

let engine: CueEngine;
beforeAll(() => {
  engine = createCueEngine({ timeoutMs: 20_000, poolSize: 1 });
});
afterAll(() => engine.close());

describe('policyContext', () => {
  it("keeps what webservice's health policy reads of the workload, and drops the rest", async () => {
    // `status` and `annotations` are tested for existence (`!= _|_`): an empty object says they exist.
    const { healthPolicy } = policyOf('components/webservice.yaml');
    const cut = await engine.policyContext(healthPolicy!, { output: deployment, outputs: {}, appName: 'a' });
    expect(cut).toEqual({
      output: {
        metadata: { generation: 2, annotations: {} },
        spec: { replicas: 2 },
        status: { replicas: 2, readyReplicas: 1 },
      },
    });
  });

  it('keeps all of context for a policy that uses it whole', async () => {
    const context = { output: deployment, appName: 'a' };
    expect(await engine.policyContext('c: context\nisHealth: c.appName == "a"', context)).toBe(context);
  });

  it('keeps all of context for a policy that does not compile, and the evaluation says why', async () => {
    const context = { output: deployment };
    expect(await engine.policyContext('isHealth: (', context)).toBe(context);
    expect(
      await evaluateHealth({ healthPolicy: 'isHealth: (' }, { output: deployment }, engine),
    ).toMatchObject({
      healthy: false,
    });
  });
});

describe('a health request cut to what its policy reads', () => {
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
        } as TypedObject,
      },
    },
    {
      output: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'a' },
        status: { succeeded: 1 },
      } as TypedObject,
      outputs: {},
    },
  ];

  it('gives every built-in definition the verdict of the whole context', async () => {
    const whole = { evaluateSource: engine.evaluateSource, policyContext: async (_: string, c: object) => c };
    const files = ['components', 'traits'].flatMap((dir) =>
      readdirSync(join(projectRoot(), 'definitions', dir)).map((f) => `${dir}/${f}`),
    );
    let compared = 0;
    for (const file of files) {
      const policy = policyOf(file);
      if (!policy.healthPolicy && !policy.customStatus) continue;
      for (const live of states) {
        const state: LiveState = {
          ...live,
          parameter: { replicas: 2, port: 80 },
          context: { appName: 'a', name: 'a', namespace: 'ns' } as LiveState['context'],
        };
        expect({ file, verdict: await evaluateHealth(policy, state, engine) }).toEqual({
          file,
          verdict: await evaluateHealth(policy, state, whole as typeof engine),
        });
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(3 * 5);
  });
});
