/**
 * The embedded Kubernetes-compatible API server: HTTPS + bearer token,
 * discovery, CRUD/list/watch on built-ins and CRDs, durable SQLite storage.
 */
export { startServer, registerController, type ServerOptions, type RunningServer } from './server.js';
export { ApiError } from './errors.js';
export { workloadSimulator, type SimulatorOptions } from './simulator/index.js';
export type {
  ServerController,
  ControllerContext,
  ControllerEvent,
  InProcessApi,
  Gvr,
} from './controllers.js';
export type { KubeObj } from './store/types.js';
