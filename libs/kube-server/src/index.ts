/**
 * The embedded Kubernetes-compatible API server: HTTPS + bearer token,
 * discovery, CRUD/list/watch on built-ins and CRDs, durable SQLite storage.
 *
 * A request's way through the folders:
 *   server/       startServer: TLS, the bearer token, the kubeconfig; wires the parts below
 *   http/         routing a path, reading bodies, writing responses, the handlers, watch streams
 *   protobuf/     the protobuf wire format (bodies some clients send, OpenAPI v2 as protobuf)
 *   discovery/    /version, /api, /apis and OpenAPI v2/v3: what clients learn the server serves
 *   resources/    what is served: the built-in kinds (kinds.ts, one record per kind: served resource,
 *                 validation, merge rules, columns, defaults, generation), the registry, CRDs
 *   query/        list parameters: label and field selectors, continue tokens
 *   table/        server-side printing (the columns `kubectl get` shows)
 *   objects/      get/list/create/update/patch/delete with kube-apiserver's semantics (admission)
 *     validation/ patch/ convert/ cluster-ips/   what admission and writes use
 *   store/        the SQLite store, resourceVersions, the change history watches replay
 * After a write:
 *   controllers/  the server's own controllers (garbage collector, namespaces, CRD clean-up) on
 *                 libs/runtime's informers and work queues, fed by the store through an in-process
 *                 list/watch source; and the in-process controller API that controllers registered
 *                 from outside use (libs/simulator, the workload simulator, which the server does
 *                 not import: callers pass it in, see ServerOptions.simulator)
 * core.ts (what every part shares) and errors.ts (ApiError, the Status format) are used everywhere.
 */
export {
  startServer,
  registerController,
  serverIdle,
  type ServerOptions,
  type RunningServer,
  type WorkloadSimulatorFactory,
} from './server/server.js';
export { ApiError } from './errors.js';
export type { Logger } from './core.js';
export type {
  ServerController,
  ControllerContext,
  ControllerEvent,
  InProcessApi,
} from './controllers/in-process.js';
export { runtimeLogger, type StoreInformers } from './controllers/store-informers.js';
export type { ListQuery } from './objects/reader.js';
export { addTo, labelKey, removeFrom } from './store/set-index.js';
