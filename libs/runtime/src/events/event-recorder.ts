import { createHash } from 'node:crypto';
import { type Clock, type KubeObject, realClock } from '#kube-core';
import { isNotFound } from '../client/api-error.js';
import type { ResourceClient } from '../client/resource-client.js';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';

export type EventType = 'Normal' | 'Warning';

interface SeenEvent {
  namespace: string;
  name: string;
  count: number;
}

/**
 * Records core/v1 Events about objects (client-go tools/record). An event
 * identical to a recent one (same object, type, reason, message, source) is
 * not created again: the existing Event's `count` and `lastTimestamp` are
 * patched instead. Writes are asynchronous; failures are logged, never
 * thrown into the reconcile. `flush()` waits for pending writes.
 */
export class EventRecorder {
  /** Aggregation key → the Event written for it; bounded LRU (Map keeps insertion order). */
  private readonly seen = new Map<string, SeenEvent>();
  /** Per key, the write in flight: the next write of the same key waits for it, so counts never race. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly log: Logger;
  private readonly clock: Clock;

  constructor(
    private readonly events: ResourceClient,
    private readonly component: string,
    /** `clock` stamps first/last timestamps and event names; default the wall clock. */
    options: { logger?: Logger; cacheSize?: number; clock?: Clock } = {},
  ) {
    this.log = options.logger ?? silentLogger;
    this.clock = options.clock ?? realClock;
    this.cacheSize = options.cacheSize ?? 4096;
  }
  private readonly cacheSize: number;

  event(obj: KubeObject, type: EventType, reason: string, message: string): void {
    const md = obj.metadata ?? {};
    const involved = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      name: md.name,
      namespace: md.namespace,
      uid: md.uid,
      resourceVersion: md.resourceVersion,
    };
    const key = createHash('sha1')
      .update(
        JSON.stringify([
          involved.kind,
          involved.namespace,
          involved.name,
          involved.uid,
          type,
          reason,
          message,
          this.component,
        ]),
      )
      .digest('hex');
    const previous = this.inFlight.get(key) ?? Promise.resolve();
    const write = previous.then(() => this.write(key, involved, type, reason, message));
    this.inFlight.set(key, write);
    void write.finally(() => {
      if (this.inFlight.get(key) === write) this.inFlight.delete(key);
    });
  }

  /** Waits until every event recorded so far has been written (or has failed and been logged). */
  async flush(): Promise<void> {
    await Promise.all([...this.inFlight.values()]);
  }

  private async write(
    key: string,
    involved: Record<string, unknown>,
    type: EventType,
    reason: string,
    message: string,
  ): Promise<void> {
    const now = new Date(this.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const namespace = (involved.namespace as string | undefined) || 'default';
    const seen = this.seen.get(key);
    try {
      if (seen) {
        try {
          await this.events.patch(
            seen.namespace,
            seen.name,
            { count: seen.count + 1, lastTimestamp: now },
            { type: 'merge' },
          );
          seen.count++;
          this.seen.delete(key);
          this.seen.set(key, seen); // most recently used goes last
          return;
        } catch (err) {
          if (!isNotFound(err)) throw err;
          this.seen.delete(key); // the Event expired on the server (TTL): start a new one
        }
      }
      const name = `${String(involved.name)}.${this.clock.now().toString(16)}${Math.floor(Math.random() * 0xfff).toString(16)}`;
      await this.events.create({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: involved,
        type,
        reason,
        message,
        source: { component: this.component },
        reportingComponent: this.component,
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      });
      this.seen.set(key, { namespace, name, count: 1 });
      if (this.seen.size > this.cacheSize) this.seen.delete(this.seen.keys().next().value!);
    } catch (err) {
      this.log.warn('could not record event', {
        error: err,
        object: `${namespace}/${String(involved.name)}`,
        reason,
        message,
      });
    }
  }
}
