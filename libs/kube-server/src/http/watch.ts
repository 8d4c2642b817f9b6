import { apiVersionOf, realClock, type Clock, type StoredObject } from '#kube-core';
import type { ServerResponse } from 'node:http';
import { toExternal } from '../convert/index.js';
import type { Core } from '../core.js';
import { ApiError } from '../errors.js';
import { parseResourceVersion, tooLargeResourceVersion } from '../objects/reader.js';
import { storageKey, type ResourceInfo } from '../resources/builtin.js';
import { jsonOf } from '../store/json-text.js';
import type { ChangeEvent } from '../store/types.js';
import { untilCommitted } from './watch-freshness.js';

export interface WatchRequest {
  info: ResourceInfo;
  namespace?: string;
  /** Which objects to report (selectors); applied to the old and new state to synthesize ADDED/DELETED. */
  filter: (obj: StoredObject) => boolean;
  resourceVersion?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  /** true: the state first, at the resourceVersion or newer; false: changes only; unset: the state only from no resourceVersion. */
  sendInitialEvents?: boolean;
  /** Turns an external object into what the client asked for (a Table row, or itself). */
  render: (obj: StoredObject) => unknown;
  /** Requests with the same renderKey and version render an event identically, so the line is serialized once. */
  renderKey: string;
}

interface Watcher {
  req: WatchRequest;
  res: ServerResponse;
  /** The resourceVersion the stream starts after: older commits are not sent. */
  after: number;
  close(): void;
}

/** A watcher whose unsent output grows past this is too slow; it is dropped (it will re-list). */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const DEFAULT_TIMEOUT_SECONDS = 1800;

/**
 * Fans store changes out to watch streams. Delivery never waits on a socket:
 * each event is written to every interested response; a response whose buffer
 * keeps growing is closed.
 */
export class WatchHub {
  private readonly watchers = new Map<string, Set<Watcher>>();

  constructor(
    private readonly core: Core,
    /** Times the wait for a resourceVersion not committed yet. */
    private readonly clock: Clock = realClock,
    private readonly bookmarkIntervalMs = 30_000,
  ) {
    core.store.subscribe((event) => this.dispatch(event));
  }

  count(): number {
    let n = 0;
    for (const set of this.watchers.values()) n += set.size;
    return n;
  }

  /**
   * Starts streaming; throws ApiError (before any byte is written) for a bad resourceVersion.
   * Initial events at a resourceVersion not committed yet wait for it on the clock first.
   */
  start(req: WatchRequest, res: ServerResponse): void | Promise<void> {
    const rvText = req.resourceVersion ?? '';
    if (!/^\d*$/.test(rvText)) {
      // kube-apiserver 1.37 answers a garbage watch resourceVersion with a bare 500 (kubernetes/kubernetes#139485).
      throw new ApiError(
        500,
        '',
        `resourceVersion: Invalid value: "${rvText}": strconv.ParseUint: parsing "${rvText}": invalid syntax`,
      );
    }
    const fromRv = rvText === '' || rvText === '0' ? undefined : parseResourceVersion(rvText);
    const store = this.core.store;
    if (!req.sendInitialEvents || fromRv === undefined || fromRv <= store.committedRv())
      return this.open(req, res, fromRv);
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    return untilCommitted(store, fromRv, this.clock, gone.signal).then((fresh) => {
      if (gone.signal.aborted) return;
      if (fresh) return this.open(req, res, fromRv);
      const err = tooLargeResourceVersion(fromRv, store.committedRv());
      writeStreamHead(res);
      res.end(JSON.stringify({ type: 'ERROR', object: err.toStatus() }) + '\n');
    });
  }

  /**
   * The stream from `fromRv`: the state at the newest commit first when the client asked for
   * initial events (sendInitialEvents, or a watch from no resourceVersion), else the changes
   * after `fromRv` (410 Gone when they are no longer kept).
   */
  private open(req: WatchRequest, res: ServerResponse, fromRv: number | undefined): void {
    const store = this.core.store;
    const key = storageKey(req.info);
    writeStreamHead(res);
    // Watchers learn of committed changes only: what they replay or list is the state at the
    // committed resourceVersion, and the registered watcher gets every commit after it.
    const committed = store.committedRv();
    const initial = req.sendInitialEvents ?? fromRv === undefined;
    let replay: ChangeEvent[] | undefined = [];
    if (!initial && fromRv !== undefined && fromRv < committed) replay = store.committedSince(fromRv);
    if (!replay) {
      const err = new ApiError(
        410,
        'Expired',
        `too old resource version: ${fromRv} (${store.history.compactedRv + 1})`,
      );
      res.end(JSON.stringify({ type: 'ERROR', object: err.toStatus() }) + '\n');
      return;
    }
    const after = initial || fromRv === undefined ? committed : fromRv;
    const watcher = this.register(key, req, res, after);
    if (initial) {
      for (const entry of store.snapshot(key, committed, req.namespace)) {
        const obj = toExternal(req.info, entry.object);
        if (req.filter(obj)) this.write(watcher, 'ADDED', obj);
      }
      if (req.allowWatchBookmarks) {
        this.bookmark(watcher, { 'k8s.io/initial-events-end': 'true' });
      }
    } else {
      for (const event of replay) if (event.resource === key) this.deliver(watcher, event);
    }
  }

  /** Ends every stream (server shutdown). */
  closeAll(): void {
    for (const set of this.watchers.values()) for (const w of [...set]) w.close();
  }

  private register(key: string, req: WatchRequest, res: ServerResponse, after: number): Watcher {
    let set = this.watchers.get(key);
    if (!set) this.watchers.set(key, (set = new Set()));
    const timers: NodeJS.Timeout[] = [];
    const watcher: Watcher = {
      req,
      res,
      after,
      close: () => {
        if (!set.delete(watcher)) return;
        timers.forEach((t) => clearTimeout(t));
        res.end();
      },
    };
    set.add(watcher);
    timers.push(setTimeout(() => watcher.close(), (req.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000));
    if (req.allowWatchBookmarks)
      timers.push(setInterval(() => this.bookmark(watcher), this.bookmarkIntervalMs));
    res.on('close', () => watcher.close());
    return watcher;
  }

  private dispatch(event: ChangeEvent): void {
    const set = this.watchers.get(event.resource);
    if (!set) return;
    const lines = new Map<string, string>();
    for (const watcher of set) this.deliver(watcher, event, lines);
  }

  /** Label/field selectors see transitions: entering the selection is ADDED, leaving it is DELETED. */
  private deliver(watcher: Watcher, event: ChangeEvent, lines?: Map<string, string>): void {
    const { req } = watcher;
    if (event.rv <= watcher.after || (req.namespace && event.namespace !== req.namespace)) return;
    const obj = toExternal(req.info, event.object);
    const prev = event.prev ? toExternal(req.info, event.prev) : undefined;
    if (event.type === 'DELETED') {
      if (req.filter(obj)) this.write(watcher, 'DELETED', obj, lines);
      return;
    }
    const now = req.filter(obj);
    const before = prev !== undefined && req.filter(prev);
    if (now) this.write(watcher, before ? 'MODIFIED' : 'ADDED', obj, lines);
    else if (before) this.write(watcher, 'DELETED', obj, lines);
  }

  private bookmark(watcher: Watcher, annotations?: Record<string, string>): void {
    const { info } = watcher.req;
    const metadata: Record<string, unknown> = { resourceVersion: String(this.core.store.committedRv()) };
    if (annotations) metadata.annotations = annotations;
    this.send(watcher, {
      type: 'BOOKMARK',
      object: { kind: info.kind, apiVersion: apiVersionOf(info), metadata },
    });
  }

  private write(watcher: Watcher, type: string, obj: StoredObject, lines?: Map<string, string>): void {
    const { req } = watcher;
    const key = `${type}|${req.info.group}/${req.info.version}|${req.renderKey}`;
    let line = lines?.get(key);
    if (line === undefined) {
      // As JSON.stringify({ type, object }) writes it, with the object's text made once per write.
      line = `{"type":"${type}","object":${jsonOf(req.render(obj))}}\n`;
      lines?.set(key, line);
    }
    this.sendLine(watcher, line);
  }

  private send(watcher: Watcher, event: unknown): void {
    this.sendLine(watcher, JSON.stringify(event) + '\n');
  }

  private sendLine(watcher: Watcher, line: string): void {
    const { res } = watcher;
    if (res.writableEnded || res.destroyed) return;
    res.write(line);
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      this.core.log({
        level: 'warn',
        msg: 'dropping a watcher that does not keep up',
        buffered: res.writableLength,
      });
      watcher.close();
      res.destroy();
    }
  }
}

function writeStreamHead(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
}
