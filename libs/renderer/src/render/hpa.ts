import { type TypedObject } from '#kube-core';
import { RenderError } from '../errors.js';
import type { RenderedComponent } from './result.js';

const REPLICAS = ['spec', 'replicas'];

/**
 * When a trait output is a HorizontalPodAutoscaler aimed at the component's
 * workload, the HPA owns `spec.replicas`: mark it so the controller leaves it
 * out of apply. A value set anyway (by `scaler`, or the template) only seeds
 * the initial replica count, which deserves a warning, not an error.
 */
export function markAutoscaledReplicas(component: RenderedComponent): RenderError[] {
  const workload = component.workload.object;
  const hpa = component.objects.find((o) => o.role === 'trait' && targetsWorkload(o.object, workload));
  if (!hpa) return [];
  component.workload.omitOnApply.push(REPLICAS);
  const replicas = (workload.spec as { replicas?: unknown } | undefined)?.replicas;
  if (replicas === undefined) return [];
  const detail =
    `spec.replicas (${String(replicas)}) only seeds the initial replica count: ` +
    `the HorizontalPodAutoscaler from trait "${hpa.traitType}" owns it from then on`;
  return [new RenderError(detail, { subject: `component "${component.name}"` })];
}

function targetsWorkload(candidate: TypedObject, workload: TypedObject): boolean {
  if (candidate.kind !== 'HorizontalPodAutoscaler') return false;
  const ref = (candidate.spec as { scaleTargetRef?: { kind?: string; name?: string } } | undefined)
    ?.scaleTargetRef;
  return ref?.kind === workload.kind && ref?.name === workload.metadata?.name;
}
