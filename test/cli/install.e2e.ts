import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { CUSTOM_RESOURCE_DEFINITIONS, KubeTransport, ResourceClient, type ResourceKind } from '#runtime';
import { ensureBuilt } from '../support/build.js';
import { runOam, type OamRun } from '../support/run-oam.js';

/**
 * `oam install` / `oam uninstall` against "a cluster": the embedded API
 * server started bare (--no-controller) and reached through its kubeconfig.
 * No image runs there: its workload simulator makes the controller's
 * Deployment available, which is what install waits for.
 */
const root = projectRoot();
const serverHome = mkdtempSync(join(tmpdir(), 'oam-install-server-'));
const userHome = mkdtempSync(join(tmpdir(), 'oam-install-user-'));
let server: ChildProcess | undefined;
let kubeconfig = '';
let url = '';
let transport: KubeTransport;

const kind = (
  group: string,
  version: string,
  plural: string,
  k: string,
  namespaced = true,
): ResourceKind => ({
  group,
  version,
  plural,
  kind: k,
  namespaced,
});
const DEPLOYMENTS = kind('apps', 'v1', 'deployments', 'Deployment');
const CLUSTER_ROLES = kind('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false);
const APPS = kind('core.oam.dev', 'v1beta1', 'applications', 'Application');
const client = (k: ResourceKind) => new ResourceClient(transport, k);
const get = (k: ResourceKind, ns: string | undefined, name: string) =>
  client(k)
    .get(ns, name)
    .catch((err: { code?: number }) => {
      if (err.code === 404) return undefined;
      throw err;
    });

function oam(args: string[]): Promise<OamRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OAM_HOME: userHome,
    HOME: userHome,
    KUBECONFIG: kubeconfig,
  };
  for (const key of ['FORCE_COLOR', 'NO_COLOR', 'npm_package_version']) delete env[key];
  return runOam(root, args, env);
}

beforeAll(async () => {
  ensureBuilt(root);
  server = spawn(
    process.execPath,
    [
      join(root, 'bin', 'oam.js'),
      'server',
      '--port',
      '0',
      '--no-controller',
      '--state-dir',
      join(serverHome, 'server'),
    ],
    { cwd: root, env: { ...process.env, OAM_HOME: serverHome }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  server.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  kubeconfig = await eventually(
    () => /^export KUBECONFIG=(.+)$/m.exec(out)?.[1],
    'the bare API server to start',
    { timeoutMs: 60_000 },
  );
  url = /listening on (https:\/\/\S+)/.exec(out)![1];
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  transport = new KubeTransport(kc);
}, 240_000);

afterAll(async () => {
  transport?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(serverHome, { recursive: true, force: true });
  rmSync(userHome, { recursive: true, force: true });
}, 60_000);

describe('oam install / oam uninstall', () => {
  it('install: prints the target, applies deploy/ as oam-cli, waits until the controller and the API are available', async () => {
    const r = await oam(['install']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`→ cluster oam-local (${url})`);
    expect(lines).toContain('applied Namespace oam-system');
    expect(lines).toContain('applied CustomResourceDefinition applications.core.oam.dev');
    expect(lines).toContain('applied ClusterRole oam-controller-builtin-kinds');
    expect(lines).toContain('applied Deployment oam-system/oam-controller');
    expect(lines).toContain('applied Deployment oam-system/oam-api');
    expect(lines.at(-1)).toMatch(
      /^✓ oam installed and available \(oam-controller 2\/2 replicas available, oam-api 2\/2 replicas available\)/,
    );
    const deployment = (await get(DEPLOYMENTS, 'oam-system', 'oam-controller')) as KubeObject & { spec: any };
    expect(deployment.spec.template.spec.containers[0].image).toBe('ghcr.io/oam-platform/oam:0.1.0');
    expect(
      (deployment.metadata!.managedFields as { manager: string; operation: string }[]).map((f) => [
        f.manager,
        f.operation,
      ]),
    ).toContainEqual(['oam-cli', 'Apply']);
  });

  it('install --image replaces the image of both Deployments; installing again changes nothing else', async () => {
    const r = await oam(['install', '--image', 'registry.example/oam:dev']);
    expect(r.code).toBe(0);
    for (const name of ['oam-controller', 'oam-api']) {
      const deployment = (await get(DEPLOYMENTS, 'oam-system', name)) as KubeObject & { spec: any };
      expect(deployment.spec.template.spec.containers[0].image).toBe('registry.example/oam:dev');
    }
  });

  it('install refuses, applying nothing, where KubeVela’s CRDs are installed', async () => {
    const crds = client(CUSTOM_RESOURCE_DEFINITIONS);
    const mark = { metadata: { annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.5' } } };
    await crds.patch(undefined, 'traits.core.oam.dev', mark, { type: 'merge' });
    try {
      const r = await oam(['install', '--image', 'registry.example/oam:other']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('KubeVela\'s CRDs are installed on cluster "oam-local"');
      expect(r.stderr).not.toContain('    at ');
      const deployment = (await get(DEPLOYMENTS, 'oam-system', 'oam-controller')) as KubeObject & {
        spec: any;
      };
      expect(deployment.spec.template.spec.containers[0].image).toBe('registry.example/oam:dev');
    } finally {
      await crds.patch(
        undefined,
        'traits.core.oam.dev',
        { metadata: { annotations: { 'controller-gen.kubebuilder.io/version': null } } },
        { type: 'merge' },
      );
    }
  });

  it('uninstall refuses while Applications exist; --force removes the controller and RBAC, keeps CRDs and apps', async () => {
    await client(APPS).create({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'kept', namespace: 'default' },
      spec: { components: [{ name: 'web', type: 'webservice', properties: { image: 'nginx' } }] },
    });
    const refused = await oam(['uninstall']);
    expect(refused.code).toBe(1);
    expect(refused.stdout.split('\n')[0]).toBe(`→ cluster oam-local (${url})`);
    expect(refused.stderr).toContain('1 Application(s) exist on cluster "oam-local"');
    expect(refused.stderr).toContain('default/kept');
    expect(refused.stderr).toContain('--force');
    expect(await get(DEPLOYMENTS, 'oam-system', 'oam-controller')).toBeDefined();

    const r = await oam(['uninstall', '--force']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^removing: .*Deployment oam-system\/oam-controller/m);
    expect(r.stdout).toMatch(/^keeping: .*CustomResourceDefinition applications\.core\.oam\.dev/m);
    expect(r.stdout).toContain('removed ClusterRole oam-controller');
    expect(await get(DEPLOYMENTS, 'oam-system', 'oam-controller')).toBeUndefined();
    expect(await get(CLUSTER_ROLES, undefined, 'oam-controller-builtin-kinds')).toBeUndefined();
    expect(await get(CUSTOM_RESOURCE_DEFINITIONS, undefined, 'applications.core.oam.dev')).toBeDefined();
    expect(await get(APPS, 'default', 'kept')).toBeDefined();
  });

  it('refuses the local plane: it has a controller of its own', async () => {
    const r = await oam(['install', '--local']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^→ local plane/);
    expect(r.stderr).toContain('`oam install` is for a cluster');
  });
});
