import { type StoredObject } from '#kube-core';
import { GVR, errorMessage, type Sim } from './sim.js';
import { timestamp } from './values.js';

/** A core/v1 Event as client-go's recorder writes it (name `<object>.<hex>`, count 1). */
export function recordEvent(
  sim: Sim,
  involved: StoredObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  component: string,
  counter: number,
): void {
  const now = sim.now();
  const namespace = involved.metadata.namespace || 'default';
  const suffix = (BigInt(now) * 1_000_000n + BigInt(counter % 1_000_000)).toString(16);
  const isKubelet = component === 'kubelet';
  try {
    sim.api.create(GVR.events, namespace, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${involved.metadata.name}.${suffix}`, namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.metadata.name,
        namespace: involved.metadata.namespace,
        uid: involved.metadata.uid,
        resourceVersion: involved.metadata.resourceVersion,
      },
      reason,
      message,
      type,
      source: { component, ...(isKubelet ? { host: sim.opts.nodeName } : {}) },
      firstTimestamp: timestamp(now),
      lastTimestamp: timestamp(now),
      count: 1,
      reportingComponent: component,
      reportingInstance: isKubelet ? sim.opts.nodeName : '',
    });
  } catch (err) {
    sim.log({
      level: 'debug',
      msg: 'could not record an event',
      reason,
      object: involved.metadata.name,
      error: errorMessage(err),
    });
  }
}
