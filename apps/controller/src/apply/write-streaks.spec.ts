import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { FakeClock, type KubeObject } from '#kube-core';
import { startServer, type RunningServer } from '#kube-server';
import { Client, InformerFactory, KubeTransport, ResourceClient, type ResourceKind } from '#runtime';
import { ANNOTATIONS } from '#api';
import { applyIntent } from './applier.js';
import type { Intent } from './intent.js';
import { WriteStreaks } from './write-streaks.js';

// Against the embedded API server: a field another party keeps reverting is
// written three times, then not again until the backoff (on a FakeClock) ends.
let server: RunningServer;
let dir: string;
let transport: KubeTransport;
let configMaps: ResourceKind;
let direct: ResourceClient;
let informers: InformerFactory;
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'write-streaks-'));
  server = await startServer({ port: 0, stateDir: dir });
  transport = new KubeTransport(server.kubeConfig, { registry: new Registry() });
  informers = new InformerFactory(transport, { idleStopMs: 0 });
  client = new Client(informers, 'oam-controller');
  configMaps = await informers.mapper.kindFor({ apiVersion: 'v1', kind: 'ConfigMap' });
  direct = new ResourceClient(transport, configMaps);
});

afterAll(async () => {
  await informers?.stop();
  transport?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const owner: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'owner', uid: 'owner-uid' },
};

function intent(name: string, hash: string, mode: string): Intent {
  return {
    kind: configMaps,
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default', annotations: { [ANNOTATIONS.appliedHash]: hash } },
      data: { mode },
    },
    handOver: [],
    owned: false,
    component: 'web',
  };
}

/** The writer under test, as the apply stage calls it: the live object read fresh, recorded as ours. */
async function reconcile(name: string, want: Intent, streaks: WriteStreaks) {
  const live = await direct.get('default', name).catch(() => undefined);
  const uids = new Set(live?.metadata?.uid ? [live.metadata.uid] : []);
  return applyIntent(client, want, live, owner, uids, undefined, streaks);
}

/** The other controller: puts its own value back. */
const revert = (name: string) =>
  direct.patch(
    'default',
    name,
    { data: { mode: 'reverted' } },
    { type: 'merge', fieldManager: 'other-controller' },
  );

describe('writes that do not stick', () => {
  it('stops after 3 writes with the field named, writes nothing until the backoff ends, then doubles it', async () => {
    const clock = new FakeClock();
    const streaks = new WriteStreaks(clock);
    const want = intent('fought', 'h1', 'on');
    for (let i = 1; i <= 3; i++) {
      expect((await reconcile('fought', want, streaks)).result).toBe('applied');
      await revert('fought');
    }
    const reverted = (await direct.get('default', 'fought')).metadata!.resourceVersion;
    const stopped = await reconcile('fought', want, streaks);
    expect(stopped).toMatchObject({ result: 'notPersisted', retryAtMs: clock.now() + 60_000 });
    expect(stopped.message).toMatch(
      /^ConfigMap "default\/fought": data\.mode does not persist \(3 writes did not stick\)/,
    );
    await clock.advance(59_000);
    expect((await reconcile('fought', want, streaks)).result).toBe('notPersisted');
    expect((await direct.get('default', 'fought')).metadata!.resourceVersion).toBe(reverted);
    // The backoff ends: one write; reverted again, the next backoff is twice as long.
    await clock.advance(1_000);
    expect((await reconcile('fought', want, streaks)).result).toBe('applied');
    await revert('fought');
    expect(await reconcile('fought', want, streaks)).toMatchObject({
      result: 'notPersisted',
      retryAtMs: clock.now() + 120_000,
    });
  });

  it('starts afresh for a new intent (a changed spec or definition)', async () => {
    const streaks = new WriteStreaks(new FakeClock());
    for (let i = 1; i <= 3; i++) {
      await reconcile('changed', intent('changed', 'h1', 'on'), streaks);
      await revert('changed');
    }
    expect((await reconcile('changed', intent('changed', 'h1', 'on'), streaks)).result).toBe('notPersisted');
    expect((await reconcile('changed', intent('changed', 'h2', 'on-v2'), streaks)).result).toBe('applied');
  });

  it('does not count a write the cache has not seen yet', async () => {
    const streaks = new WriteStreaks(new FakeClock());
    const lagging = await direct.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'stale', namespace: 'default' },
      data: { mode: 'off' },
    });
    // A cache that lags shows the version the last write was sent against, however often it is read.
    for (let i = 0; i < 5; i++) {
      const out = await applyIntent(
        client,
        intent('stale', 'h1', 'on'),
        lagging,
        owner,
        new Set([lagging.metadata!.uid!]),
        undefined,
        streaks,
      );
      expect(out.result).toBe('applied');
    }
  });
});
