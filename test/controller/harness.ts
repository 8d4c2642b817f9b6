import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { startServer, type RunningServer } from '#kube-server';
import { workloadSimulator } from '#simulator';
import {
  CUSTOM_RESOURCE_DEFINITIONS,
  jsonLogger,
  KubeTransport,
  NAMESPACES,
  ResourceClient,
  RestMapper,
  silentLogger,
  type ResourceKind,
} from '#runtime';
import { startController, type ControllerOptions, type RunningController } from '#controller';

export const APPS: ResourceKind = {
  group: 'core.oam.dev',
  version: 'v1beta1',
  plural: 'applications',
  kind: 'Application',
  namespaced: true,
};

/**
 * The embedded API server over HTTPS with simulated workloads, the OAM CRDs
 * applied, and the controller started in-process against it.
 */
export class ControllerCluster {
  readonly mapper: RestMapper;
  readonly registry = new Registry();
  controller?: RunningController;
  private readonly clients = new Map<string, ResourceClient>();

  protected constructor(
    readonly server: RunningServer,
    private readonly dir: string,
    readonly transport: KubeTransport,
  ) {
    this.mapper = new RestMapper(transport);
  }

  static async start(): Promise<ControllerCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'oam-controller-e2e-'));
    const server = await startServer({
      port: 0,
      stateDir: dir,
      simulateWorkloads: true,
      simulation: { readyDelayMs: 30 },
      simulator: workloadSimulator,
    });
    const transport = new KubeTransport(server.kubeConfig, {
      qps: 500,
      burst: 500,
      registry: new Registry(),
    });
    const cluster = new ControllerCluster(server, dir, transport);
    await cluster.installCrds();
    return cluster;
  }

  get kubeConfig(): KubeConfig {
    return this.server.kubeConfig;
  }

  async startController(options: Partial<ControllerOptions> = {}): Promise<RunningController> {
    this.controller = await startController({
      kubeConfig: this.kubeConfig,
      // OAM_E2E_LOG=1 shows the controller's JSON logs on stderr when a test needs explaining.
      logger: process.env.OAM_E2E_LOG ? jsonLogger({ level: 'debug' }) : silentLogger,
      registry: this.registry,
      workers: 4,
      qps: 500,
      burst: 500,
      ...options,
    });
    return this.controller;
  }

  async stop(): Promise<void> {
    await this.controller?.stop();
    this.transport.close();
    await this.server.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  async resource(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): Promise<ResourceClient> {
    const kind = await this.mapper.kindFor(obj);
    const id = `${obj.apiVersion}/${obj.kind}`;
    let c = this.clients.get(id);
    if (!c) this.clients.set(id, (c = new ResourceClient(this.transport, kind)));
    return c;
  }

  async get(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): Promise<KubeObject | undefined> {
    const c = await this.resource({ apiVersion, kind });
    return c.get(namespace, name).catch((err: { code?: number }) => {
      if (err.code === 404) return undefined;
      throw err;
    });
  }

  async namespace(prefix: string): Promise<string> {
    const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
    await new ResourceClient(this.transport, NAMESPACES).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
    return name;
  }

  /** Creates or replaces (server-side apply as a test user) an Application. */
  async applyApp(app: KubeObject): Promise<KubeObject> {
    const c = await this.resource(app);
    return c.apply(app, { fieldManager: 'e2e-user', force: true });
  }

  /** Creates or replaces (server-side apply as `manager`) any object: a Component, a Trait. */
  async applyObject(obj: KubeObject, manager = 'e2e-user'): Promise<KubeObject> {
    const c = await this.resource(obj);
    return c.apply(obj, { fieldManager: manager, force: true });
  }

  async deleteObject(obj: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>): Promise<void> {
    const c = await this.resource(obj);
    await c.delete(obj.metadata!.namespace, obj.metadata!.name!);
  }

  /** Waits for an OAM object's (Component, Trait) status to satisfy `check`, then returns the object. */
  async oamStatus(
    kind: 'Application' | 'Component' | 'Trait',
    namespace: string,
    name: string,
    check: (status: Record<string, any>, obj: KubeObject) => boolean,
    what: string,
  ): Promise<KubeObject> {
    return eventually(async () => {
      const obj = await this.get('core.oam.dev/v1beta1', kind, namespace, name);
      const status = obj?.status as Record<string, any> | undefined;
      return obj && status && check(status, obj) ? obj : undefined;
    }, what);
  }

  async app(namespace: string, name: string): Promise<KubeObject | undefined> {
    return this.get('core.oam.dev/v1beta1', 'Application', namespace, name);
  }

  /** Waits for the Application's status to satisfy `check`, then returns the Application. */
  async appStatus(
    namespace: string,
    name: string,
    check: (status: Record<string, any>, app: KubeObject) => boolean,
    what: string,
  ): Promise<KubeObject> {
    return eventually(async () => {
      const app = await this.app(namespace, name);
      const status = app?.status as Record<string, any> | undefined;
      return app && status && check(status, app) ? app : undefined;
    }, what);
  }

  private async installCrds(): Promise<void> {
    const crds = new ResourceClient<KubeObject>(this.transport, CUSTOM_RESOURCE_DEFINITIONS);
    const dir = join(projectRoot(), 'deploy', 'crds');
    for (const file of readdirSync(dir).sort()) {
      for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
        const obj = doc.toJS() as KubeObject | null;
        if (obj) await crds.create(obj);
      }
    }
    await eventually(
      () => this.mapper.kindFor({ apiVersion: 'core.oam.dev/v1beta1', kind: 'Application' }).then(() => true),
      'the OAM CRDs to be served',
    );
  }
}

/** The hello example (examples/hello/app.yaml) in another namespace. */
export function helloApp(namespace: string, name = 'hello'): KubeObject {
  const text = readFileSync(join(projectRoot(), 'examples', 'hello', 'app.yaml'), 'utf8');
  const app = parseAllDocuments(text)[0].toJS() as KubeObject;
  app.metadata = { ...app.metadata, name, namespace };
  return app;
}

/** Deep-copied spec editing for a test: `edit(app, (s) => { s.components[0]... })`. */
export function edit(app: KubeObject, change: (spec: Record<string, any>) => void): KubeObject {
  const copy = structuredClone(app) as KubeObject;
  change(copy.spec as Record<string, any>);
  return copy;
}

/**
 * Waits until the wall clock is past the second `obj` was created in
 * (creationTimestamp has one-second resolution), so an object created next is
 * strictly younger: tests of "the older wins" must not fall back on names.
 */
export async function afterCreationSecond(obj: KubeObject): Promise<void> {
  const created = Date.parse(obj.metadata!.creationTimestamp!);
  await eventually(
    () => Date.now() >= created + 1000,
    `the clock to pass ${obj.metadata!.creationTimestamp}`,
  );
}

/** A condition of an OAM object's status, by type. */
export function condition(
  status: Record<string, any> | undefined,
  type: string,
): { status: string; reason?: string; message?: string } | undefined {
  return (status?.conditions as { type: string; status: string }[] | undefined)?.find((c) => c.type === type);
}

/** A developer's standalone webservice Component. */
export function webComponent(namespace: string, name: string, image = 'crccheck/hello-world'): KubeObject {
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Component',
    metadata: { name, namespace },
    spec: { type: 'webservice', properties: { image, ports: [{ port: 8000, expose: true }] } },
  };
}

/** An operator's standalone Trait. */
export function trait(
  namespace: string,
  name: string,
  type: string,
  target: { component: string; application?: string },
  properties: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Trait',
    metadata: { name, namespace },
    spec: { type, target, properties },
  };
}
