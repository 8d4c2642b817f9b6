import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import type { RunningServer } from '#kube-server';
import { KubeTransport, NAMESPACES, ResourceClient, type ResourceKind } from '#runtime';
import { applyObjects } from '../../apps/cli/src/commands/install/apply-objects.js';
import { readDeploy } from '../../apps/cli/src/commands/install/deploy-manifests.js';
import { APPS, ControllerCluster as EmbeddedCluster } from '../controller/harness.js';

export { APPS, edit, helloApp } from '../controller/harness.js';

/**
 * test/controller's harness against the real control plane (REAL_KUBECONFIG):
 * jest.real.config.js maps the controller suites' `./harness.js` here, so
 * they run unchanged. deploy/'s namespaces, CRDs, ServiceAccount and RBAC
 * are applied as admin (not the Deployment: no image runs here), and the
 * controller runs in-process **as the ServiceAccount**, through a kubeconfig
 * holding a TokenRequest token; `server.kubeconfigPath` is that kubeconfig,
 * so suites that start `oam controller` run it as the ServiceAccount too.
 * The tests' own reads and writes use the admin kubeconfig.
 */
export class ControllerCluster extends EmbeddedCluster {
  private readonly created: string[] = [];

  static override async start(): Promise<ControllerCluster> {
    const file = process.env.REAL_KUBECONFIG;
    if (!file) throw new Error('REAL_KUBECONFIG is not set: run test/real-cluster/run.sh');
    const admin = new KubeConfig();
    admin.loadFromFile(file);
    const dir = mkdtempSync(join(tmpdir(), 'oam-real-controller-'));
    const transport = new KubeTransport(admin, { qps: 500, burst: 500 });
    const sa = await installServiceAccount(transport, dir);
    const server = {
      kubeConfig: admin,
      kubeconfigPath: sa.path,
      url: admin.getCurrentCluster()!.server,
      stop: async () => undefined,
    } as unknown as RunningServer;
    const cluster = new ControllerCluster(server, dir, transport);
    cluster.serviceAccount = sa.kubeConfig;
    return cluster;
  }

  /** The controller's own credentials: deploy/'s ServiceAccount. */
  private serviceAccount!: KubeConfig;

  /** What a controller started by a suite uses: the ServiceAccount, never admin. */
  override get kubeConfig(): KubeConfig {
    return this.serviceAccount;
  }

  override async namespace(prefix: string): Promise<string> {
    const name = await super.namespace(prefix);
    this.created.push(name);
    return name;
  }

  /**
   * Leaves the cluster as the suite found it, so the next suite's controller
   * starts at rest (it would otherwise finalize this suite's Applications,
   * writing in its measurements): the suite's Applications are deleted while
   * a controller still runs (a temporary one if the suite stopped its own)
   * and are waited for, then its namespaces go (real garbage collection
   * removes what was in them; nobody waits for that).
   */
  override async stop(): Promise<void> {
    if (this.created.length > 0) {
      if (!this.controller) await this.startController();
      await this.deleteApplications();
    }
    await this.controller?.stop();
    this.controller = undefined;
    const namespaces = new ResourceClient(this.transport, NAMESPACES);
    for (const ns of this.created) await namespaces.delete(undefined, ns).catch(() => undefined);
    await super.stop();
  }

  private async deleteApplications(): Promise<void> {
    const apps = new ResourceClient(this.transport, APPS);
    const left = async () =>
      (await Promise.all(this.created.map((namespace) => apps.list({ namespace })))).flatMap((l) =>
        l.items.map((a) => `${a.metadata?.namespace}/${a.metadata?.name}`),
      );
    for (const key of await left()) {
      const [namespace, name] = key.split('/');
      await apps.delete(namespace, name).catch(() => undefined);
    }
    let remaining: string[] = [];
    await eventually(
      async () => (remaining = await left()).length === 0,
      "the suite's Applications to be finalized",
      {
        timeoutMs: 120_000,
        intervalMs: 250,
      },
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${remaining.join(', ')}`);
    });
  }
}

const CLUSTER_ROLES: ResourceKind = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  kind: 'ClusterRole',
  namespaced: false,
};

/**
 * Applies deploy/ except the workload (idempotent: server-side apply), waits
 * until kube-controller-manager has aggregated the controller's ClusterRole,
 * and writes a kubeconfig with a one-hour token of its ServiceAccount.
 */
export async function installServiceAccount(
  transport: KubeTransport,
  dir: string,
  objects: KubeObject[] = deployObjects(),
): Promise<{ kubeConfig: KubeConfig; path: string }> {
  await applyObjects(transport, objects);
  const aggregated = objects.find(
    (o) => o.kind === 'ClusterRole' && (o as { aggregationRule?: unknown }).aggregationRule,
  );
  const wanted = objects
    .filter((o) => o.kind === 'ClusterRole' && o.metadata?.labels?.[AGGREGATE] === 'true')
    .flatMap((o) => (o.rules as unknown[]).map(ruleKey));
  if (aggregated)
    await eventually(
      async () => {
        const role = await new ResourceClient(transport, CLUSTER_ROLES).get(
          undefined,
          aggregated.metadata!.name!,
        );
        const has = new Set(((role.rules as unknown[] | undefined) ?? []).map(ruleKey));
        return wanted.every((r) => has.has(r));
      },
      `ClusterRole ${aggregated.metadata!.name} to be aggregated`,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
  // deploy/ also holds the REST API's ServiceAccount; a trimmed copy (rbac.spec.ts) has one of its own.
  const accounts = objects.filter((o) => o.kind === 'ServiceAccount');
  const sa = (accounts.find((o) => o.metadata?.name === 'oam-controller') ?? accounts[0]).metadata!;
  const token = await transport.request<{ status: { token: string } }>({
    verb: 'create',
    method: 'POST',
    path: `/api/v1/namespaces/${sa.namespace}/serviceaccounts/${sa.name}/token`,
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    },
  });
  const admin = transport.kubeConfig;
  const cluster = admin.getCurrentCluster()!;
  const path = join(dir, `${sa.name}.kubeconfig`);
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'real', cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData } },
      ],
      users: [{ name: sa.name, user: { token: token.status.token } }],
      contexts: [{ name: sa.name, context: { cluster: 'real', user: sa.name } }],
      'current-context': sa.name,
    }),
    { mode: 0o600 },
  );
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(path);
  return { kubeConfig, path };
}

/**
 * deploy/ without the controller's Deployment and PDB (here the controller
 * runs in the test), plus what an operator adds, as deploy/README.md says,
 * for the suites' `k8s-objects` components that render Namespaces: an
 * aggregated ClusterRole of its own.
 */
export function deployObjects(): KubeObject[] {
  return [
    ...readDeploy(join(projectRoot(), 'deploy'))
      .map((o) => o.object)
      .filter((o) => o.kind !== 'Deployment' && o.kind !== 'PodDisruptionBudget'),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'oam-controller-e2e-namespaces',
        labels: { [AGGREGATE]: 'true' },
      },
      rules: [
        {
          apiGroups: [''],
          resources: ['namespaces'],
          verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
        },
      ],
    } as KubeObject,
  ];
}

const AGGREGATE = 'rbac.oam.dev/aggregate-to-controller';
const ruleKey = (r: unknown) => JSON.stringify(r, Object.keys(r as object).sort());
