import { type TypedObject } from '#kube-core';
import { healthRequest, type CueEngine } from '../engines/cue/index.js';
import type { EvalScope, RenderContext } from '../engines/engine.js';

/** A definition's `status` section, KubeVela's shape: CUE that reads `context.output`. */
export interface HealthPolicy {
  /** CUE setting `isHealth: bool`. */
  healthPolicy?: string;
  /** CUE setting `message: string`, shown to users. */
  customStatus?: string;
}

/** What the policies see: the live objects (status included), the component's parameters and render context. */
export interface LiveState {
  output: TypedObject;
  outputs?: Record<string, TypedObject>;
  parameter?: Record<string, unknown>;
  /**
   * The `context` the component was rendered with (RenderedComponent.context):
   * KubeVela's custom status templates read `context.appName`, `context.namespace`, ...
   */
  context?: Omit<RenderContext, 'output' | 'outputs'>;
}

export interface HealthResult {
  healthy: boolean;
  message?: string;
}

/**
 * Evaluates a definition's health policy and custom status against the live
 * workload, as KubeVela does. No policy means healthy. Never throws: a policy
 * that fails (a CUE error, a timeout, a non-bool `isHealth`) makes the
 * component unhealthy, with the reason as its message.
 */
export async function evaluateHealth(
  policy: HealthPolicy,
  live: LiveState,
  engine: Pick<CueEngine, 'evaluateSource' | 'policyContext'>,
  /** Whose turn the evaluations take at the workers (the application's namespace). */
  scope?: EvalScope,
): Promise<HealthResult> {
  // The live objects replace whatever the render context held under those keys.
  const context = { ...live.context, output: live.output, outputs: live.outputs ?? {} };
  const parameter = live.parameter ?? {};
  const field = async (label: string, cue: string | undefined, name: string) => {
    if (!cue?.trim()) return { value: undefined };
    try {
      const request = healthRequest({
        source: cue,
        parameter,
        context: await engine.policyContext(cue, context),
        fields: [name],
      });
      return { value: (await engine.evaluateSource(label, request, scope))[name] };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };
  const [health, status] = await Promise.all([
    field('healthPolicy', policy.healthPolicy, 'isHealth'),
    field('customStatus', policy.customStatus, 'message'),
  ]);

  if (health.error !== undefined) return { healthy: false, message: `health policy failed: ${health.error}` };
  let healthy = true;
  if (policy.healthPolicy?.trim()) {
    if (typeof health.value !== 'boolean') {
      return {
        healthy: false,
        message: `health policy must set isHealth to a bool, got ${JSON.stringify(health.value)}`,
      };
    }
    healthy = health.value;
  }
  if (status.error !== undefined) return { healthy, message: `custom status failed: ${status.error}` };
  if (status.value === undefined) return { healthy };
  const message = typeof status.value === 'string' ? status.value : JSON.stringify(status.value);
  return { healthy, message };
}
