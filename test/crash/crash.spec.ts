import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../support/build.js';
import { killHard, startServerChild, type ServerChild } from './child.js';
import { CrashClient } from './client.js';

/**
 * Durability: thousands of acknowledged ConfigMap writes, `kill -9` of the
 * server at a random moment, restart on the same state dir. Every
 * acknowledged write must be there with its data, nothing half-written, the
 * resourceVersion counter continues upward and the old kubeconfig still works.
 *
 * The server runs as a child process from the compiled dist/ (see
 * server-child.mjs); ensureBuilt() rebuilds it first so the test never runs stale code.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const NS = 'crash';
const WORKERS = 8;
const killAfterAcks = 2000 + Math.floor(Math.random() * 2000);

const digest = (name: string, v: number, payload: string) =>
  createHash('sha256').update(`${name}:${v}:${payload}`).digest('hex');

function content(name: string, v: number): Record<string, string> {
  const payload = `${name}-${v}-`.repeat(1 + ((v * 37 + name.length) % 60));
  return { v: String(v), payload, check: digest(name, v, payload) };
}

/** What the client knows: last acknowledged version per object, and the one in flight. */
interface Ledger {
  acked: Map<string, number>;
  inFlight: Map<string, number>;
  maxRv: bigint;
  acks: number;
}

async function writeUntilKilled(client: CrashClient, child: ServerChild, ledger: Ledger): Promise<void> {
  let killed = false;
  const path = `/api/v1/namespaces/${NS}/configmaps`;
  const worker = async (w: number) => {
    const mine: string[] = [];
    for (let n = 0; !killed; n++) {
      const update = mine.length > 0 && Math.random() < 0.5;
      const name = update ? mine[Math.floor(Math.random() * mine.length)] : `cm-${w}-${n}`;
      const v = update ? ledger.acked.get(name)! + 1 : 0;
      ledger.inFlight.set(name, v);
      let res;
      try {
        res = update
          ? await client.send(
              'PATCH',
              `${path}/${name}`,
              { data: content(name, v) },
              'application/merge-patch+json',
            )
          : await client.send('POST', path, {
              metadata: { name, labels: { crash: 'yes' } },
              data: content(name, v),
            });
      } catch (err) {
        if (killed) return;
        throw new Error(`write ${name} v${v} failed before the kill: ${String(err)}`, { cause: err });
      }
      if (res.status !== 200 && res.status !== 201)
        throw new Error(`write ${name} v${v}: ${res.status} ${JSON.stringify(res.body)}`);
      ledger.inFlight.delete(name);
      ledger.acked.set(name, v);
      if (!update) mine.push(name);
      const rv = BigInt(res.body.metadata.resourceVersion);
      if (rv > ledger.maxRv) ledger.maxRv = rv;
      if (++ledger.acks === killAfterAcks) {
        killed = true;
        await killHard(child);
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
}

let stateDir: string;
const children: ServerChild[] = [];

beforeAll(() => {
  ensureBuilt(root);
  stateDir = mkdtempSync(join(tmpdir(), 'oam-crash-'));
}, 300_000);

afterAll(async () => {
  for (const c of children) await killHard(c);
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

it('keeps every acknowledged write through kill -9 at a random moment', async () => {
  const first = await startServerChild(root, stateDir);
  children.push(first);
  const kubeconfigBefore = readFileSync(first.kubeconfigPath, 'utf8');
  const client = new CrashClient(kubeconfigBefore, first.url);
  const ns = await client.send('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  expect(ns.status).toBe(201);

  const ledger: Ledger = { acked: new Map(), inFlight: new Map(), maxRv: 0n, acks: 0 };
  await writeUntilKilled(client, first, ledger);
  client.close();
  expect(first.process.signalCode).toBe('SIGKILL');
  expect(ledger.acks).toBeGreaterThanOrEqual(killAfterAcks);

  const second = await startServerChild(root, stateDir);
  children.push(second);
  // The kubeconfig from before the crash (token, CA) works against the restarted server.
  const oldConfig = new CrashClient(kubeconfigBefore, second.url);
  const list = await oldConfig.send('GET', `/api/v1/namespaces/${NS}/configmaps?labelSelector=crash%3Dyes`);
  expect(list.status).toBe(200);
  expect(BigInt(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(ledger.maxRv);

  const stored = new Map<string, any>(list.body.items.map((i: any) => [i.metadata.name, i]));
  const problems: string[] = [];
  for (const [name, v] of ledger.acked) {
    const obj = stored.get(name);
    const pending = ledger.inFlight.get(name);
    if (!obj) problems.push(`${name}: acknowledged v${v} is missing`);
    else if (Number(obj.data?.v) !== v && Number(obj.data?.v) !== pending)
      problems.push(
        `${name}: stored v${obj.data?.v}, acknowledged v${v}${pending !== undefined ? ` (v${pending} in flight)` : ''}`,
      );
  }
  for (const [name, obj] of stored) {
    const v = Number(obj.data?.v);
    if (!ledger.acked.has(name) && !(ledger.inFlight.get(name) === 0 && v === 0))
      problems.push(`${name}: present but never written by the client`);
    if (obj.data?.check !== digest(name, v, obj.data?.payload ?? ''))
      problems.push(`${name}: half-written data (v${obj.data?.v})`);
  }
  // The kill point is part of the diff so that a failure can be reproduced.
  expect({ killAfterAcks, problems }).toEqual({ killAfterAcks, problems: [] });

  // The counter continues upward after the restart.
  const after = await oldConfig.send('POST', `/api/v1/namespaces/${NS}/configmaps`, {
    metadata: { name: 'after-restart' },
  });
  expect(after.status).toBe(201);
  expect(BigInt(after.body.metadata.resourceVersion)).toBeGreaterThan(ledger.maxRv);
  const kubeconfigAfter = new CrashClient(readFileSync(second.kubeconfigPath, 'utf8'), second.url);
  expect([kubeconfigAfter.token, kubeconfigAfter.ca]).toEqual([oldConfig.token, oldConfig.ca]);
  oldConfig.close();
  kubeconfigAfter.close();

  // A clean stop (SIGTERM) exits 0.
  const exited = new Promise<number | null>((r) => second.process.once('exit', (code) => r(code)));
  second.process.kill('SIGTERM');
  expect(await exited).toBe(0);
}, 120_000);
