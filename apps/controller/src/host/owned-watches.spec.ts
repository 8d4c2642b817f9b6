import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { eventually, type KubeObject } from '#kube-core';
import { startServer, type RunningServer } from '#kube-server';
import {
  InformerFactory,
  KubeTransport,
  ResourceClient,
  type Request,
  type ResourceKind,
  type SharedInformer,
} from '#runtime';
import { OwnedWatches } from './owned-watches.js';

// Against the embedded API server: which kinds are watched follows what the applications render.
let server: RunningServer;
let dir: string;
let transport: KubeTransport;
let informers: InformerFactory;
let apps: SharedInformer;
const enqueued: (Request & { owner?: string })[] = [];
let watches: OwnedWatches;

const kind = (apiVersion: string, k: string) => informers.mapper.kindFor({ apiVersion, kind: k });
const app = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owned-watches-'));
  server = await startServer({ port: 0, stateDir: dir });
  transport = new KubeTransport(server.kubeConfig, { registry: new Registry() });
  informers = new InformerFactory(transport, { idleStopMs: 0 });
  // ConfigMaps stand in for Applications: deleting one is an Application gone.
  apps = informers.informerFor(await kind('v1', 'ConfigMap'));
  watches = new OwnedWatches(informers, apps, (r, owner) => enqueued.push({ ...r, owner }));
  informers.start();
  await informers.waitForCacheSync(30_000);
});

afterAll(async () => {
  await informers?.stop();
  transport?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('OwnedWatches', () => {
  let deployments: ResourceKind;
  let services: ResourceKind;
  let hpas: ResourceKind;
  beforeAll(async () => {
    deployments = await kind('apps/v1', 'Deployment');
    services = await kind('v1', 'Service');
    hpas = await kind('autoscaling/v2', 'HorizontalPodAutoscaler');
  });

  it('watches what some application renders and stops a kind none renders any more', async () => {
    const running = () => informers.list().map((i) => i.name);
    watches.keep(app('a'), [deployments, services, hpas]);
    watches.keep(app('b'), [deployments, services]);
    expect(watches.watched()).toEqual([
      'deployments.apps/v1',
      'horizontalpodautoscalers.autoscaling/v2',
      'services/v1',
    ]);
    expect(running()).toContain('horizontalpodautoscalers.autoscaling/v2');

    // a drops its HPA trait: nobody renders HPAs, their informer stops.
    watches.keep(app('a'), [deployments, services]);
    expect(watches.watched()).toEqual(['deployments.apps/v1', 'services/v1']);
    expect(running()).not.toContain('horizontalpodautoscalers.autoscaling/v2');

    // b renders Services no more, a still does: still watched.
    watches.keep(app('b'), [deployments]);
    expect(running()).toContain('services/v1');
  });

  it('a labelled object of a watched kind enqueues its application', async () => {
    watches.keep(app('c'), [services]);
    const svc = new ResourceClient(transport, services);
    await svc.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'web',
        namespace: 'default',
        labels: { 'app.oam.dev/name': 'c', 'app.oam.dev/namespace': 'default' },
      },
      spec: { ports: [{ port: 80 }] },
    });
    await eventually(
      () => enqueued.some((r) => r.name === 'c' && r.namespace === 'default'),
      'the application enqueued',
    );
    expect(enqueued.find((r) => r.name === 'c')?.owner).toBeUndefined(); // no owner: any owner kind's
  });

  it('names the kind of the object’s controller owner, so only its reconciler is queued', async () => {
    watches.keep(app('d'), [services]);
    const svc = new ResourceClient(transport, services);
    const owned = (name: string, ownerKind: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name,
        namespace: 'default',
        labels: { 'app.oam.dev/name': 'd', 'app.oam.dev/namespace': 'default' },
        ownerReferences: [
          {
            apiVersion: 'core.oam.dev/v1beta1',
            kind: ownerKind,
            name: 'd',
            uid: `uid-${name}`,
            controller: true,
          },
        ],
      },
      spec: { ports: [{ port: 80 }] },
    });
    await svc.create(owned('by-app', 'Application'));
    await svc.create(owned('by-component', 'Component'));
    const owners = await eventually(() => {
      const kinds = new Set(enqueued.filter((r) => r.name === 'd').map((r) => r.owner));
      return kinds.size === 2 ? [...kinds].sort() : undefined;
    }, 'both Services seen');
    expect(owners).toEqual(['Application', 'Component']);
  });

  it('says whether an object’s changes reach an owner (if not, the owner has to look again itself)', () => {
    const owner = (kind: string, name: string): KubeObject => ({
      apiVersion: 'core.oam.dev/v1beta1',
      kind,
      metadata: { name, namespace: 'default' },
    });
    const object = (labels?: Record<string, string>, controller?: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'web',
        namespace: 'other',
        labels,
        ...(controller
          ? {
              ownerReferences: [
                { apiVersion: 'x/v1', kind: controller, name: 'o', uid: 'u', controller: true },
              ],
            }
          : {}),
      },
    });
    const mine = { 'app.oam.dev/name': 'e', 'app.oam.dev/namespace': 'default' };
    expect(watches.reaches(object(mine), owner('Application', 'e'))).toBe(true);
    expect(watches.reaches(object(mine, 'ReplicaSet'), owner('Application', 'e'))).toBe(true);
    expect(watches.reaches(object(mine), owner('Application', 'f'))).toBe(false);
    expect(watches.reaches(object(), owner('Application', 'e'))).toBe(false); // someone else's object
    expect(watches.reaches(object(mine, 'Component'), owner('Application', 'e'))).toBe(false);
    expect(watches.reaches(object(mine, 'Component'), owner('Component', 'e'))).toBe(true);
  });

  it('releases the kinds of an application that is gone', async () => {
    const configMaps = new ResourceClient(transport, await kind('v1', 'ConfigMap'));
    await configMaps.create(app('only'));
    await eventually(() => apps.indexer.get('default', 'only') !== undefined, 'the app in the cache');
    for (const name of ['a', 'b', 'c', 'd']) watches.keep(app(name), []);
    const jobs = await kind('batch/v1', 'Job');
    watches.keep(app('only'), [jobs]);
    expect(informers.list().map((i) => i.name)).toContain('jobs.batch/v1');

    await configMaps.delete('default', 'only');
    await eventually(() => watches.watched().length === 0, 'the Job watch released');
    expect(informers.list().map((i) => i.name)).not.toContain('jobs.batch/v1');
  });
});
