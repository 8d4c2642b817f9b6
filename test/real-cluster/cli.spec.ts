import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { isNotFound, KubeTransport, ResourceClient, type ResourceKind } from '#runtime';
import { ensureBuilt } from '../support/build.js';
import { runOam, type OamRun } from '../support/run-oam.js';
import { deployObjects, installServiceAccount } from './controller-harness.js';

/**
 * The user's flow on the real control plane (REAL_KUBECONFIG, admin):
 * `oam install` applies deploy/ and waits for the controller Deployment
 * (kwok's fake node makes its Pods Running; no image runs, so they reconcile
 * nothing), then the controller runs outside the cluster as deploy/'s
 * ServiceAccount (`oam controller` with a TokenRequest kubeconfig), and the
 * built `oam` takes examples/hello up, reports its status and deletes it.
 */
const file = process.env.REAL_KUBECONFIG;
if (!file) throw new Error('REAL_KUBECONFIG is not set: run test/real-cluster/run.sh');
const root = projectRoot();
const home = mkdtempSync(join(tmpdir(), 'oam-real-cli-'));
const admin = new KubeConfig();
admin.loadFromFile(file);
const server = admin.getCurrentCluster()!.server;
const transport = new KubeTransport(admin);
let controller: ChildProcess | undefined;
let controllerOut = '';

const kind = (group: string, version: string, plural: string, k: string): ResourceKind => ({
  group,
  version,
  plural,
  kind: k,
  namespaced: true,
});
const APPS = kind('core.oam.dev', 'v1beta1', 'applications', 'Application');
const DEPLOYMENTS = kind('apps', 'v1', 'deployments', 'Deployment');
const LEASES = kind('coordination.k8s.io', 'v1', 'leases', 'Lease');
const orNothing = (err: unknown) => {
  if (isNotFound(err)) return undefined;
  throw err;
};
const get = (k: ResourceKind, ns: string, name: string) =>
  new ResourceClient(transport, k).get(ns, name).catch(orNothing);

function oam(args: string[]): Promise<OamRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, OAM_HOME: home, HOME: home, KUBECONFIG: file };
  for (const key of ['FORCE_COLOR', 'NO_COLOR', 'npm_package_version']) delete env[key];
  return runOam(root, args, env);
}

beforeAll(() => ensureBuilt(root), 240_000);

afterAll(async () => {
  // A failed test must not leave hello behind, nor its finalizer without a controller to clear it.
  await new ResourceClient(transport, APPS).delete('default', 'hello').catch(() => undefined);
  await eventually(() => get(APPS, 'default', 'hello').then((a) => a === undefined), 'hello to go', {
    timeoutMs: 60_000,
  }).catch(() => undefined);
  if (controller && controller.exitCode === null) {
    const exited = new Promise((r) => controller!.once('exit', r));
    controller.kill('SIGTERM');
    await exited;
  }
  transport.close();
  rmSync(home, { recursive: true, force: true });
}, 120_000);

describe('oam on the real control plane', () => {
  it('oam install applies deploy/ as oam-cli and waits until the controller and API Deployments are available', async () => {
    const r = await oam(['install', '--timeout', '3m']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`→ cluster real-cluster (${server})`);
    expect(lines).toContain('applied CustomResourceDefinition applications.core.oam.dev');
    expect(lines).toContain('applied Deployment oam-system/oam-controller');
    expect(lines).toContain('applied Deployment oam-system/oam-api');
    expect(lines.at(-1)).toMatch(
      /^✓ oam installed and available \(oam-controller 2\/2 replicas available, oam-api 2\/2 replicas available\)/,
    );
  });

  it('without a running controller, oam up stops before applying and says how to start one (exit 3)', async () => {
    // kwok's Pods run no image; an earlier suite's stopped controller may have left a recent heartbeat.
    await new ResourceClient(transport, LEASES)
      .delete('oam-system', 'oam-controller-heartbeat')
      .catch(orNothing);
    const r = await oam(['up', '-f', 'examples/hello']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no OAM controller is running on cluster "real-cluster"');
    expect(r.stderr).toContain('has no heartbeat');
    expect(await get(APPS, 'default', 'hello')).toBeUndefined();
  });

  it('with the controller outside the cluster as its ServiceAccount, oam up -f examples/hello ends healthy (exit 0)', async () => {
    const sa = await installServiceAccount(transport, home, deployObjects());
    controller = spawn(
      process.execPath,
      [join(root, 'bin', 'oam.js'), 'controller', '--kubeconfig', sa.path],
      {
        cwd: root,
        env: { ...process.env, KUBECONFIG: sa.path },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    controller.stdout!.on('data', (d: Buffer) => (controllerOut += d.toString()));
    controller.stderr!.on('data', (d: Buffer) => (controllerOut += d.toString()));
    const started = Date.now();
    await eventually(
      async () => {
        if (controller!.exitCode !== null)
          throw new Error(`oam controller exited: ${controllerOut.slice(-500)}`);
        const lease = await get(LEASES, 'oam-system', 'oam-controller-heartbeat');
        const renewed = Date.parse(String((lease?.spec as { renewTime?: string } | undefined)?.renewTime));
        return renewed >= started - 1000;
      },
      `the controller's heartbeat (its output: ${controllerOut.slice(-300)})`,
      { timeoutMs: 90_000, intervalMs: 500 },
    );

    const r = await oam(['up', '-f', 'examples/hello', '--timeout', '3m']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`→ cluster real-cluster (${server})`);
    expect(r.stdout).toMatch(/^applied Application default\/hello \(generation \d+\)$/m);
    expect(r.stdout).toContain('hello is healthy');
    expect(r.stdout).toMatch(/Deployment\/hello-web {2}healthy {2}2\/2 ready/);
    expect(r.stdout).toMatch(/Service\/hello-web {2}healthy/);
    // kube-controller-manager and kwok made it so, not a simulator.
    const deployment = (await get(DEPLOYMENTS, 'default', 'hello-web')) as KubeObject & {
      status: { availableReplicas?: number };
    };
    expect(deployment.status.availableReplicas).toBe(2);
  });

  it('oam status -o json: the view of the app, its component, objects and trait', async () => {
    const r = await oam(['status', 'hello', '-o', 'json']);
    // The target line goes to stderr, so stdout is JSON alone.
    expect(r.stderr).toBe(`→ cluster real-cluster (${server})\n`);
    expect(r.code).toBe(0);
    const view = JSON.parse(r.stdout) as {
      name: string;
      namespace: string;
      kind: string;
      healthy: boolean;
      phase: string;
      generation: number;
      observedGeneration: number;
      revision?: { name: string; revision: number };
      components: {
        name: string;
        type: string;
        healthy: boolean;
        objects: { kind: string; name: string; healthy: boolean; message?: string }[];
        traits: { type: string; healthy: boolean }[];
      }[];
    };
    expect(view).toMatchObject({ name: 'hello', namespace: 'default', healthy: true, phase: 'running' });
    expect(view.observedGeneration).toBe(view.generation);
    expect(view.revision?.name).toBe(`hello-v${view.revision?.revision}`);
    expect(view.components).toHaveLength(1);
    const [web] = view.components;
    expect(web).toMatchObject({ name: 'hello-web', type: 'webservice', healthy: true });
    expect(web.objects.map((o) => `${o.kind}/${o.name}:${o.healthy}`).sort()).toEqual([
      'Deployment/hello-web:true',
      'Service/hello-web:true',
    ]);
    expect(web.traits).toEqual([expect.objectContaining({ type: 'scaler', healthy: true })]);
  });

  it('oam ls lists it; oam delete --wait removes the app and what it applied', async () => {
    const ls = await oam(['ls']);
    expect(ls.code).toBe(0);
    expect(ls.stdout).toMatch(/^hello\s+hello-web\s+webservice\s+scaler\s+running\s+true\s+Ready:2\/2/m);

    const r = await oam(['delete', 'hello', '--wait', '--timeout', '2m']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Application default/hello deleted');
    expect(r.stdout).toContain('Application default/hello and what it applied are gone');
    expect(await get(APPS, 'default', 'hello')).toBeUndefined();
    await eventually(
      async () => (await get(DEPLOYMENTS, 'default', 'hello-web')) === undefined,
      'the Deployment hello-web to be deleted',
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });
});
