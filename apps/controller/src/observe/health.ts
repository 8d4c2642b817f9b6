import type { Definition, ServiceStatus } from '#api';
import { type TypedObject } from '#kube-core';
import { evaluateHealth, type RenderedApp, type RenderedComponent, type RendererHandle } from '#renderer';
import { defaultHealth } from './default-health.js';

/** Reads a live object (from the informer cache) for a rendered one. Typed with libs/api's TypedObject, which the renderer speaks. */
export type LiveLookup = (rendered: TypedObject) => Promise<TypedObject | undefined>;

/**
 * Health per component and trait, KubeVela's `status.services[]`: each
 * definition's health policy and custom status evaluated against the cached
 * live objects (the workload as `context.output`, the outputs by name as
 * `context.outputs`); a policy-less workload gets the default for its kind.
 */
export async function observeHealth(
  rendered: RenderedApp,
  live: LiveLookup,
  engine: RendererHandle['health'],
): Promise<ServiceStatus[]> {
  return Promise.all(rendered.components.map((c) => componentHealth(rendered, c, live, engine)));
}

async function componentHealth(
  rendered: RenderedApp,
  component: RenderedComponent,
  live: LiveLookup,
  engine: RendererHandle['health'],
): Promise<ServiceStatus> {
  const resolved = rendered.app.components.find((c) => c.name === component.name)!;
  const workload = component.workload.object;
  const base = {
    name: component.name,
    namespace: rendered.app.namespace,
    workloadDefinition: { apiVersion: workload.apiVersion, kind: workload.kind },
  };
  const output = await live(workload);
  if (!output)
    return {
      ...base,
      healthy: false,
      message: `waiting for ${workload.kind} "${workload.metadata?.name}" to exist`,
    };
  const { context } = component;
  // Only outputs that exist: a policy such as gateway's "an Ingress exists" must not pass on intent alone.
  const outputsOf = async (pick: (o: RenderedComponent['objects'][number]) => boolean) => {
    const entries = await Promise.all(
      component.objects
        .filter((o) => o.outputName !== undefined && pick(o))
        .map(async (o) => [o.outputName!, await live(o.object)] as const),
    );
    return Object.fromEntries(entries.filter(([, obj]) => obj !== undefined)) as Record<string, TypedObject>;
  };
  const policy = policyOf(resolved.definition);
  const scope = { tenant: context.namespace }; // the app's namespace takes its turn at the workers
  // A definition's component outputs (webservice's Service) are rendered as trait type AuxiliaryWorkload.
  const auxiliary = (o: RenderedComponent['objects'][number]) => o.traitType === 'AuxiliaryWorkload';
  let health = defaultHealth(output);
  if (policy) {
    const state = { output, outputs: await outputsOf(auxiliary), parameter: resolved.properties, context };
    const evaluated = await evaluateHealth(policy, state, engine, scope);
    // Without an isHealth policy, the kind's default decides; the custom message still shows.
    health = policy.healthPolicy?.trim()
      ? evaluated
      : { healthy: health.healthy, message: evaluated.message };
  }
  const traits = await Promise.all(
    resolved.traits.map(async (t) => {
      const p = policyOf(t.definition);
      if (!p) return { type: t.type, healthy: true };
      const outputs = await outputsOf((o) => o.traitType === t.type);
      const h = await evaluateHealth(p, { output, outputs, parameter: t.properties, context }, engine, scope);
      return { type: t.type, healthy: h.healthy, ...(h.message ? { message: h.message } : {}) };
    }),
  );
  return {
    ...base,
    healthy: health.healthy && traits.every((t) => t.healthy),
    ...(health.message ? { message: health.message } : {}),
    ...(traits.length > 0 ? { traits } : {}),
  };
}

function policyOf(d: Definition): { healthPolicy?: string; customStatus?: string } | undefined {
  const s = d.spec.status;
  return s?.healthPolicy?.trim() || s?.customStatus?.trim() ? s : undefined;
}
