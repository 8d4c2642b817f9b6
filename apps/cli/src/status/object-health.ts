import type { KubeObject } from '#kube-core';

export interface ObjectHealth {
  healthy: boolean;
  message: string;
}

type Live = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** A short, kind-aware reading of one live object, as `kubectl get` would summarise it. */
export function objectHealth(obj: KubeObject): ObjectHealth {
  const o = obj as Live;
  const spec = o.spec ?? {};
  const status = o.status ?? {};
  const current =
    (num(status.observedGeneration) ?? 0) >= (o.metadata?.generation ?? 0) ||
    o.metadata?.generation === undefined;
  switch (o.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet': {
      const desired = num(spec.replicas) ?? 1;
      const ready = num(status.readyReplicas) ?? 0;
      const updated = num(status.updatedReplicas) ?? 0;
      const healthy = current && ready >= desired && updated >= desired;
      return { healthy, message: `${ready}/${desired} ready${current ? '' : ' (rolling out)'}` };
    }
    case 'DaemonSet': {
      const desired = num(status.desiredNumberScheduled) ?? 0;
      const ready = num(status.numberReady) ?? 0;
      return { healthy: current && ready >= desired, message: `${ready}/${desired} ready` };
    }
    case 'Job': {
      const completions = num(spec.completions) ?? 1;
      const succeeded = num(status.succeeded) ?? 0;
      const failed = conditionTrue(status, 'Failed');
      if (failed) return { healthy: false, message: 'failed' };
      return {
        healthy: succeeded >= completions,
        message: `${succeeded}/${completions} complete`,
      };
    }
    case 'HorizontalPodAutoscaler': {
      const cur = num(status.currentReplicas);
      const des = num(status.desiredReplicas);
      return {
        healthy: cur !== undefined,
        message: `${cur ?? '?'} replicas (min ${num(spec.minReplicas) ?? 1}, max ${num(spec.maxReplicas) ?? '?'})${des !== undefined && des !== cur ? `, scaling to ${des}` : ''}`,
      };
    }
    case 'Service': {
      const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';
      const ip = typeof spec.clusterIP === 'string' ? ` ${spec.clusterIP}` : '';
      return { healthy: true, message: `${type}${ip}` };
    }
    case 'Ingress': {
      const rules = Array.isArray(spec.rules) ? (spec.rules as { host?: string }[]) : [];
      const hosts = rules.map((r) => r.host).filter(Boolean);
      return { healthy: true, message: hosts.length ? `hosts ${hosts.join(', ')}` : 'exists' };
    }
    default:
      return { healthy: true, message: 'exists' };
  }
}

function conditionTrue(status: Record<string, unknown>, type: string): boolean {
  const conditions = Array.isArray(status.conditions)
    ? (status.conditions as { type?: string; status?: string }[])
    : [];
  return conditions.some((c) => c.type === type && c.status === 'True');
}
