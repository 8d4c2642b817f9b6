import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { ensureBuilt } from '../support/build.js';
import { ControllerCluster } from './harness.js';

/**
 * `oam controller` killed with SIGKILL in the middle of rolling out many
 * applications, then started again: everything converges, with no orphan
 * (every object owned by its live Application) and no duplicate (one
 * Deployment and Service per app, revision 1 for each: the replayed work was
 * recognised as the same). Waits for state only.
 */
const root = projectRoot();
/** 60 keeps the suite near a minute; OAM_CRASH_APPS=1000 runs the full size (1,000 apps) by hand. */
const N = Number(process.env.OAM_CRASH_APPS) || 60;
let cluster: ControllerCluster;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt(root);
  cluster = await ControllerCluster.start();
}, 240_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await cluster?.stop();
});

async function startController(): Promise<ChildProcess> {
  const proc = spawn(
    process.execPath,
    [
      join(root, 'bin', 'oam.js'),
      'controller',
      '--kubeconfig',
      cluster.server.kubeconfigPath,
      '--workers',
      '8',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(proc);
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await eventually(() => stderr.includes('"oam controller started"'), 'the controller to start', 120_000);
  return proc;
}

function app(ns: string, i: number): KubeObject {
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata: { name: `app-${i}`, namespace: ns },
    spec: {
      components: [
        {
          name: `app-${i}`,
          type: 'webservice',
          properties: { image: 'crccheck/hello-world', ports: [{ port: 8000, expose: true }] },
          traits: [{ type: 'scaler', properties: { replicas: 1 } }],
        },
      ],
    },
  };
}

describe('the controller killed mid-rollout', () => {
  it('converges after a restart with no orphan and no duplicate', async () => {
    const ns = await cluster.namespace('crash');
    const first = await startController();
    const apps = await cluster.resource({ apiVersion: 'core.oam.dev/v1beta1', kind: 'Application' });
    for (let i = 0; i < N; i += 10)
      await Promise.all(Array.from({ length: 10 }, (_, k) => cluster.applyApp(app(ns, i + k))));
    // Mid-rollout: some applications have a status, not all of them are running.
    await eventually(
      async () => {
        const list = await apps.list({ namespace: ns });
        const started = list.items.filter((a) => a.status).length;
        const running = list.items.filter((a) => (a.status as any)?.status === 'running').length;
        return started >= N / 6 && running < N;
      },
      'the rollout to be under way',
      { timeoutMs: 120_000, intervalMs: 50 },
    );
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    const second = await startController();
    const list = await eventually(
      async () => {
        const l = await apps.list({ namespace: ns });
        return l.items.filter((a) => (a.status as any)?.status === 'running').length === N ? l : undefined;
      },
      `all ${N} applications to be running after the restart`,
      { timeoutMs: Math.max(300_000, N * 2_000), intervalMs: 500 },
    );
    const uid = new Map(list.items.map((a) => [a.metadata!.name!, a.metadata!.uid!]));
    for (const kind of ['Deployment', 'Service']) {
      const c = await cluster.resource({ apiVersion: kind === 'Deployment' ? 'apps/v1' : 'v1', kind });
      const objects = (await c.list({ namespace: ns })).items;
      expect(objects.map((o) => o.metadata!.name).sort()).toEqual([...uid.keys()].sort());
      for (const o of objects) {
        const owner = (o.metadata!.ownerReferences ?? []).find((r) => r.controller);
        expect({ kind, name: o.metadata!.name, owner: owner?.uid }).toEqual({
          kind,
          name: o.metadata!.name,
          owner: uid.get(o.metadata!.name!),
        });
      }
    }
    expect(new Set(list.items.map((a) => (a.status as any).latestRevision?.revision))).toEqual(new Set([1]));
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  }, 900_000);
});
