import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { eventually } from '#kube-core';
import { startServer, type RunningServer } from '../index.js';

/** A JSON document the assertions walk into. */
interface Json {
  [key: string]: Json;
}

const run = promisify(execFile);

/** Smoke test over real HTTPS: @kubernetes/client-node and the machine's kubectl against a server on a random port. */
describe('embedded API server', () => {
  let dir: string;
  let server: RunningServer;
  const kubectl = async (...args: string[]) => {
    const { stdout } = await run('kubectl', ['--kubeconfig', server.kubeconfigPath, ...args], {
      timeout: 20_000,
    });
    return stdout;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-server-'));
    server = await startServer({ port: 0, stateDir: dir });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS on loopback with a 0600 kubeconfig for context oam-local', () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(statSync(server.kubeconfigPath).mode & 0o777).toBe(0o600);
    expect(server.kubeConfig.getCurrentContext()).toBe('oam-local');
    expect(server.kubeConfig.getCurrentCluster()?.skipTLSVerify).toBeFalsy();
  });

  it('answers 401 in the Status format without the token', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}/api/v1/namespaces`, { ca: server.caCert }, (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('does CRUD, conflicts and watches through @kubernetes/client-node', async () => {
    const core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const apps = server.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const seen: string[] = [];
    const watch = new k8s.Watch(server.kubeConfig);
    const req = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      {},
      (type, obj) => seen.push(`${type} ${obj.metadata.name}`),
      () => undefined,
    );
    const cm = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { generateName: 'cm-' }, data: { a: '1' } },
    });
    const name = cm.metadata?.name as string;
    expect(name).toMatch(/^cm-[a-z0-9]{5}$/);
    expect(cm.metadata?.uid).toBeDefined();
    await core.replaceNamespacedConfigMap({ namespace: 'default', name, body: { ...cm, data: { a: '2' } } });
    await expect(
      core.replaceNamespacedConfigMap({ namespace: 'default', name, body: { ...cm, data: { a: '3' } } }),
    ).rejects.toMatchObject({ code: 409 });
    await core.deleteNamespacedConfigMap({ namespace: 'default', name });
    const deploy = await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
          },
        },
      },
    });
    expect([deploy.spec?.replicas, deploy.metadata?.generation]).toEqual([1, 1]);
    const scaled = await apps.replaceNamespacedDeploymentScale({
      namespace: 'default',
      name: 'web',
      body: { metadata: { name: 'web' }, spec: { replicas: 4 } },
    });
    expect(scaled.spec?.replicas).toBe(4);
    expect(
      (await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' })).metadata?.generation,
    ).toBe(2);
    await eventually(() => seen.length >= 3, 'three configmap events');
    req.abort();
    expect(seen).toEqual([`ADDED ${name}`, `MODIFIED ${name}`, `DELETED ${name}`]);
  });

  it('serves a CRD at once and its objects through CustomObjectsApi', async () => {
    const ext = server.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({
      body: {
        metadata: { name: 'gadgets.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              subresources: { status: {} },
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
                },
              },
            },
          ],
        },
      },
    });
    const custom = server.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const body = {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g1' },
      spec: { size: 2 },
      status: { ignored: true },
    };
    const created = (await custom.createNamespacedCustomObject({
      group: 'example.com',
      version: 'v1',
      namespace: 'default',
      plural: 'gadgets',
      body,
    })) as Json;
    expect(created.spec).toEqual({ size: 2 });
    expect(created.status).toBeUndefined();
    const list = (await custom.listNamespacedCustomObject({
      group: 'example.com',
      version: 'v1',
      namespace: 'default',
      plural: 'gadgets',
    })) as { items: Json[] };
    expect(list.items.map((i: Json) => i.metadata.name)).toEqual(['g1']);
  });

  it('works with kubectl: api-resources, apply (client- and server-side), get, get -w', async () => {
    expect(await kubectl('api-resources')).toMatch(/deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/);
    expect(await kubectl('api-resources')).toMatch(/gadgets\s+example\.com\/v1\s+true\s+Gadget/);
    const file = join(dir, 'cm.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  k: v\n');
    expect(await kubectl('apply', '-f', file)).toBe('configmap/applied created\n');
    expect(await kubectl('apply', '-f', file)).toBe('configmap/applied unchanged\n');
    const ssaFile = join(dir, 'ssa.yaml');
    writeFileSync(ssaFile, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  k: v\n');
    expect(await kubectl('apply', '--server-side', '-f', ssaFile)).toBe('configmap/ssa serverside-applied\n');
    expect(await kubectl('get', 'cm', 'ssa', '-o', 'jsonpath={.metadata.managedFields[0].manager}')).toBe(
      'kubectl',
    );
    // kubectl create sends protobuf bodies.
    expect(await kubectl('create', 'namespace', 'made-by-create')).toBe('namespace/made-by-create created\n');
    await kubectl('create', 'deployment', 'web2', '-n', 'made-by-create', '--image=nginx:1', '--replicas=0');
    expect(
      await kubectl(
        'get',
        'deploy',
        'web2',
        '-n',
        'made-by-create',
        '-o',
        'jsonpath={.spec.replicas} {.spec.strategy.type}',
      ),
    ).toBe('0 RollingUpdate');
    expect(await kubectl('get', 'cm', 'applied')).toMatch(/^NAME\s+DATA\s+AGE\napplied\s+1\s+\d+s\n$/);
    // kubectl get -w lists, prints, then watches from the list's resourceVersion: a change made once the
    // list is printed is delivered however late the watch request arrives.
    const child = spawn(
      'kubectl',
      ['--kubeconfig', server.kubeconfigPath, 'get', 'cm', '-w', '--request-timeout=5s'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exited = new Promise((r) => child.on('close', r));
    const appliedLines = () => out.split('\n').filter((l) => l.startsWith('applied')).length;
    try {
      await eventually(() => appliedLines() >= 1, 'kubectl get -w to print the list', 20_000);
      await kubectl('label', 'cm', 'applied', 'x=y');
      await eventually(() => appliedLines() >= 2, 'kubectl get -w to print the change', 20_000);
    } finally {
      child.kill();
      await exited;
    }
  });

  it('keeps acknowledged objects and continues resourceVersions after a restart', async () => {
    const before = await server.kubeConfig
      .makeApiClient(k8s.CoreV1Api)
      .listNamespacedConfigMap({ namespace: 'default' });
    await server.stop();
    server = await startServer({ port: 0, stateDir: dir });
    const core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const after = await core.listNamespacedConfigMap({ namespace: 'default' });
    expect(after.items.map((i) => i.metadata?.name)).toEqual(before.items.map((i) => i.metadata?.name));
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'later' } },
    });
    expect(Number(created.metadata?.resourceVersion)).toBeGreaterThan(
      Number(before.metadata?.resourceVersion),
    );
  });

  it('kubectl logs and exec say why a pod has neither: no container runs here', async () => {
    await kubectl('run', 'quiet', '--image=busybox:1', '--restart=Never');
    const failure = (args: string[]) =>
      run('kubectl', ['--kubeconfig', server.kubeconfigPath, ...args], { timeout: 20_000 }).then(
        () => '',
        (err: { stderr: string }) => err.stderr,
      );
    expect(await failure(['logs', 'quiet'])).toMatch(
      /^Error from server \(BadRequest\): pods "quiet" is simulated by oam-local: no containers run, so there are no logs$/m,
    );
    expect(await failure(['exec', 'quiet', '--', 'ls'])).toMatch(
      /pods "quiet" is simulated by oam-local: no containers run, so there is nothing to exec in/,
    );
  });
});
