import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { eventually as poll } from '#kube-core';

/**
 * The harness itself works: the server is the version we built, and a real
 * Deployment gets Pods that kwok's fake node runs, so availability is real
 * controller behaviour, not a simulation of ours.
 */
const kubeconfig = process.env.REAL_KUBECONFIG;
if (!kubeconfig) throw new Error('REAL_KUBECONFIG is not set: run test/real-cluster/run.sh');
const expectedVersion = /K8S_VERSION=(\S+)/.exec(
  readFileSync(new URL('./versions.env', import.meta.url), 'utf8'),
)![1];

const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const namespace = `smoke-${Date.now().toString(36)}`;

/** A real cluster's controllers take their time: poll every 500 ms for up to a minute. */
const eventually = <T>(check: () => Promise<T | undefined>, what: string) =>
  poll(check, what, { timeoutMs: 60_000, intervalMs: 500 });

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: namespace } } });
});
afterAll(async () => {
  await core.deleteNamespace({ name: namespace }).catch(() => undefined);
});

describe('real control plane', () => {
  it(`serves Kubernetes v${expectedVersion}`, async () => {
    const info = await kc.makeApiClient(k8s.VersionApi).getCode();
    expect(info.gitVersion).toBe(`v${expectedVersion}`);
  });

  it('runs a Deployment to availability on the kwok node', async () => {
    await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'nginx' }] },
          },
        },
      },
    });
    const available = await eventually(async () => {
      const d = await apps.readNamespacedDeployment({ namespace, name: 'web' });
      return d.status?.availableReplicas === 2 ? d : undefined;
    }, 'deployment web to have 2 available replicas');
    expect(available.status?.readyReplicas).toBe(2);
    const pods = await core.listNamespacedPod({ namespace, labelSelector: 'app=web' });
    expect(pods.items.map((p) => [p.spec?.nodeName, p.status?.phase])).toEqual([
      ['kwok-node-0', 'Running'],
      ['kwok-node-0', 'Running'],
    ]);
  });
});
