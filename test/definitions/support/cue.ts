import { afterAll } from '@jest/globals';
import { type TypedObject } from '#kube-core';
// The renderer's own CUE engine, parameter validation and health evaluation, so these tests
// see the definitions exactly as `oam render` and the controller will (internal to #renderer,
// hence the relative imports).
import {
  createCueEngine,
  type CueEngine,
  type CueTemplate,
} from '../../../libs/renderer/src/engines/cue/index.js';
import type { RenderContext } from '../../../libs/renderer/src/engines/engine.js';
import { evaluateHealth, type HealthPolicy } from '../../../libs/renderer/src/health/index.js';
import type { PatchKeys } from '../../../libs/renderer/src/index.js';

let engine: CueEngine | undefined;
const compiled = new Map<string, CueTemplate>();

/** One engine (one worker thread) per test file, closed when the file is done. */
export function cueEngine(): CueEngine {
  engine ??= createCueEngine({ timeoutMs: 30_000, poolSize: 1 });
  return engine;
}
afterAll(async () => {
  await engine?.close();
  engine = undefined;
  compiled.clear();
});

/** A template compiled by the engine (once per text). */
export function compileTemplate(template: string, definition = 'definition under test'): CueTemplate {
  let found = compiled.get(template);
  if (!found) {
    found = cueEngine().compile(definition, template);
    compiled.set(template, found);
  }
  return found;
}

/** What the renderer reads from an evaluated template. */
export interface TemplateOutputs {
  output?: TypedObject;
  outputs: Record<string, TypedObject>;
  patch?: Record<string, unknown>;
  patchKeys: PatchKeys;
}

/**
 * Evaluates a definition template as the renderer does: the properties are
 * first validated against the parameter schema the engine exports (strictly:
 * an unknown property is an error here), then evaluated with `context`.
 */
export async function renderTemplate(
  template: string,
  properties: Record<string, unknown>,
  context: Record<string, unknown>,
): Promise<TemplateOutputs> {
  const compiledTemplate = compileTemplate(template);
  const checked = await compiledTemplate.validate!(properties, { strict: true });
  if (checked.issues.length > 0) {
    throw new Error(`invalid properties: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
  const result = await compiledTemplate.evaluate({
    parameter: checked.value,
    context: context as unknown as RenderContext,
  });
  return { output: result.output, outputs: result.outputs, patch: result.patch, patchKeys: result.patchKeys };
}

/**
 * A definition's health policy and custom status against live objects, through the
 * renderer's own evaluateHealth (KubeVela's `context.output`/`context.outputs` and `parameter`).
 */
export async function statusOf(
  policy: HealthPolicy,
  live: { output: TypedObject; outputs?: Record<string, TypedObject>; parameter?: Record<string, unknown> },
): Promise<{ isHealth: boolean; message?: string }> {
  const { healthy, message } = await evaluateHealth(policy, live, cueEngine());
  return message === undefined ? { isHealth: healthy } : { isHealth: healthy, message };
}
