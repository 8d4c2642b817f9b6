import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { realClock, type Clock } from '#kube-core';
import { authenticate, loadOrCreateToken } from './auth.js';
import { controllerContext, type ServerController } from '../controllers/in-process.js';
import type { Core, Logger } from '../core.js';
import { CrdManager } from '../resources/crds.js';
import type { ResourceInfo } from '../resources/builtin.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from '../discovery/discovery.js';
import { ApiError } from '../errors.js';
import { handleResource, type ResourceContext } from '../http/handlers/resource.js';
import { sendError, sendJson } from '../http/messages.js';
import { writeKubeconfig } from './kubeconfig.js';
import { ObjectService } from '../objects/service.js';
import {
  OPENAPI_V2_PROTOBUF,
  openApiV2Document,
  openApiV2Protobuf,
  openApiV3Document,
  openApiV3Root,
  acceptsJson,
  wantsOpenApiV2Protobuf,
} from '../discovery/openapi.js';
import { Registry } from '../resources/registry.js';
import { route } from '../http/router.js';
import { Store } from '../store/store.js';
import { loadOrCreateTls, servingSans } from './tls.js';
import { WatchHub } from '../http/watch.js';
import { workloadSimulator, type SimulatorOptions } from '../simulator/index.js';

export interface ServerOptions {
  host?: string;
  port?: number;
  stateDir: string;
  historyWindow?: number;
  /** Plays the workload controllers and a kubelet so Deployments, Jobs, ... become ready (no containers run). */
  simulateWorkloads?: boolean;
  /** Timings of the simulation (ready delay, node name), when simulateWorkloads is on. */
  simulation?: SimulatorOptions;
  logger?: (entry: Record<string, unknown>) => void;
  /** What the server's own waits are timed on (a watch waiting for a resourceVersion); the wall clock by default. */
  clock?: Clock;
}

export interface RunningServer {
  url: string;
  kubeconfigPath: string;
  kubeConfig: KubeConfig;
  token: string;
  caCert: string;
  stop(): Promise<void>;
}

interface Internals {
  objects: ObjectService;
  controllers: ServerController[];
  log: Logger;
}

const internals = new WeakMap<RunningServer, Internals>();
const PUBLIC_PATHS = /^\/(healthz|readyz|livez|version)(\/.*)?$/;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const log: Logger = options.logger ?? (() => undefined);
  mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
  const tls = loadOrCreateTls(options.stateDir, servingSans(options.host));
  const token = loadOrCreateToken(options.stateDir);
  const registry = new Registry();
  const crds = new CrdManager(registry, log);
  const store = new Store(join(options.stateDir, 'store.db'), options.historyWindow ?? 10_000, (err, event) =>
    log({
      level: 'error',
      msg: 'change listener failed',
      resource: event.resource,
      name: event.name,
      error: String(err),
    }),
  );
  const core: Core = { store, registry, crds, log };
  crds.attach(store);
  const crdSchema = (r: ResourceInfo) => crds.openApiSchema(r);
  const objects = new ObjectService(core);
  const clock = options.clock ?? realClock;
  const watches = new WatchHub(core, clock);
  const ctx: ResourceContext = { objects, watches, token, clock };
  let address = '';

  const server: Server = createServer(
    { key: tls.key, cert: tls.cert, ServerResponse: durableResponses(store, log) },
    (req, res) => {
      handle(req, res).catch((err) => fail(res, err));
    },
  );
  const fail = (res: ServerResponse, err: unknown) => {
    if (err instanceof ApiError) return sendError(res, err);
    log({ level: 'error', msg: 'request failed', error: err instanceof Error ? err.stack : String(err) });
    sendError(
      res,
      new ApiError(
        500,
        'InternalError',
        `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    if (!PUBLIC_PATHS.test(url.pathname)) authenticate(req, token);
    const r = route(url.pathname);
    switch (r.type) {
      case 'health':
        res.writeHead(200, {
          'Content-Type': 'text/plain; charset=utf-8',
          'X-Content-Type-Options': 'nosniff',
        });
        return void res.end('ok');
      case 'version':
        return sendJson(res, 200, versionInfo(options.simulateWorkloads ?? false));
      case 'api':
        return sendJson(res, 200, apiVersions(address));
      case 'apis':
        return sendJson(res, 200, apiGroupList(registry));
      case 'group': {
        const body = apiGroup(registry, r.group);
        if (!body) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
        return sendJson(res, 200, body);
      }
      case 'resource-list': {
        const body = apiResourceList(registry, r.group, r.version);
        if (!body) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
        return sendJson(res, 200, body);
      }
      case 'openapi-v2':
        if (wantsOpenApiV2Protobuf(req.headers.accept)) {
          res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF });
          return void res.end(openApiV2Protobuf(registry));
        }
        if (!acceptsJson(req.headers.accept)) {
          // kube-openapi's handler: 406 with an empty body for anything but JSON or its protobuf.
          res.writeHead(406, { Vary: 'Accept' });
          return void res.end();
        }
        return sendJson(res, 200, openApiV2Document(registry));
      case 'openapi-v3-root':
        return sendJson(res, 200, openApiV3Root(registry, crdSchema));
      case 'openapi-v3-gv': {
        const body = openApiV3Document(registry, r.group, r.version, crdSchema);
        if (!body) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
        return sendJson(res, 200, body);
      }
      case 'resource':
        return handleResource(ctx, req, res, r, url.searchParams);
      default:
        throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    }
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address: bound } = server.address() as AddressInfo;
  // Clients cannot connect to the unspecified address: the kubeconfig names loopback instead.
  const host = bound === '0.0.0.0' ? '127.0.0.1' : bound === '::' ? '::1' : bound;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  address = `${urlHost}:${port}`;
  const url = `https://${address}`;
  const kubeconfigPath = writeKubeconfig(options.stateDir, url, tls.caCert, token);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  log({
    level: 'info',
    msg: 'API server listening',
    url,
    stateDir: options.stateDir,
    resourceVersion: store.currentRv(),
  });

  const controllers: ServerController[] = [];
  let stopped = false;
  const running: RunningServer = {
    url,
    kubeconfigPath,
    kubeConfig,
    token,
    caCert: tls.caCert,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const c of controllers.reverse()) await c.stop?.();
      // Answer what waits for a commit before the connections close.
      const durable = store.whenDurable();
      store.flush();
      await durable?.catch(() => undefined);
      watches.closeAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await objects.controllers.stop();
      store.close();
      log({ level: 'info', msg: 'API server stopped', resourceVersion: store.currentRv() });
    },
  };
  internals.set(running, { objects, controllers, log });
  if (options.simulateWorkloads) await registerController(running, workloadSimulator(options.simulation));
  return running;
}

/**
 * Responses that leave only once everything the store held when they ended is on disk (group
 * commit): a 201 survives kill -9, and no client reads, or is refused because of, a write a crash
 * could still undo. Watch streams write committed changes only; their end waits like any other.
 * When the commit fails, the response is cut off: the client gets no answer rather than a false one.
 */
function durableResponses(store: Store, log: Logger): typeof ServerResponse {
  return class DurableResponse<Request extends IncomingMessage> extends ServerResponse<Request> {
    override end(...args: unknown[]): this {
      const end = () => (super.end as (...a: unknown[]) => this).apply(this, args);
      const durable = store.whenDurable();
      if (!durable) return end();
      durable.then(end, (err: unknown) => {
        log({ level: 'error', msg: 'response dropped: its writes were not committed', error: String(err) });
        this.destroy(err instanceof Error ? err : new Error(String(err)));
      });
      return this;
    }
  };
}

/**
 * Resolves once the server's own background work queued so far (garbage collection of dependents)
 * is done; for tests that step a simulator and then look at the result.
 */
export async function serverIdle(server: RunningServer): Promise<void> {
  await internals.get(server)?.objects.controllers.idle();
}

/** Runs a controller inside a started server (the workload simulator uses this). */
export async function registerController(server: RunningServer, controller: ServerController): Promise<void> {
  const inner = internals.get(server);
  if (!inner) throw new Error('registerController: not a server returned by startServer');
  inner.controllers.push(controller);
  await controller.start(controllerContext(inner.objects, controller, inner.log));
}
