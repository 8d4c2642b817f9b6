/**
 * The controller runtime: client-go's informer machinery and
 * controller-runtime's controllers, manager and leader election, in
 * TypeScript. Knows nothing about OAM. Object types, keys, owner references
 * and GVKs come from '#kube-core'.
 */
export {
  jsonLogger,
  memoryLogger,
  silentLogger,
  type Logger,
  type LogFields,
  type LogLevel,
} from './log/logger.js';
export { TokenBucket } from './util/token-bucket.js';
export { RestMapper, NoKindMatchError } from './client/rest-mapper.js';

export { KubeApiError, isAlreadyExists, isConflict, isGone, isNotFound } from './client/api-error.js';
export {
  isResourceKind,
  kindId,
  resourcePath,
  CONFIG_MAPS,
  CUSTOM_RESOURCE_DEFINITIONS,
  EVENTS,
  LEASES,
  NAMESPACES,
  type KindRef,
  type Model,
  type ResourceKind,
} from './client/resource-kind.js';
export { KubeTransport, type HttpEvent, type TransportOptions, type StreamEnd } from './client/transport.js';
export {
  ResourceClient,
  type DeleteOptions,
  type ListOptions,
  type ObjectList,
  type PatchOptions,
  type PatchType,
  type WatchEvent,
  type WatchOptions,
  type WriteOptions,
} from './client/resource-client.js';
export {
  Client,
  CacheNotSyncedError,
  type ApplyOptions,
  type CachedListOptions,
  type ObjectRef,
} from './client/cached-client.js';

export {
  DeltaFIFO,
  DeletedFinalStateUnknown,
  type Delta,
  type DeltaType,
  type KnownObjects,
} from './cache/delta-fifo.js';
export {
  Indexer,
  NAMESPACE_INDEX,
  OWNER_UID_INDEX,
  namespaceIndexFunc,
  ownerUidIndexFunc,
  type IndexFunc,
} from './cache/store.js';
export {
  Reflector,
  type ListerWatcher,
  type ReflectorOptions,
  type ReflectorStats,
} from './cache/reflector.js';
export {
  SharedInformer,
  type EventHandler,
  type HandlerRegistration,
  type SharedInformerOptions,
} from './cache/shared-informer.js';
export {
  InformerFactory,
  type AcquireOptions,
  type InformerDefaults,
  type InformerLease,
} from './cache/informer-factory.js';

export { WorkQueue, type QueueOptions } from './workqueue/queue.js';
export { DelayingQueue } from './workqueue/delaying-queue.js';
export { DEFAULT_PRIORITY, LOW_PRIORITY } from './workqueue/priority-fifo.js';
export { RateLimitingQueue, type RateLimitingQueueOptions } from './workqueue/rate-limiting-queue.js';
export {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
  type RateLimiter,
} from './workqueue/rate-limiters.js';

export {
  TerminalError,
  requestKey,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from './controller/reconciler.js';
export { Controller, type ControllerOptions } from './controller/controller.js';
export { ControllerBuilder, BuilderError, type ControllerHost } from './controller/builder.js';
export {
  requestForObject,
  requestForOwner,
  enqueueingHandler,
  updatePriority,
  type MapFunc,
} from './controller/handlers.js';
export * as predicates from './controller/predicates.js';
export type { Predicate } from './controller/predicates.js';

export { Manager, type ManagerOptions, type LeaderElectionOptions } from './manager/manager.js';
export { LeaderElector, type LeaderElectionConfig } from './manager/leader-election.js';
export { HealthServer, type HealthState } from './manager/health-server.js';
export { EventRecorder, type EventType } from './events/event-recorder.js';
