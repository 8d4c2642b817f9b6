import { type StoredObject } from '#kube-core';

/** Field pairs between events.k8s.io/v1 and the stored core/v1 Event. */
const PAIRS: Array<[string, string]> = [
  ['note', 'message'],
  ['regarding', 'involvedObject'],
  ['related', 'related'],
  ['reason', 'reason'],
  ['type', 'type'],
  ['action', 'action'],
  ['eventTime', 'eventTime'],
  ['series', 'series'],
  ['reportingController', 'reportingComponent'],
  ['reportingInstance', 'reportingInstance'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(obj: StoredObject, from: 0 | 1, apiVersion: string): StoredObject {
  const out: StoredObject = { apiVersion, kind: 'Event', metadata: obj.metadata };
  for (const pair of PAIRS) {
    const value = obj[pair[from]];
    if (value !== undefined) out[pair[1 - from]] = value;
  }
  return out;
}

export const eventsV1ToCore = (obj: StoredObject) => rename(obj, 0, 'v1');
export const coreToEventsV1 = (obj: StoredObject) => rename(obj, 1, 'events.k8s.io/v1');
