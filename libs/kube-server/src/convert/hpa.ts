import { type StoredObject } from '#kube-core';

type Metric = {
  type?: string;
  resource?: { name?: string; target?: { type?: string; averageUtilization?: number } };
};
type Spec = Record<string, unknown> & { metrics?: Metric[]; targetCPUUtilizationPercentage?: number };

const isCpuUtilization = (m: Metric) =>
  m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.type === 'Utilization';

/** autoscaling/v1 → the stored autoscaling/v2 form: targetCPUUtilizationPercentage becomes a cpu Utilization metric. */
export function hpaV1ToV2(obj: StoredObject): StoredObject {
  const { targetCPUUtilizationPercentage, ...spec } = (obj.spec ?? {}) as Spec;
  const status = (obj.status ?? {}) as Record<string, unknown>;
  const { currentCPUUtilizationPercentage, ...restStatus } = status;
  const out: StoredObject = { ...obj, apiVersion: 'autoscaling/v2', spec: { ...spec } };
  if (targetCPUUtilizationPercentage !== undefined) {
    (out.spec as Spec).metrics = [
      {
        type: 'Resource',
        resource: {
          name: 'cpu',
          target: { type: 'Utilization', averageUtilization: targetCPUUtilizationPercentage },
        },
      },
    ];
  }
  if (obj.status) {
    out.status = { ...restStatus };
    if (currentCPUUtilizationPercentage !== undefined) {
      (out.status as Record<string, unknown>).currentMetrics = [
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageUtilization: currentCPUUtilizationPercentage } },
        },
      ];
    }
  }
  return out;
}

/** The stored autoscaling/v2 form → autoscaling/v1 (fields v1 cannot express are dropped). */
export function hpaV2ToV1(obj: StoredObject): StoredObject {
  const { metrics, behavior: _behavior, ...spec } = (obj.spec ?? {}) as Spec;
  const cpu = (metrics ?? []).find(isCpuUtilization);
  const out: StoredObject = { ...obj, apiVersion: 'autoscaling/v1', spec: { ...spec } };
  if (cpu) (out.spec as Spec).targetCPUUtilizationPercentage = cpu.resource?.target?.averageUtilization;
  if (obj.status) {
    const {
      currentMetrics,
      conditions: _conditions,
      ...status
    } = obj.status as Record<string, unknown> & {
      currentMetrics?: Array<{
        type?: string;
        resource?: { name?: string; current?: { averageUtilization?: number } };
      }>;
    };
    const current = (currentMetrics ?? []).find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
    out.status = { ...status };
    if (current?.resource?.current?.averageUtilization !== undefined) {
      (out.status as Record<string, unknown>).currentCPUUtilizationPercentage =
        current.resource.current.averageUtilization;
    }
  }
  return out;
}
