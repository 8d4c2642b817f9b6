/**
 * One libs/runtime SharedInformer per storage key, fed by the store itself
 * (StoreListerWatcher), shared by the server's controllers. Built-in
 * resources are watched from the start; custom resources once their CRD
 * appears (`ensure`). A handler added with `onEveryResource` is attached to
 * every informer, present and future.
 */
import { SharedInformer, type EventHandler, type Logger as RuntimeLogger, type LogFields } from '#runtime';
import type { Logger } from '../core.js';
import type { Store } from '../store/store.js';
import { type StoredObject } from '#kube-core';
import { StoreListerWatcher } from './store-source.js';

/** Handlers that also learn which storage key the object belongs to. */
export type ResourceHandler = (resource: string) => EventHandler<StoredObject>;

interface Watched {
  informer: SharedInformer<StoredObject>;
  source: StoreListerWatcher;
  handlers: Array<EventHandler<StoredObject>>;
  /** The newest resourceVersion the informer's handlers have seen. */
  handled: number;
}

/** The runtime's logger interface over the server's log (its debug lines are left out; info becomes debug). */
export function runtimeLogger(log: Logger, fields: LogFields = {}): RuntimeLogger {
  const write =
    (level: string) =>
    (msg: string, more: LogFields = {}) => {
      const entry: Record<string, unknown> = { level, msg, ...fields };
      for (const [k, v] of Object.entries(more)) entry[k] = v instanceof Error ? (v.stack ?? v.message) : v;
      log(entry);
    };
  return {
    debug: () => undefined,
    info: write('debug'),
    warn: write('warn'),
    error: write('error'),
    child: (more) => runtimeLogger(log, { ...fields, ...more }),
  };
}

export class StoreInformers {
  private readonly watched = new Map<string, Watched>();
  private readonly everywhere: ResourceHandler[] = [];
  private started = false;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    /** What the informers keep of each object; default its metadata (see StoreListerWatcher). */
    private readonly project?: (obj: StoredObject) => StoredObject,
  ) {}

  /** Adds a handler to every informer, including the ones created later. */
  onEveryResource(handler: ResourceHandler): void {
    this.everywhere.push(handler);
    for (const [resource, w] of this.watched) w.handlers.push(handler(resource));
  }

  start(): void {
    this.started = true;
    for (const w of this.watched.values()) w.informer.start();
  }

  /** True when nothing waits for a commit, every informer has listed and its handlers have seen everything delivered. */
  quiet(): boolean {
    if (this.stopped) return true;
    // Pending writes are changes the informers will be told of once committed.
    if (this.store.hasPending()) return false;
    for (const w of this.watched.values()) {
      if (!w.informer.hasSynced() || w.handled < w.source.delivered) return false;
    }
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.watched.values()].map((w) => w.informer.stop()));
  }

  /** Watches a storage key from now on (a no-op when it is watched already). */
  ensure(resource: string): void {
    this.watch(resource);
  }

  private watch(resource: string): Watched {
    const existing = this.watched.get(resource);
    if (existing) return existing;
    const log = runtimeLogger(this.log, { informer: resource });
    const source = new StoreListerWatcher(this.store, resource, this.project);
    const informer = new SharedInformer<StoredObject>({
      name: resource,
      listerWatcher: source,
      transform: null,
      logger: log,
    });
    const w: Watched = { informer, source, handlers: this.everywhere.map((h) => h(resource)), handled: 0 };
    // Every handler runs (one failing does not stop the others) before `handled` moves: by then their work is queued.
    const each = (obj: StoredObject, call: (h: EventHandler<StoredObject>) => void) => {
      for (const h of w.handlers) {
        try {
          call(h);
        } catch (error) {
          log.error('event handler failed', {
            error,
            name: obj.metadata.name,
            namespace: obj.metadata.namespace,
          });
        }
      }
      w.handled = Math.max(w.handled, Number(obj.metadata.resourceVersion ?? 0));
    };
    informer.addEventHandler({
      onAdd: (obj, initial) => each(obj, (h) => h.onAdd?.(obj, initial)),
      onUpdate: (old, obj) => each(obj, (h) => h.onUpdate?.(old, obj)),
      onDelete: (obj, unknown) => each(obj, (h) => h.onDelete?.(obj, unknown)),
    });
    this.watched.set(resource, w);
    if (this.started && !this.stopped) informer.start();
    return w;
  }
}
