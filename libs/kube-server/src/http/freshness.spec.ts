import { mkdtempSync, rmSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '#kube-core';
import { startServer, type RunningServer } from '../index.js';
import { FRESHNESS_WAIT_MS } from './watch-freshness.js';

/** A JSON document the assertions walk into. */
interface Json {
  [key: string]: Json;
}

/** Reads and watches at a resourceVersion the server has not reached: their wait is on the server's clock. */
let dir: string;
let server: RunningServer;
const clock = new FakeClock(Date.now());

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kube-fresh-'));
  server = await startServer({ port: 0, stateDir: dir, clock });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

function call(method: string, path: string, body?: object): Promise<{ status: number; text: string }> {
  const opts: RequestOptions = {
    method,
    ca: server.caCert,
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
  };
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, opts, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const currentRv = async () =>
  Number(JSON.parse((await call('GET', '/api/v1/namespaces')).text).metadata.resourceVersion);
const configMaps = '/api/v1/namespaces/default/configmaps';
const tooLarge = (rv: number, current: number) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `Timeout: Too large resource version: ${rv}, current: ${current}`,
  reason: 'Timeout',
  details: {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  },
  code: 504,
});

/** Starts `path`, lets the server reach its wait, and checks it has not answered one instant before the wait ends. */
async function answeredAfterTheWait(path: string): Promise<{ status: number; text: string }> {
  let answered = false;
  const pending = call('GET', path).finally(() => (answered = true));
  await clock.waitForTimers(1);
  await clock.advance(FRESHNESS_WAIT_MS - 1);
  expect(answered).toBe(false);
  await clock.advance(1);
  return pending;
}

describe('a get or list at a resourceVersion not reached yet', () => {
  it('is 504 Timeout "Too large resource version" once the wait is over', async () => {
    await call('POST', configMaps, { metadata: { name: 'read' } });
    const rv = (await currentRv()) + 1000;
    const res = await answeredAfterTheWait(`${configMaps}/read?resourceVersion=${rv}`);
    expect([res.status, JSON.parse(res.text)]).toEqual([504, tooLarge(rv, await currentRv())]);
  });

  it('answers as soon as a write reaches it', async () => {
    const rv = (await currentRv()) + 1;
    const listing = call('GET', `${configMaps}?resourceVersion=${rv}`);
    await clock.waitForTimers(1);
    await call('POST', configMaps, { metadata: { name: 'reached' } });
    const res = await listing;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).items.map((i: Json) => i.metadata.name)).toContain('reached');
    // The wait's timer went with the wait.
    expect(clock.pending).toBe(0);
  });
});

describe('a watch with sendInitialEvents from a resourceVersion not reached yet', () => {
  const initialEventsAt = (rv: number) =>
    `${configMaps}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion=${rv}`;

  it('answers one ERROR event, 504 Timeout "Too large resource version", once the wait is over', async () => {
    const rv = (await currentRv()) + 1000;
    const res = await answeredAfterTheWait(initialEventsAt(rv));
    expect(res.status).toBe(200);
    expect(lines(res.text)).toEqual([{ type: 'ERROR', object: tooLarge(rv, await currentRv()) }]);
  });

  it('sends the initial events as soon as a write reaches the resourceVersion', async () => {
    const rv = (await currentRv()) + 1;
    const watching = call('GET', initialEventsAt(rv));
    await clock.waitForTimers(1);
    await call('POST', configMaps, { metadata: { name: 'arrives' } });
    const events = lines((await watching).text);
    expect(events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`.trim())).toEqual([
      'ADDED arrives',
      'ADDED reached',
      'ADDED read',
      'BOOKMARK',
    ]);
    expect(events[3].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(Number(events[3].object.metadata.resourceVersion)).toBeGreaterThanOrEqual(rv);
    expect(clock.pending).toBe(0);
  });
});
