import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import type { KubeObject } from '#kube-core';
import { startServer, type RunningServer } from '#kube-server';
import {
  Client,
  InformerFactory,
  KubeApiError,
  KubeTransport,
  ResourceClient,
  RestMapper,
  silentLogger,
  type ResourceKind,
} from '#runtime';
import { LiveObjects } from './apply/live.js';
import { FINALIZER } from '#api';
import { deleteApplied } from './load/delete-applied.js';

// Catches mean what they say, against the embedded API server: a kind not served is
// "not there", a discovery outage is retried, and a bug (a TypeError) surfaces.
let server: RunningServer;
let dir: string;
let transport: KubeTransport;
let informers: InformerFactory;
let client: Client;
let configMaps: ResourceKind;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'controller-errors-'));
  server = await startServer({ port: 0, stateDir: dir });
  transport = new KubeTransport(server.kubeConfig, { registry: new Registry() });
  informers = new InformerFactory(transport, { idleStopMs: 0 });
  client = new Client(informers, 'oam-controller');
  configMaps = await informers.mapper.kindFor({ apiVersion: 'v1', kind: 'ConfigMap' });
});

afterAll(async () => {
  await informers?.stop();
  transport?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A mapper whose discovery cannot reach any server. */
function unreachableMapper(): { mapper: RestMapper; close(): void } {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'gone', server: 'https://127.0.0.1:9', skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'gone', cluster: 'gone', user: 'u' }],
    currentContext: 'gone',
  });
  const t = new KubeTransport(kc, { registry: new Registry() });
  return { mapper: new RestMapper(t), close: () => t.close() };
}

/** An owner (a ConfigMap standing in for an Application) with the cleanup finalizer, recording one object. */
async function owner(name: string, recorded: { apiVersion: string; kind: string }): Promise<KubeObject> {
  const created = await new ResourceClient(transport, configMaps).create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', finalizers: [FINALIZER] },
  });
  // A ConfigMap keeps no status: the record is the one the cache would show an Application with.
  const record = { ...recorded, namespace: 'default', name: 'x', uid: 'u1', component: 'c' };
  return { ...created, status: { appliedResources: [record] } };
}

describe('LiveObjects.read', () => {
  it('reads a kind the server does not serve as failed, and lets a TypeError through', async () => {
    const live = new LiveObjects({ client, mapper: informers.mapper });
    const unserved = {
      apiVersion: 'example.com/v1',
      kind: 'Nothing',
      metadata: { name: 'x', namespace: 'default' },
    };
    expect(await live.read(unserved)).toEqual({ failed: true });
    // A rendered object without metadata is a bug in the caller, not an object that "does not exist yet".
    await expect(live.read({ apiVersion: 'v1', kind: 'ConfigMap' })).rejects.toBeInstanceOf(TypeError);
  });

  it('reads an unreachable API server as failed', async () => {
    const gone = unreachableMapper();
    try {
      const live = new LiveObjects({ client, mapper: gone.mapper });
      expect(await live.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } })).toEqual({
        failed: true,
      });
    } finally {
      gone.close();
    }
  });
});

describe('deleteApplied', () => {
  it('takes a recorded object of a kind no longer served as gone, and removes the finalizer', async () => {
    const app = await owner('unserved', { apiVersion: 'example.com/v1', kind: 'Nothing' });
    const result = await deleteApplied(
      { client, mapper: informers.mapper },
      configMaps,
      app,
      silentLogger,
      () => true,
    );
    expect(result).toBeUndefined();
    const after = await new ResourceClient(transport, configMaps).get('default', 'unserved');
    expect(after.metadata?.finalizers ?? []).toEqual([]);
  });

  it('does not read a discovery outage as "not served": it throws (the queue retries) and the finalizer stays', async () => {
    const app = await owner('outage', { apiVersion: 'apps/v1', kind: 'Deployment' });
    const gone = unreachableMapper();
    try {
      await expect(
        deleteApplied({ client, mapper: gone.mapper }, configMaps, app, silentLogger, () => true),
      ).rejects.toBeInstanceOf(KubeApiError);
    } finally {
      gone.close();
    }
    const after = await new ResourceClient(transport, configMaps).get('default', 'outage');
    expect(after.metadata?.finalizers).toEqual([FINALIZER]);
  });
});
