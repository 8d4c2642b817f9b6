import * as k8s from '@kubernetes/client-node';
import { eventually as coreEventually } from '#kube-core';
import { RawClient } from './http.js';

/**
 * Where the conformance suite runs. With CONFORMANCE_KUBECONFIG set, against
 * that cluster (a real kube-apiserver, test/real-cluster/): every spec works in namespaces
 * it creates and deletes afterwards. Otherwise against the embedded server,
 * started in a temp dir for each spec file.
 */
export interface Target {
  kind: 'embedded' | 'real';
  kc: k8s.KubeConfig;
  http: RawClient;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  custom: k8s.CustomObjectsApi;
  ext: k8s.ApiextensionsV1Api;
  objects: k8s.KubernetesObjectApi;
  /** Creates a namespace with a unique name (deleted after the spec file on a real server). */
  namespace(prefix?: string): Promise<string>;
  /** A name unique to this run, for cluster-scoped objects (CRD groups, namespaces). */
  unique(prefix: string): string;
  /** Registers a cleanup to run after the spec file, before the server stops (cluster-scoped objects). */
  defer(cleanup: () => Promise<void>): void;
}

export interface TargetOptions {
  /** Embedded only: how many changes the server keeps for watches (to force 410 Gone). */
  historyWindow?: number;
}

const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
let counter = 0;

export function isRealServer(): boolean {
  return Boolean(process.env.CONFORMANCE_KUBECONFIG);
}

/** Registers beforeAll/afterAll for the spec file and returns an accessor to its target. */
export function useTarget(options: TargetOptions = {}): () => Target {
  let target: Target | undefined;
  let stop: (() => Promise<void>) | undefined;
  const namespaces: string[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    let kc: k8s.KubeConfig;
    const kubeconfig = process.env.CONFORMANCE_KUBECONFIG;
    if (kubeconfig) {
      kc = new k8s.KubeConfig();
      kc.loadFromFile(kubeconfig);
    } else {
      const { startEmbedded } = await import('./embedded.js');
      const embedded = await startEmbedded(options.historyWindow);
      kc = embedded.kc;
      stop = embedded.stop;
    }
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const unique = (prefix: string) => `${prefix}-${runId}-${(counter++).toString(36)}`;
    target = {
      kind: kubeconfig ? 'real' : 'embedded',
      kc,
      http: new RawClient(kc),
      core,
      apps: kc.makeApiClient(k8s.AppsV1Api),
      custom: kc.makeApiClient(k8s.CustomObjectsApi),
      ext: kc.makeApiClient(k8s.ApiextensionsV1Api),
      objects: k8s.KubernetesObjectApi.makeApiClient(kc),
      unique,
      defer: (cleanup) => cleanups.push(cleanup),
      namespace: async (prefix = 'conf') => {
        const name = unique(prefix);
        await core.createNamespace({ body: { metadata: { name } } });
        namespaces.push(name);
        return name;
      },
    };
  }, 60_000);

  afterAll(async () => {
    const failures: string[] = [];
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((err: unknown) => failures.push(String(err)));
    }
    if (stop) {
      await stop();
      if (failures.length) throw new Error(`cleanup failed: ${failures.join('; ')}`);
      return;
    }
    // A real cluster outlives the suite: remove what this spec file created.
    for (const name of namespaces) {
      await target!.core.deleteNamespace({ name }).catch((err: unknown) => {
        if (!String(err).includes('404')) failures.push(`namespace ${name}: ${String(err)}`);
      });
    }
    if (failures.length) throw new Error(`cleanup failed: ${failures.join('; ')}`);
  }, 60_000);

  return () => {
    if (!target) throw new Error('target used outside a test (beforeAll has not run)');
    return target;
  };
}

/**
 * kube-core's `eventually` (fails with the last value or error seen), polling every 100 ms to be
 * gentle on a real API server. The timeout only bounds a failure.
 */
export function eventually<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  return coreEventually(check, what, { timeoutMs, intervalMs: 100 });
}

/** The HTTP status of an error thrown by @kubernetes/client-node (ApiException.code). */
export function errorCode(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}

/** Runs `fn`, expects it to fail with an ApiException, and returns its code and parsed Status body. */
export async function expectApiError(fn: () => Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await fn();
  } catch (err) {
    const e = err as { code?: number; body?: unknown };
    if (typeof e.code !== 'number') throw err;
    const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
    return { code: e.code, body };
  }
  throw new Error('expected the API call to fail, it succeeded');
}
