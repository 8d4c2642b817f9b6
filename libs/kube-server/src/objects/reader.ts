import { toExternal } from '../convert/index.js';
import type { Core } from '../core.js';
import { ApiError } from '../errors.js';
import { selectableFields } from '../query/fields.js';
import { decodeContinue, encodeContinue } from '../query/paging.js';
import { storageKey, type ResourceInfo } from '../resources/builtin.js';
import type { StoredEntry } from '../store/types.js';
import {
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
  type FieldRequirement,
  type LabelRequirement,
  type StoredObject,
} from '#kube-core';
import { badRequest, notFound } from './meta.js';

export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  /**
   * In-process callers only (the workload simulator): keeps the stored
   * objects it accepts, judged before they are converted for the response, so
   * a sync that wants one owner's Pods does not convert every Pod there.
   */
  where?: (stored: StoredObject) => boolean;
  /**
   * In-process callers only: where to look instead of every object of the namespace (a superset
   * of what `where` keeps): the candidates of a controller's claim (objects naming this owner uid,
   * and orphans), or the objects with one label. Lists the current state.
   */
  candidates?: { ownerUid: string } | { label: [key: string, value: string] };
}

export interface ListResult {
  items: StoredObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export function parseResourceVersion(text: string): number {
  if (!/^\d+$/.test(text)) {
    throw badRequest(
      `invalid resource version: resourceVersion: Invalid value: "${text}": strconv.ParseUint: parsing "${text}": invalid syntax`,
    );
  }
  return Number(text);
}

export function tooLargeResourceVersion(requested: number, current: number): ApiError {
  return new ApiError(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
  );
}

/** A compiled filter for list and watch: label and field selectors of one request. */
export function compileFilter(
  info: ResourceInfo,
  labelSelector?: string,
  fieldSelector?: string,
): (obj: StoredObject) => boolean {
  return compileSelectors(info, labelSelector, fieldSelector).filter;
}

function compileSelectors(
  info: ResourceInfo,
  labelSelector?: string,
  fieldSelector?: string,
): { filter: (obj: StoredObject) => boolean; labels: LabelRequirement[] } {
  let labels: LabelRequirement[];
  let fields: FieldRequirement[];
  try {
    labels = parseLabelSelector(labelSelector);
    fields = parseFieldSelector(fieldSelector, selectableFields(storageKey(info)));
  } catch (err) {
    if (err instanceof SelectorError) throw new ApiError(400, 'BadRequest', err.message);
    throw err;
  }
  if (!labels.length && !fields.length) return { filter: () => true, labels };
  return {
    filter: (obj) => matchesLabels(labels, obj.metadata.labels) && matchesFields(fields, obj),
    labels,
  };
}

/** Get and list, from memory, with kube's resourceVersion, selector and paging semantics. */
export class ObjectReader {
  constructor(private readonly core: Core) {}

  get(info: ResourceInfo, namespace: string | undefined, name: string): StoredObject {
    const entry = this.core.store.get(storageKey(info), namespace ?? '', name);
    if (!entry) throw notFound(info, name);
    return toExternal(info, entry.object);
  }

  list(info: ResourceInfo, namespace: string | undefined, q: ListQuery): ListResult {
    const store = this.core.store;
    const current = store.currentRv();
    const { filter: selected, labels } = compileSelectors(info, q.labelSelector, q.fieldSelector);
    const where = q.where;
    const filter = where ? (o: StoredObject) => where(o) && selected(o) : selected;
    let atRv = current;
    let start = '';
    if (q.continue) {
      if (q.resourceVersion && q.resourceVersion !== '0') {
        throw badRequest('specifying resource version is not allowed when using continue');
      }
      const token = decodeContinue(q.continue);
      atRv = token.rv;
      start = token.start;
    } else if (q.resourceVersion !== undefined && q.resourceVersion !== '') {
      const requested = parseResourceVersion(q.resourceVersion);
      if (requested > current) throw tooLargeResourceVersion(requested, current);
      if (q.resourceVersionMatch === 'Exact') atRv = requested;
    }
    let entries: StoredEntry[];
    try {
      // A selector requiring one label value reads only the objects with it (the store's label index).
      const equal = labels.find((r) => r.op === 'in' && r.values.length === 1);
      const c =
        q.candidates ?? (equal && atRv === current ? { label: [equal.key, equal.values[0]] } : undefined);
      entries = !c
        ? store.snapshot(storageKey(info), atRv, namespace)
        : 'ownerUid' in c
          ? store.ownedOrOrphans(storageKey(info), namespace ?? '', c.ownerUid)
          : store.withLabel(storageKey(info), namespace ?? '', ...c.label);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (q.continue) {
        throw new ApiError(
          410,
          'Expired',
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
        );
      }
      throw new ApiError(410, 'Expired', 'The resourceVersion for the provided list is too old.');
    }
    const keyOf = (e: StoredEntry) => `${e.namespace}/${e.name}`;
    if (start) entries = entries.filter((e) => keyOf(e) > start);
    const limit = q.limit && q.limit > 0 ? q.limit : Infinity;
    const items: StoredObject[] = [];
    let i = 0;
    for (; i < entries.length && items.length < limit; i++) {
      if (filter(entries[i].object)) items.push(toExternal(info, entries[i].object));
    }
    const result: ListResult = { items, resourceVersion: String(atRv) };
    const more = entries.slice(i).some((e) => filter(e.object));
    if (more) {
      result.continue = encodeContinue({ rv: atRv, start: keyOf(entries[i - 1]) });
      if (!q.labelSelector && !q.fieldSelector) result.remainingItemCount = entries.length - i;
    }
    return result;
  }
}
