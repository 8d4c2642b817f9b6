import { eventually, type KubeObject } from '#kube-core';
import type { KubeTransport, WatchEvent } from '#runtime';
import { ControllerCluster, edit, helloApp } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  // No heartbeat during the test: it is the controller's only write by design when nothing changes.
  // Informers resync every 300 ms: every cached object is handed to the handlers again.
  await cluster.startController({ heartbeatIntervalMs: 3_600_000, resyncPeriodMs: 300 });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

async function counter(
  name: string,
  labels: (l: Partial<Record<string, string | number>>) => boolean,
): Promise<number> {
  const metric = await cluster.registry.getSingleMetric(name)?.get();
  return (metric?.values ?? []).filter((v) => labels(v.labels)).reduce((sum, v) => sum + v.value, 0);
}
const WRITES = new Set(['create', 'update', 'patch', 'delete']);
const writes = () => counter('rest_client_requests_total', (l) => WRITES.has(String(l.verb)));
const reconciles = () =>
  counter(
    'controller_runtime_reconcile_total',
    (l) => l.controller === 'application' && l.result !== 'error',
  );

type RequestSpec = Parameters<KubeTransport['request']>[0];

/** Runs `after` once each request of the controller has been answered; returns the undo. */
function afterEachRequest(after: (spec: RequestSpec) => Promise<unknown> | void): () => void {
  const transport = cluster.controller!.manager.transport;
  const request = transport.request;
  transport.request = async function <T>(spec: RequestSpec): Promise<T> {
    const out = await request.call(transport, spec);
    await after(spec);
    return out as T;
  };
  return () => void (transport.request = request);
}

describe('the controller at rest and under rapid change', () => {
  it('a change to an Application’s Deployment queues the application controller, not the component one', async () => {
    const ns = await cluster.namespace('owner');
    await cluster.applyApp(helloApp(ns));
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'hello to run');
    const adds = (queue: string) => counter('workqueue_adds_total', (l) => l.name === queue);
    const before = { application: await adds('application'), component: await adds('component') };
    const deployments = await cluster.resource({ apiVersion: 'apps/v1', kind: 'Deployment' });
    await deployments.patch(
      ns,
      'hello-web',
      { metadata: { labels: { 'example.com/touched': 'yes' } } },
      { type: 'merge', fieldManager: 'someone-else' },
    );
    // The same event enqueues both controllers or only the owner's: once the application's queue moved, it was seen.
    await eventually(
      async () => (await adds('application')) > before.application,
      'the application controller to be queued',
    );
    expect(await adds('component')).toBe(before.component);
  });

  it('50 rapid updates, A→B→A included, delete nothing the specs all want and converge on the newest', async () => {
    const ns = await cluster.namespace('rapid');
    const deleted: string[] = [];
    const abort = new AbortController();
    const watches = await Promise.all(
      [
        { apiVersion: 'apps/v1', kind: 'Deployment' },
        { apiVersion: 'v1', kind: 'Service' },
        { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' },
      ].map(async (k) => {
        const c = await cluster.resource(k);
        // Wrapped: an async function returning the watch's promise would wait for the watch to end.
        const done = c
          .watch({ namespace: ns, signal: abort.signal }, (e: WatchEvent<KubeObject>) => {
            if (e.type === 'DELETED') deleted.push(`${e.object.kind}/${e.object.metadata?.name}`);
          })
          .catch(() => undefined);
        return { done };
      }),
    );
    // A has a gateway named "a", B one named "b": each spec wants the Deployment, the Service and
    // its own Ingress. Updates alternate A, B, A, ... with a new image each time, ending on A.
    const spec = (i: number) =>
      edit(helloApp(ns), (s) => {
        s.components[0].properties.image = `crccheck/hello-world:v${i}`;
        const name = i % 2 === 0 ? 'a' : 'b';
        s.components[0].traits.push({ type: 'gateway', properties: { name, http: { '/': 8000 } } });
      });
    for (let i = 0; i < 50; i++) await cluster.applyApp(spec(i === 49 ? 50 : i));
    const app = await cluster.appStatus(
      ns,
      'hello',
      (s, a) => s.status === 'running' && s.observedGeneration === a.metadata?.generation,
      'the newest spec to be running',
    );
    expect(app.metadata?.generation).toBe(50);
    // Up to a minute: once, on the real control plane in a full run, the prune took over 30 s.
    // The message then shows how the Ingress stood (a deletionTimestamp? finalizers?).
    let left: unknown;
    await eventually(
      async () => {
        left = await cluster.get('networking.k8s.io/v1', 'Ingress', ns, 'hello-web-b');
        return left === undefined;
      },
      'the Ingress only B wanted to be pruned',
      { timeoutMs: 60_000 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the Ingress: ${JSON.stringify((left as any)?.metadata)}`);
    });
    const ingressA = await cluster.get('networking.k8s.io/v1', 'Ingress', ns, 'hello-web-a');
    expect(ingressA).toBeDefined();
    const deployment = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect((deployment?.spec as any).template.spec.containers[0].image).toBe('crccheck/hello-world:v50');
    const applied = ((app.status as any).appliedResources as any[]).map((r) => `${r.kind}/${r.name}`).sort();
    expect(applied).toEqual(
      expect.arrayContaining(['Deployment/hello-web', 'Ingress/hello-web-a', 'Service/hello-web']),
    );
    abort.abort();
    await Promise.all(watches.map((w) => w.done));
    // Wanted by every spec: never deleted, not even for a moment.
    expect(deleted.filter((d) => d === 'Deployment/hello-web' || d === 'Service/hello-web')).toEqual([]);
  }, 180_000);

  it('an edit landing between the create of an object and the status write leaves no orphan', async () => {
    const ns = await cluster.namespace('between');
    const withGateway = (name: string, image: string) =>
      edit(helloApp(ns), (s) => {
        s.components[0].properties.image = image;
        s.components[0].traits.push({ type: 'gateway', properties: { name, http: { '/': 8000 } } });
      });
    await cluster.applyApp(withGateway('a', 'crccheck/hello-world:v1'));
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'the app with gateway a to run');
    // The user moves from gateway a to b and, just after the controller created b's Ingress and
    // before it wrote the status, back to a: that status write is a 409 Conflict.
    let edited: Promise<unknown> | undefined;
    const undo = afterEachRequest((spec) => {
      const ingressB = `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses/hello-web-b`;
      if (!edited && spec.verb === 'patch' && spec.path === ingressB)
        return (edited = cluster.applyApp(withGateway('a', 'crccheck/hello-world:v3')));
    });
    try {
      await cluster.applyApp(withGateway('b', 'crccheck/hello-world:v2'));
      await eventually(async () => edited !== undefined, "the controller to create b's Ingress");
    } finally {
      undo();
    }
    await cluster.appStatus(
      ns,
      'hello',
      (s, a) => s.status === 'running' && s.observedGeneration === a.metadata?.generation,
      'the newest spec to be running',
    );
    await eventually(
      async () => (await cluster.get('networking.k8s.io/v1', 'Ingress', ns, 'hello-web-b')) === undefined,
      "b's Ingress, created but never in a written status, to be pruned",
    );
  });

  it('a resync with nothing changed makes no write', async () => {
    // Every write the controller sends, so a failure names them (the metric has verb and code only).
    const sent: string[] = [];
    afterEachRequest((spec) => {
      if (WRITES.has(spec.verb)) sent.push(`${spec.verb} ${spec.path} ${JSON.stringify(spec.body)}`);
    });
    const namespaces = await Promise.all([1, 2, 3].map((i) => cluster.namespace(`rest${i}`)));
    for (const ns of namespaces) await cluster.applyApp(helloApp(ns));
    for (const ns of namespaces)
      await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', `hello in ${ns} to be running`);
    // Resyncs until everything settled (two in a row with no write), then the one that is measured.
    const resync = async () => {
      const before = await reconciles();
      await eventually(
        async () => (await reconciles()) >= before + namespaces.length,
        'a resync of every app',
      );
    };
    await eventually(async () => {
      const w = await writes();
      await resync();
      return (await writes()) === w;
    }, 'the apps to settle');
    const before = await writes();
    const mark = sent.length;
    await resync();
    expect({ writes: (await writes()) - before, sent: sent.slice(mark) }).toEqual({ writes: 0, sent: [] });
  });
});
