import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { eventually, type KubeObject } from '#kube-core';
import { KubeTransport, NAMESPACES, ResourceClient, silentLogger } from '#runtime';
import { startController, type RunningController } from '#controller';
import { APPS, helloApp } from '../controller/harness.js';
import { deployObjects, installServiceAccount } from './controller-harness.js';

/**
 * deploy/'s RBAC is enough and needed, on the real kube-apiserver (RBAC
 * authorizer): the controller as deploy/'s ServiceAccount runs the hello app
 * without one 403; the same controller as a ServiceAccount holding deploy/'s
 * rules minus one is refused exactly where that rule was needed.
 */
const file = process.env.REAL_KUBECONFIG;
if (!file) throw new Error('REAL_KUBECONFIG is not set: run test/real-cluster/run.sh');
const admin = new KubeConfig();
admin.loadFromFile(file);
const transport = new KubeTransport(admin, { qps: 500, burst: 500 });
const dir = mkdtempSync(join(tmpdir(), 'oam-real-rbac-'));
const namespaces = new ResourceClient(transport, NAMESPACES);
const running: RunningController[] = [];
const created: string[] = [];

afterAll(async () => {
  for (const c of running) await c.stop();
  for (const ns of created) await namespaces.delete(undefined, ns).catch(() => undefined);
  transport.close();
  rmSync(dir, { recursive: true, force: true });
});

async function namespace(prefix: string): Promise<string> {
  const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
  await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  created.push(name);
  return name;
}

/** Runs a controller as `kubeConfig`, scoped to one namespace, with the hello app in it. */
async function run(kubeConfig: KubeConfig, prefix: string) {
  const ns = await namespace(prefix);
  const registry = new Registry();
  const controller = await startController({
    kubeConfig,
    registry,
    logger: silentLogger,
    watchNamespaces: [ns],
    heartbeatIntervalMs: 500,
  });
  running.push(controller);
  await new ResourceClient(transport, APPS).apply(helloApp(ns), { fieldManager: 'e2e-user', force: true });
  return { ns, registry, controller };
}

/** Requests the API server refused as forbidden, by verb. */
async function forbidden(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric('rest_client_requests_total')!.get();
  const out: Record<string, number> = {};
  for (const v of metric.values)
    if (v.labels.code === '403') out[String(v.labels.verb)] = (out[String(v.labels.verb)] ?? 0) + v.value;
  return out;
}

const appOf = (ns: string) => new ResourceClient(transport, APPS).get(ns, 'hello');

describe("deploy/'s RBAC on the real control plane", () => {
  it('is enough: as its ServiceAccount, the hello app runs and nothing is forbidden', async () => {
    const sa = await installServiceAccount(transport, dir);
    const review = await new KubeTransport(sa.kubeConfig).request<{
      status: { userInfo: { username: string } };
    }>({
      verb: 'create',
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(review.status.userInfo.username).toBe('system:serviceaccount:oam-system:oam-controller');
    const { ns, registry, controller } = await run(sa.kubeConfig, 'rbac-enough');
    await eventually(
      async () => ((await appOf(ns)).status as { status?: string } | undefined)?.status === 'running',
      'hello to be running as the ServiceAccount',
      { timeoutMs: 60_000 },
    );
    expect(await forbidden(registry)).toEqual({});
    await controller.stop();
  });

  // Each: which rule goes, and the request that is then refused.
  // Each: which rule goes, the request that is then refused, and whether the app can still run.
  const cases: {
    rule: string;
    drop: (role: string, rule: Rule) => boolean;
    refused: string;
    appRuns: boolean;
  }[] = [
    {
      rule: 'update applications/status',
      drop: (_, r) => r.resources?.includes('applications/status') ?? false,
      refused: 'update',
      appRuns: false,
    },
    {
      rule: 'apps: deployments, statefulsets, daemonsets',
      drop: (_, r) => r.apiGroups?.includes('apps') ?? false,
      refused: 'list', // the cache of Deployments, read before applying
      appRuns: false,
    },
    {
      rule: 'leases in oam-system (heartbeat, leader election)',
      drop: (role) => role === 'oam-controller-leases',
      refused: 'patch',
      appRuns: true,
    },
  ];

  it.each(cases)(
    'is needed: without "$rule", the controller is refused ($refused)',
    async ({ drop, refused }) => {
      const name = `oam-trimmed-${Math.random().toString(36).slice(2, 8)}`;
      const sa = await installServiceAccount(transport, dir, trimmed(name, drop));
      const { ns, registry } = await run(sa.kubeConfig, 'rbac-needed');
      await eventually(
        async () => ((await forbidden(registry))[refused] ?? 0) > 0,
        `a ${refused} to be refused with 403`,
        { timeoutMs: 60_000 },
      );
      const status = (await appOf(ns)).status as { status?: string } | undefined;
      if (refused !== 'patch' || !drop('oam-controller-leases', {} as Rule))
        expect(status?.status).not.toBe('running');
    },
  );
});

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
}

/**
 * deploy/'s RBAC for another ServiceAccount, `name`, with the rules `drop`
 * picks removed: the aggregated ClusterRole flattened into one (no
 * aggregation label, so the real controller's role is untouched), Roles and
 * bindings renamed.
 */
function trimmed(name: string, drop: (role: string, rule: Rule) => boolean): KubeObject[] {
  const objects = deployObjects();
  const keep = (o: KubeObject) =>
    ((o.rules as Rule[] | undefined) ?? []).filter((r) => !drop(o.metadata!.name!, r));
  const clusterRules = objects
    .filter((o) => o.kind === 'ClusterRole' && o.metadata?.labels?.['rbac.oam.dev/aggregate-to-controller'])
    .flatMap(keep);
  const subject = [{ kind: 'ServiceAccount', name, namespace: 'oam-system' }];
  const out: KubeObject[] = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'oam-system' } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      rules: clusterRules,
    } as KubeObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: subject,
    } as KubeObject,
  ];
  for (const role of objects.filter((o) => o.kind === 'Role')) {
    const rules = keep(role);
    if (rules.length === 0) continue;
    const meta = { name: `${name}-${role.metadata!.name}`, namespace: role.metadata!.namespace };
    out.push(
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta, rules } as KubeObject,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: meta,
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: meta.name },
        subjects: subject,
      } as KubeObject,
    );
  }
  return out;
}
