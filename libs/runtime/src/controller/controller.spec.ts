import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { FakeClock } from '#kube-core';
import { advanceUntil } from '../../test/fake-time.js';
import { InformerFactory } from '../cache/informer-factory.js';
import { CONFIG_MAPS, type ResourceKind } from '../client/resource-kind.js';
import { KubeTransport } from '../client/transport.js';
import { memoryLogger } from '../log/logger.js';
import { LOW_PRIORITY } from '../workqueue/priority-fifo.js';
import { ItemExponentialFailureRateLimiter } from '../workqueue/rate-limiters.js';
import { BuilderError, ControllerBuilder, type ControllerHost } from './builder.js';
import { Controller } from './controller.js';
import { enqueueingHandler, requestForOwner } from './handlers.js';
import { generationChanged, labelChanged, matching } from './predicates.js';
import { TerminalError, type Reconciler, type Request } from './reconciler.js';

/** Every controller here runs on a fake clock: backoff, delays and timeouts are stepped through, never slept. */
let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock(0);
});
const until = (check: () => boolean, what: string): Promise<void> => advanceUntil(clock, check, what);

function controllerWith(
  reconciler: Reconciler,
  extra: Partial<ConstructorParameters<typeof Controller>[0]> = {},
) {
  const logger = memoryLogger();
  const registry = new Registry();
  const c = new Controller({
    name: 'test',
    reconciler,
    logger,
    registry,
    rateLimiter: new ItemExponentialFailureRateLimiter(5, 50),
    clock,
    ...extra,
  });
  return { c, logger, registry };
}

describe('Controller', () => {
  it('retries a thrown error with backoff and logs it with the key', async () => {
    const attempts: number[] = [];
    const { c, logger, registry } = controllerWith({
      reconcile: async () => {
        attempts.push(clock.now());
        if (attempts.length < 3) throw new Error('boom');
      },
    });
    c.start();
    c.enqueue({ namespace: 'ns', name: 'a' });
    await until(() => attempts.length === 3, 'three attempts');
    await c.stop();
    expect(attempts).toEqual([0, 5, 15]); // retried after 5 ms, then 10 ms, on the controller's clock
    const errors = logger.lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(2);
    expect(errors[0].fields).toMatchObject({ key: 'ns/a', controller: 'test' });
    expect(await registry.metrics()).toMatch(
      /controller_runtime_reconcile_errors_total\{controller="test"\} 2/,
    );
  });

  it('reconciles a change before a backlog of resyncs, and requeues each at the priority it was handed out at', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { c } = controllerWith({
      reconcile: async ({ name }) => {
        if (name === 'first') await gate; // holds the one worker while the rest is queued
        order.push(`${name}@${c.queue.priorityOf(`ns/${name}`)}`);
        if (name === 'r1' && !order.includes('r1 again')) {
          order.push('r1 again');
          return { requeueAfter: 10 };
        }
      },
    });
    c.start();
    c.enqueue({ namespace: 'ns', name: 'first' });
    await until(() => c.queue.processingCount() === 1, 'first handed out');
    for (const name of ['r1', 'r2', 'r3']) c.enqueue({ namespace: 'ns', name }, LOW_PRIORITY);
    c.enqueue({ namespace: 'ns', name: 'changed' });
    release();
    await until(() => order.length === 7, 'all reconciled, r1 again after its delay');
    await c.stop();
    expect(order).toEqual(['first@0', 'changed@0', 'r1@-100', 'r1 again', 'r2@-100', 'r3@-100', 'r1@-100']);
  });

  it('does not retry a TerminalError', async () => {
    let calls = 0;
    const { c, logger } = controllerWith({
      reconcile: async () => {
        calls++;
        throw new TerminalError('spec.type "nope" is not a known definition');
      },
    });
    c.start();
    c.enqueue({ namespace: 'ns', name: 'a' });
    await until(() => calls === 1, 'one attempt');
    // A retry would be due within the limiter's 50 ms cap: nothing is scheduled, and an hour later still one call.
    expect(c.queue.waitingCount()).toBe(0);
    expect(clock.pending).toBe(0);
    await clock.advance(3_600_000);
    await c.stop();
    expect(calls).toBe(1);
    expect(logger.lines.find((l) => l.level === 'error')!.msg).toMatch(/terminal/);
  });

  it('reconciles again after requeueAfter', async () => {
    const times: number[] = [];
    const { c } = controllerWith({
      reconcile: async () => {
        times.push(clock.now());
        return times.length === 1 ? { requeueAfter: 40 } : {};
      },
    });
    c.start();
    c.enqueue({ namespace: '', name: 'cluster-scoped' });
    await until(() => times.length === 1, 'first reconcile');
    await clock.advance(39);
    expect(times).toHaveLength(1);
    await clock.advance(1);
    expect(times).toEqual([0, 40]);
    await clock.advance(1000);
    await c.stop();
    expect(times).toHaveLength(2); // success does not requeue
  });

  it('never runs two reconciles of one key at once, with 4 workers and a storm of adds', async () => {
    const running = new Set<string>();
    let overlap = false;
    let total = 0;
    const { c } = controllerWith(
      {
        reconcile: async (r: Request) => {
          if (running.has(r.name)) overlap = true;
          running.add(r.name);
          await clock.sleep(Math.random() * 3);
          running.delete(r.name);
          total++;
        },
      },
      { workers: 4 },
    );
    c.start();
    for (let i = 0; i < 400; i++) {
      c.enqueue({ namespace: 'ns', name: `k${i % 7}` });
      if (i % 20 === 0) await clock.advance(1);
    }
    await until(() => c.queue.len() === 0 && c.queue.processingCount() === 0, 'queue to empty');
    await c.stop();
    expect(overlap).toBe(false);
    expect(total).toBeGreaterThanOrEqual(7);
  });

  it('aborts a reconcile that exceeds its timeout, counts it as failed and retries', async () => {
    const aborted: boolean[] = [];
    const { c, logger } = controllerWith(
      {
        reconcile: async (_r, { signal }) => {
          if (aborted.length === 0)
            await new Promise((res) => signal.addEventListener('abort', res, { once: true }));
          aborted.push(signal.aborted);
        },
      },
      { reconcileTimeoutMs: 30 },
    );
    c.start();
    c.enqueue({ namespace: 'ns', name: 'slow' });
    await until(() => aborted.length === 2, 'retry after timeout');
    await c.stop();
    expect(aborted).toEqual([true, false]);
    expect(
      logger.lines.some(
        (l) => /retrying/.test(l.msg) && String((l.fields.error as Error).message).includes('30 ms'),
      ),
    ).toBe(true);
  });

  it('reports a timed-out reconcile as a timeout even when it reacts to the abort by throwing', async () => {
    let calls = 0;
    const { c, logger } = controllerWith(
      {
        reconcile: async (_r, { signal }) => {
          if (++calls > 1) return;
          await new Promise((_res, rej) =>
            signal.addEventListener('abort', () => rej(signal.reason), { once: true }),
          );
        },
      },
      { reconcileTimeoutMs: 20 },
    );
    c.start();
    c.enqueue({ namespace: 'ns', name: 'slow' });
    await until(() => calls === 2, 'retry after timeout');
    await c.stop();
    const error = logger.lines.find((l) => l.level === 'error')!.fields.error as Error;
    expect(error.message).toBe('reconcile did not finish within 20 ms');
    expect(error.cause).toBeDefined();
  });

  it('uses client-go defaults for retries: 5 ms doubling per key, within 10 qps / burst 100 overall', async () => {
    const c = new Controller({ name: 'defaults', reconciler: { reconcile: async () => ({}) }, clock });
    const rl = c.queue.rateLimiter;
    expect([rl.when('k'), rl.when('k'), rl.when('k')]).toEqual([5, 10, 20]);
    for (let i = 0; i < 40; i++) rl.when('k');
    expect(rl.when('k')).toBe(1_000_000);
    // The bucket: the 'k' calls above took 44 of the 100 tokens; 56 more distinct keys pass at once, then ~100 ms each.
    for (let i = 0; i < 56; i++) expect(rl.when(`other-${i}`)).toBe(5);
    expect(rl.when('one-too-many')).toBeCloseTo(100); // no time passed on the controller's clock: no refill
    await c.stop();
  });

  it('stop lets the in-flight reconcile finish; stop({immediate}) aborts it', async () => {
    let finished = false;
    const { c } = controllerWith({
      reconcile: async () => {
        await clock.sleep(50);
        finished = true;
      },
    });
    c.start();
    c.enqueue({ namespace: 'ns', name: 'a' });
    await until(() => c.queue.processingCount() === 1, 'reconcile to start');
    let stopped = false;
    const stopping = c.stop().then(() => (stopped = true));
    await clock.advance(49);
    expect(stopped).toBe(false); // stop waits for the reconcile in flight
    expect(finished).toBe(false);
    await clock.advance(1);
    await stopping;
    expect(finished).toBe(true);

    let sawAbort = false;
    const second = controllerWith({
      reconcile: async (_r, { signal }) => {
        await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
        sawAbort = true;
      },
    }).c;
    second.start();
    second.enqueue({ namespace: 'ns', name: 'b' });
    await until(() => second.queue.processingCount() === 1, 'reconcile to start');
    await second.stop({ immediate: true });
    expect(sawAbort).toBe(true);
  });
});

describe('event handlers and predicates', () => {
  const APPS: ResourceKind = {
    group: 'core.oam.dev',
    version: 'v1beta1',
    plural: 'applications',
    kind: 'Application',
    namespaced: true,
  };
  const owned = (owner: string, controller = true) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'd',
      namespace: 'ns',
      ownerReferences: [
        { apiVersion: 'core.oam.dev/v1beta1', kind: 'Application', name: owner, uid: 'u', controller },
      ],
    },
  });

  it('owns() maps an object to its controlling owner, on update to both old and new owners', () => {
    const got: Request[] = [];
    const h = enqueueingHandler(requestForOwner(APPS), [], (r) => got.push(r));
    h.onAdd!(owned('app1'), false);
    h.onAdd!(owned('ignored', false), false);
    h.onUpdate!(owned('app1'), owned('app2'));
    expect(got).toEqual([
      { namespace: 'ns', name: 'app1' },
      { namespace: 'ns', name: 'app1' },
      { namespace: 'ns', name: 'app2' },
    ]);
  });

  it('an update that changed nothing (a resync) is enqueued at low priority, a real change at the default', () => {
    const got: [string, number][] = [];
    const h = enqueueingHandler(requestForOwner(APPS), [], (r, p) => got.push([r.name, p]));
    const at = (rv: string) => ({
      ...owned('app1'),
      metadata: { ...owned('app1').metadata, resourceVersion: rv },
    });
    h.onUpdate!(at('5'), at('5'));
    h.onUpdate!(at('5'), at('6'));
    h.onAdd!(at('6'), false);
    expect(got).toEqual([
      ['app1', LOW_PRIORITY],
      ['app1', LOW_PRIORITY],
      ['app1', 0],
      ['app1', 0],
      ['app1', 0],
    ]);
  });

  it('generationChanged, labelChanged and custom predicates filter updates', () => {
    const base = { metadata: { name: 'a', namespace: 'ns', generation: 1, labels: { x: '1' } } };
    const statusOnly = { metadata: { ...base.metadata, resourceVersion: '2' } };
    const specChange = { metadata: { ...base.metadata, generation: 2 } };
    const relabel = { metadata: { ...base.metadata, labels: { x: '2' } } };
    expect(generationChanged().update!(base, statusOnly)).toBe(false);
    expect(generationChanged().update!(base, specChange)).toBe(true);
    expect(labelChanged().update!(base, relabel)).toBe(true);
    expect(labelChanged().update!(base, specChange)).toBe(false);
    const onlyA = matching((o) => o.metadata?.name === 'a');
    expect(onlyA.create!(base)).toBe(true);
    expect(onlyA.create!({ metadata: { name: 'b' } })).toBe(false);
  });
});

describe('ControllerBuilder', () => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: false }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const host = (): ControllerHost & { added: Controller[] } => {
    const added: Controller[] = [];
    return {
      informers: new InformerFactory(new KubeTransport(kc)),
      addController: (c) => void added.push(c),
      added,
    };
  };
  const reconciler: Reconciler = { reconcile: async () => ({}) };
  const NODES: ResourceKind = { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false };

  it('reports a missing for(), a missing reconciler and bad options together', () => {
    const b = new ControllerBuilder(host()).named('x').owns(CONFIG_MAPS).withOptions({ workers: 0 });
    let err: unknown;
    try {
      b.build();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BuilderError);
    expect((err as BuilderError).problems).toEqual([
      'no primary kind: call .for(kind) once',
      'no reconciler: pass an object with reconcile(request, context) to build()',
      'workers must be a positive integer, got 0',
    ]);
  });

  it('rejects two for() calls, watches() without a map and namespaced owners of cluster-scoped kinds', () => {
    const b = new ControllerBuilder(host())
      .for(CONFIG_MAPS)
      .for(NODES)
      .watches(NODES, undefined as never);
    expect(() => b.build(reconciler)).toThrow(/\.for\(\) called 2 times[\s\S]*needs a map function/);
    expect(() => new ControllerBuilder(host()).for(CONFIG_MAPS).owns(NODES).build(reconciler)).toThrow(
      /cluster-scoped object cannot be owned/,
    );
  });

  it('wires no informer when the host refuses the controller', () => {
    const h = host();
    const refusing: ControllerHost = {
      informers: h.informers,
      addController: () => {
        throw new Error('controller "configmap" added after the manager started');
      },
    };
    expect(() => new ControllerBuilder(refusing).for(CONFIG_MAPS).build(reconciler)).toThrow(
      /after the manager started/,
    );
    expect(h.informers.list()).toEqual([]);
  });

  it('builds and registers a controller named after its kind', () => {
    const h = host();
    const c = new ControllerBuilder(h).for(CONFIG_MAPS).owns(CONFIG_MAPS).build(reconciler);
    expect(c.name).toBe('configmap');
    expect(h.added).toEqual([c]);
  });
});
