/** The OAM controller: reconciles Applications into running, healthy workloads (issue 12). */
export { startController, type RunningController } from './start-controller.js';
export { ControllerModule } from './controller.module.js';
export { ControllerStartError } from './controller.runner.js';
export type { ControllerOptions } from './options.js';
export {
  FIELD_MANAGER,
  FINALIZER,
  CONTROLLER_NAMESPACE,
  DEFAULT_SYSTEM_NAMESPACE,
  HEARTBEAT_LEASE,
} from './constants.js';
export { SCHEMA_KEY, schemaConfigMapName } from './definitions/schema-publisher.js';
