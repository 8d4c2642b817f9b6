import { type Clock, type KubeObject, realClock } from '#kube-core';
import { isGone, KubeApiError } from '../client/api-error.js';
import type { ListOptions, WatchEvent, WatchOptions } from '../client/resource-client.js';
import type { StreamEnd } from '../client/transport.js';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import { Backoff, sleep } from '../util/timing.js';
import type { DeltaFIFO } from './delta-fifo.js';

/** A source of objects: a ResourceClient satisfies it; benchmarks plug in an in-process fake. */
export interface ListerWatcher<T> {
  listAll(options: ListOptions & { pageSize?: number }): Promise<{ items: T[]; resourceVersion: string }>;
  watch(options: WatchOptions, onEvent: (event: WatchEvent<T>) => void): Promise<StreamEnd>;
}

export interface ReflectorOptions<T> {
  listerWatcher: ListerWatcher<T>;
  fifo: DeltaFIFO<T & KubeObject>;
  /** Used in logs. */
  name: string;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** LIST page size (limit/continue); 0 lists in one request. Default 500. */
  pageSize?: number;
  /** Server-side watch timeout; default random in [300, 600) s like client-go, so watches do not all restart together. */
  watchTimeoutSeconds?: number;
  /** A watch that delivers nothing (not even a bookmark) for this long is dead; default watch timeout + 30 s. */
  idleTimeoutMs?: number;
  /** Applied to every object before it is queued (e.g. drop managedFields). */
  transform?: (obj: T) => T;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  logger?: Logger;
  /** Times the re-list and re-watch backoff. Default: the wall clock. */
  clock?: Clock;
}

export interface ReflectorStats {
  lists: number;
  watches: number;
  /** Re-lists caused by 410 Gone / Expired (the watch history no longer reaches our resourceVersion). */
  relistsOnGone: number;
  /** Watches abandoned because they went silent. */
  idleRestarts: number;
  events: number;
}

/** An ERROR event inside a watch stream (its object is a Status). */
class WatchErrorEvent extends KubeApiError {}

/**
 * LIST then WATCH one kind into a DeltaFIFO (client-go reflector.go).
 *
 * Retry contract: a watch the server closes is resumed from the last seen
 * resourceVersion (bookmarks included) at once; a silent watch (nothing, not
 * even a bookmark, for `idleTimeoutMs`) is declared dead and resumed the same
 * way; a broken or unreachable one after a backoff. 410 Gone (at watch start
 * or as an ERROR event) or any other server error leads to a full re-LIST
 * after an exponential, jittered backoff (800 ms doubling to 30 s, reset after
 * 2 min without failure: never a hot loop). The LIST is paginated
 * (`pageSize`, default 500). Stops only when `signal` aborts.
 */
export class Reflector<T extends KubeObject> {
  readonly stats: ReflectorStats = { lists: 0, watches: 0, relistsOnGone: 0, idleRestarts: 0, events: 0 };
  /** The resourceVersion of the newest state delivered to the FIFO; the watch resumes from here. */
  private resourceVersion = '';
  private readonly backoff: Backoff;
  private readonly log: Logger;
  private readonly clock: Clock;

  constructor(private readonly options: ReflectorOptions<T>) {
    this.clock = options.clock ?? realClock;
    this.backoff = new Backoff(
      options.backoffInitialMs ?? 800,
      options.backoffMaxMs ?? 30_000,
      120_000,
      1.0,
      this.clock,
    );
    this.log = (options.logger ?? silentLogger).child({ reflector: options.name });
  }

  lastSyncResourceVersion(): string {
    return this.resourceVersion;
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.listAndWatch(signal);
      } catch (err) {
        if (signal.aborted) break;
        this.log.warn('list/watch failed; re-listing after backoff', {
          error: err,
          resourceVersion: this.resourceVersion,
        });
      }
      await sleep(this.backoff.next(), signal, this.clock);
    }
  }

  private async listAndWatch(signal: AbortSignal): Promise<void> {
    await this.list(signal);
    while (!signal.aborted) {
      const started = this.clock.now();
      const eventsBefore = this.stats.events;
      let end: StreamEnd;
      try {
        this.stats.watches++;
        end = await this.options.listerWatcher.watch(
          {
            namespace: this.options.namespace,
            labelSelector: this.options.labelSelector,
            fieldSelector: this.options.fieldSelector,
            resourceVersion: this.resourceVersion,
            allowWatchBookmarks: true,
            timeoutSeconds: this.watchTimeoutSeconds(),
            idleTimeoutMs: this.options.idleTimeoutMs,
            signal,
          },
          (event) => this.onEvent(event),
        );
      } catch (err) {
        if (isGone(err)) return this.gone(err);
        if (err instanceof KubeApiError && err.code === 0) {
          // No answer (server restarting, network): resume the same watch after a backoff, no re-list needed.
          this.log.warn('watch could not start; retrying', { error: err });
          await sleep(this.backoff.next(), signal, this.clock);
          continue;
        }
        throw err;
      }
      if (end.reason === 'aborted') return;
      if (end.reason === 'broken') {
        if (end.error instanceof WatchErrorEvent) {
          if (isGone(end.error)) return this.gone(end.error);
          throw end.error;
        }
        this.log.warn('watch stream broke; resuming', {
          error: end.error,
          resourceVersion: this.resourceVersion,
        });
        await sleep(this.backoff.next(), signal, this.clock);
        continue;
      }
      if (end.reason === 'idle') {
        this.stats.idleRestarts++;
        this.log.warn('watch delivered nothing within its idle timeout; treating it as dead and restarting', {
          resourceVersion: this.resourceVersion,
        });
        continue;
      }
      // Closed by the server: normal at its timeout. Guard against a server that closes at once, every time.
      if (this.clock.now() - started < 1000 && this.stats.events === eventsBefore)
        await sleep(this.backoff.next(), signal, this.clock);
    }
  }

  private async list(signal: AbortSignal): Promise<void> {
    const base = {
      namespace: this.options.namespace,
      labelSelector: this.options.labelSelector,
      fieldSelector: this.options.fieldSelector,
      signal,
    };
    let result: { items: T[]; resourceVersion: string };
    try {
      result = await this.options.listerWatcher.listAll({ ...base, pageSize: this.options.pageSize ?? 500 });
    } catch (err) {
      // A continue token expired between pages: fall back to one unpaginated list (client-go does the same).
      if (!isGone(err)) throw err;
      this.log.info('paginated list expired; listing in one request', { error: err });
      result = await this.options.listerWatcher.listAll({ ...base, pageSize: 0 });
    }
    const transform = this.options.transform;
    this.options.fifo.replace(transform ? result.items.map(transform) : result.items);
    this.resourceVersion = result.resourceVersion;
    this.stats.lists++;
    // The backoff is not reset here: a server that lists fine but refuses every watch with
    // 410 must still see the re-lists slow down. It resets itself after 2 min without failure.
    this.log.debug('listed', { count: result.items.length, resourceVersion: result.resourceVersion });
  }

  private onEvent(event: WatchEvent<T>): void {
    if (event.type === 'ERROR') {
      const status = event.object as { code?: number; reason?: string; message?: string };
      throw new WatchErrorEvent(
        status.code ?? 500,
        status.reason ?? 'WatchError',
        status.message ?? 'error event in watch',
        'WATCH',
        this.options.name,
      );
    }
    const rv = event.object?.metadata?.resourceVersion;
    if (event.type !== 'BOOKMARK') {
      this.stats.events++;
      const obj = this.options.transform ? this.options.transform(event.object) : event.object;
      if (event.type === 'ADDED') this.options.fifo.add(obj);
      else if (event.type === 'MODIFIED') this.options.fifo.update(obj);
      else if (event.type === 'DELETED') this.options.fifo.delete(obj);
      else
        throw new KubeApiError(
          0,
          'InvalidWatchEvent',
          `unknown watch event type "${String(event.type)}"`,
          'WATCH',
          this.options.name,
        );
    }
    if (rv) this.resourceVersion = rv;
  }

  private gone(err: unknown): never {
    this.stats.relistsOnGone++;
    this.log.info('resourceVersion too old (410 Gone); re-listing', {
      error: err,
      resourceVersion: this.resourceVersion,
    });
    throw err;
  }

  private watchTimeoutSeconds(): number {
    return this.options.watchTimeoutSeconds ?? Math.floor(300 * (1 + Math.random()));
  }
}
