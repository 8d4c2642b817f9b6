import type { HealthResult } from '#renderer';
import { type TypedObject } from '#kube-core';

/** The spec and status fields read here, of Deployments, StatefulSets, DaemonSets and Jobs (as numbers, as the API serves them). */
interface WorkloadSpec {
  replicas?: number;
  completions?: number;
}
interface WorkloadStatus {
  observedGeneration?: number;
  readyReplicas?: number;
  updatedReplicas?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  succeeded?: number;
}

/**
 * Health of a workload whose definition has no health policy: what
 * `kubectl rollout status` would say for the common kinds; anything else is
 * healthy once it exists.
 */
export function defaultHealth(live: TypedObject): HealthResult {
  const spec = (live.spec ?? {}) as WorkloadSpec;
  const status = (live.status ?? {}) as WorkloadStatus;
  const observed = (status.observedGeneration ?? 0) >= (live.metadata?.generation ?? 0);
  switch (live.kind) {
    case 'Deployment':
    case 'StatefulSet': {
      const want = spec.replicas ?? 1;
      const ready = status.readyReplicas ?? 0;
      const healthy = observed && ready === want && (status.updatedReplicas ?? 0) === want;
      return { healthy, message: `Ready:${ready}/${want}` };
    }
    case 'DaemonSet': {
      const want = status.desiredNumberScheduled ?? 0;
      const ready = status.numberReady ?? 0;
      return { healthy: observed && ready === want, message: `Ready:${ready}/${want}` };
    }
    case 'Job': {
      const want = spec.completions ?? 1;
      const done = status.succeeded ?? 0;
      return { healthy: done >= want, message: `Succeeded:${done}/${want}` };
    }
    default:
      return { healthy: true };
  }
}
