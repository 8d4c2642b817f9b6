/**
 * The HorizontalPodAutoscaler controller (pkg/controller/podautoscaler), with
 * simulated metrics. No metrics server runs here, so by default an HPA only
 * reports status: currentReplicas from the target's scale, desiredReplicas equal
 * to the target's spec.replicas, and the conditions a real HPA shows when it
 * cannot get metrics (AbleToScale True, ScalingActive False). It never changes
 * the target's replicas then, not even to bring them within minReplicas/maxReplicas
 * (a real HPA would): without a simulated metric the HPA is status-only.
 *
 * To make it scale, set a simulated metric on the HPA:
 *   `simulation.oam.dev/utilization: "<percent>"` — the current average
 *   utilization (of requests) for every Resource/ContainerResource metric whose
 *   target type is Utilization. The HPA then computes desiredReplicas the real way
 *   (ceil(ready pods × utilization / target), 10 % tolerance, min/max bounds, the
 *   scale-up limit, the scale-down stabilization window of
 *   spec.behavior.scaleDown.stabilizationWindowSeconds, default 300 s) and writes
 *   the target's spec.replicas. The simulated utilization does not drop when
 *   Pods are added (as if every Pod stayed that busy): above the target (beyond
 *   the tolerance) the HPA keeps scaling up to maxReplicas, below it down to
 *   minReplicas once the scale-down window has passed; remove the annotation and
 *   the HPA stops changing replicas.
 */
import { parseApiVersion } from '#kube-core';
import type { IHorizontalPodAutoscalerSpec } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscalerSpec';
import type { IHorizontalPodAutoscalerStatus } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscalerStatus';
import type { IMetricSpec } from 'kubernetes-models/autoscaling/v2/MetricSpec';
import { SIM_PREFIX } from './options.js';
import {
  GVR,
  keyOf,
  type Deployment,
  type HorizontalPodAutoscaler,
  type ReplicaSet,
  type Resource,
  type Sim,
  type StatefulSet,
} from './sim.js';
import { getObj, writeObj, writeStatus } from './objects.js';
import { findCondition, timestamp, type Condition } from './values.js';

export const HPA = 'hpa';
const COMPONENT = 'horizontal-pod-autoscaler';
export const UTILIZATION_ANNOTATION = `${SIM_PREFIX}utilization`;
const TOLERANCE = 0.1;
/** The simulator memory holding each HPA's recent recommendations (for the stabilization windows). */
export const HPA_HISTORY = 'hpa-recommendations';

/** What an HPA may scale. */
type Scalable = Deployment | ReplicaSet | StatefulSet;

/** The status the HPA writes (its conditions as Condition, its metrics built per metric type). */
interface HpaStatus {
  currentReplicas?: number;
  desiredReplicas: number;
  lastScaleTime?: string;
  currentMetrics?: object[];
  conditions: Condition[];
}

const TARGETS: Record<string, { gvr: Resource<Scalable>; resource: string }> = {
  'apps/Deployment': { gvr: GVR.deployments, resource: 'deployments' },
  'apps/ReplicaSet': { gvr: GVR.replicasets, resource: 'replicasets' },
  'apps/StatefulSet': { gvr: GVR.statefulsets, resource: 'statefulsets' },
};

export function targetOf(
  hpa: HorizontalPodAutoscaler,
): { gvr: Resource<Scalable>; resource: string; name: string } | undefined {
  const ref: Partial<IHorizontalPodAutoscalerSpec['scaleTargetRef']> = hpa.spec?.scaleTargetRef ?? {};
  const { group } = parseApiVersion(String(ref.apiVersion ?? ''));
  const t = TARGETS[`${group}/${ref.kind}`];
  return t && ref.name ? { ...t, name: ref.name } : undefined;
}

/** Recommendations kept for the stabilization windows, per HPA uid. */
type History = Map<string, Array<{ at: number; replicas: number }>>;

function cond(type: string, status: Condition['status'], reason: string, message: string): Condition {
  return { type, status, reason, message };
}

export function reconcileHpa(sim: Sim, namespace: string, name: string): void {
  const hpa = getObj(sim, GVR.hpas, namespace, name);
  if (!hpa || hpa.metadata.deletionTimestamp) return;
  const spec: Partial<IHorizontalPodAutoscalerSpec> = hpa.spec ?? {};
  const old: Partial<IHorizontalPodAutoscalerStatus> = hpa.status ?? {};
  const now = sim.now();
  const ref = targetOf(hpa);
  const refText = `${spec.scaleTargetRef?.kind}/${spec.scaleTargetRef?.name}`;
  const target = ref ? getObj(sim, ref.gvr, namespace, ref.name) : undefined;
  if (!ref || !target) {
    const what = ref
      ? `${ref.resource}/scale.apps "${ref.name}" not found`
      : `no scale subresource for ${refText}`;
    write(
      sim,
      hpa,
      old,
      {
        ...(old.currentReplicas !== undefined ? { currentReplicas: old.currentReplicas } : {}),
        desiredReplicas: old.desiredReplicas ?? 0,
        conditions: [
          cond(
            'AbleToScale',
            'False',
            'FailedGetScale',
            `the HPA controller was unable to get the target's current scale: ${what}`,
          ),
        ],
      },
      now,
    );
    return;
  }
  const specReplicas = target.spec?.replicas ?? 1;
  const current = target.status?.replicas ?? 0;
  const minReplicas = spec.minReplicas ?? 1;
  const maxReplicas = spec.maxReplicas ?? minReplicas;
  const base: Partial<HpaStatus> = {
    ...(old.lastScaleTime ? { lastScaleTime: old.lastScaleTime } : {}),
    ...(current ? { currentReplicas: current } : {}),
  };
  const ableToScale = cond(
    'AbleToScale',
    'True',
    'SucceededGetScale',
    "the HPA controller was able to get the target's current scale",
  );

  if (specReplicas === 0 && minReplicas !== 0) {
    write(
      sim,
      hpa,
      old,
      {
        ...base,
        desiredReplicas: 0,
        conditions: [
          ableToScale,
          cond(
            'ScalingActive',
            'False',
            'ScalingDisabled',
            'scaling is disabled since the replica count of the target is zero',
          ),
        ],
      },
      now,
    );
    return;
  }

  const utilization = Number(hpa.metadata.annotations?.[UTILIZATION_ANNOTATION]);
  const metrics: IMetricSpec[] = spec.metrics ?? [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
  ];
  const usable = metrics.filter((m) => {
    const source =
      m.type === 'Resource' ? m.resource : m.type === 'ContainerResource' ? m.containerResource : undefined;
    return source?.target?.type === 'Utilization' && typeof source.target.averageUtilization === 'number';
  });
  const firstName = metrics[0]?.resource?.name ?? metrics[0]?.containerResource?.name ?? 'cpu';

  if (!Number.isFinite(utilization) || utilization < 0 || !usable.length) {
    // What a real HPA reports without a metrics server; it does not touch replicas.
    write(
      sim,
      hpa,
      old,
      {
        ...base,
        desiredReplicas: specReplicas,
        conditions: [
          ableToScale,
          cond(
            'ScalingActive',
            'False',
            'FailedGetResourceMetric',
            `the HPA was unable to compute the replica count: failed to get ${firstName} utilization: unable to get metrics for resource ${firstName}: no metrics returned from resource metrics API`,
          ),
        ],
      },
      now,
    );
    return;
  }

  const { desired, limited } = recommend(sim, hpa, {
    utilization,
    usable,
    specReplicas,
    ready: target.status?.readyReplicas ?? 0,
    minReplicas,
    maxReplicas,
    now,
  });
  const currentMetrics = usable.map((m) => {
    const source = (m.type === 'Resource' ? m.resource : m.containerResource)!;
    const key = m.type === 'Resource' ? 'resource' : 'containerResource';
    return {
      type: m.type,
      [key]: {
        name: source.name,
        ...('container' in source && source.container ? { container: source.container } : {}),
        current: { averageUtilization: Math.round(utilization) },
      },
    };
  });
  const metricName = (usable[0].resource ?? usable[0].containerResource)!.name;
  let ableCondition = cond(
    'AbleToScale',
    'True',
    'ReadyForNewScale',
    'recommended size matches current size',
  );
  let lastScaleTime = old.lastScaleTime;
  if (desired !== specReplicas) {
    const copy = { ...target, spec: { ...target.spec, replicas: desired } } as Scalable;
    writeObj(sim, ref.gvr, copy);
    lastScaleTime = timestamp(now);
    ableCondition = cond(
      'AbleToScale',
      'True',
      'SucceededRescale',
      `the HPA controller was able to update the target scale to ${desired}`,
    );
    const reason =
      desired > specReplicas
        ? `${metricName} resource utilization (percentage of request) above target`
        : 'All metrics below target';
    sim.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`, COMPONENT);
  }
  write(
    sim,
    hpa,
    old,
    {
      ...base,
      ...(lastScaleTime ? { lastScaleTime } : {}),
      desiredReplicas: desired,
      currentMetrics,
      conditions: [
        ableCondition,
        cond(
          'ScalingActive',
          'True',
          'ValidMetricFound',
          `the HPA was able to successfully calculate a replica count from ${metricName} resource utilization (percentage of request)`,
        ),
        limited,
      ],
    },
    now,
  );
}

/** Writes the status, carrying lastTransitionTime over for conditions whose status did not change. */
function write(
  sim: Sim,
  hpa: HorizontalPodAutoscaler,
  old: Partial<IHorizontalPodAutoscalerStatus>,
  status: HpaStatus,
  now: number,
): void {
  status.conditions = status.conditions.map((c) => {
    const prev = findCondition(old.conditions, c.type);
    return {
      ...c,
      lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : timestamp(now),
    };
  });
  writeStatus(sim, GVR.hpas, hpa, status);
}

interface RecommendArgs {
  utilization: number;
  usable: IMetricSpec[];
  specReplicas: number;
  ready: number;
  minReplicas: number;
  maxReplicas: number;
  now: number;
}

/**
 * reconcileAutoscaler's arithmetic: out-of-range replicas are brought to the
 * bounds; otherwise the largest per-metric proposal (ceil(ratio × ready pods),
 * within a 10 % tolerance keep the current count), stabilized over the
 * scale-up/scale-down windows, limited by the default scale-up rate
 * (max(2 × current, current + 4)) and by min/max.
 */
function recommend(
  sim: Sim,
  hpa: HorizontalPodAutoscaler,
  a: RecommendArgs,
): { desired: number; limited: Condition } {
  const spec: Partial<IHorizontalPodAutoscalerSpec> = hpa.spec ?? {};
  const within = cond(
    'ScalingLimited',
    'False',
    'DesiredWithinRange',
    'the desired count is within the acceptable range',
  );
  const tooMany = cond(
    'ScalingLimited',
    'True',
    'TooManyReplicas',
    'the desired replica count is more than the maximum replica count',
  );
  const tooFew = cond(
    'ScalingLimited',
    'True',
    'TooFewReplicas',
    'the desired replica count is less than the minimum replica count',
  );
  if (a.specReplicas > a.maxReplicas) return { desired: a.maxReplicas, limited: tooMany };
  if (a.specReplicas < a.minReplicas) return { desired: a.minReplicas, limited: tooFew };
  const basis = a.ready || a.specReplicas;
  let proposal = 0;
  for (const m of a.usable) {
    const source = (m.type === 'Resource' ? m.resource : m.containerResource)!;
    const ratio = a.utilization / (source.target.averageUtilization as number);
    proposal = Math.max(
      proposal,
      Math.abs(ratio - 1) <= TOLERANCE ? a.specReplicas : Math.ceil(ratio * basis),
    );
  }
  const history = sim.memory<History>(HPA_HISTORY, () => new Map());
  const uid = hpa.metadata.uid as string;
  const recs = (history.get(uid) ?? []).filter((r) => a.now - r.at < 3_600_000);
  recs.push({ at: a.now, replicas: proposal });
  history.set(uid, recs);
  const downWindow = spec.behavior?.scaleDown?.stabilizationWindowSeconds ?? 300;
  const upWindow = spec.behavior?.scaleUp?.stabilizationWindowSeconds ?? 0;
  const inWindow = (seconds: number) =>
    recs.filter((r) => a.now - r.at <= seconds * 1000).map((r) => r.replicas);
  const upFloor = Math.min(...inWindow(upWindow), proposal);
  const downCeil = Math.max(...inWindow(downWindow), proposal);
  let stabilized = a.specReplicas;
  if (stabilized < upFloor) stabilized = upFloor;
  if (stabilized > downCeil) stabilized = downCeil;
  if (proposal < stabilized) {
    // Held back by the scale-down window: look again once it has passed.
    sim.enqueue(
      keyOf(HPA, hpa.metadata.namespace as string, hpa.metadata.name as string),
      downWindow * 1000 + 50,
    );
  }
  if (stabilized > a.specReplicas) {
    const rateLimit = Math.max(2 * a.specReplicas, a.specReplicas + 4);
    if (a.maxReplicas > rateLimit && stabilized > rateLimit) {
      const limited = cond(
        'ScalingLimited',
        'True',
        'ScaleUpLimit',
        'the desired replica count is increasing faster than the maximum scale rate',
      );
      return { desired: rateLimit, limited };
    }
    if (stabilized > a.maxReplicas) return { desired: a.maxReplicas, limited: tooMany };
  } else if (stabilized < a.specReplicas && stabilized < a.minReplicas) {
    return { desired: a.minReplicas, limited: tooFew };
  }
  return { desired: stabilized, limited: within };
}
