import type { KubeObject } from '#api';

interface CueWasm {
  parse(source: string): Record<string, unknown>;
}

let instance: Promise<CueWasm> | undefined;

/** cue-wasm throws plain strings; turn them into Errors that say what was evaluated. */
function evaluate(cue: CueWasm, what: string, source: string): Record<string, unknown> {
  try {
    return cue.parse(source);
  } catch (e) {
    throw new Error(`${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** One cue-wasm instance (CUE v0.4.3) for the whole test file: `init()` costs about 250 ms. */
export function cueWasm(): Promise<CueWasm> {
  // A computed specifier: cue-wasm ships no type declarations.
  const specifier = 'cue-wasm';
  instance ??= import(specifier).then((m: { init(): Promise<CueWasm> }) => m.init());
  return instance;
}

/** What the renderer reads from an evaluated template. */
export interface TemplateOutputs {
  output?: KubeObject;
  outputs: Record<string, KubeObject>;
  patch?: Record<string, unknown>;
}

/**
 * Evaluates a definition template the way the renderer does: the template
 * text, then `parameter:` and `context:` appended as JSON (imports stay first).
 */
export async function renderTemplate(
  template: string,
  parameter: unknown,
  context: Record<string, unknown>,
): Promise<TemplateOutputs> {
  const cue = await cueWasm();
  const source = `${template}\nparameter: ${JSON.stringify(parameter)}\ncontext: ${JSON.stringify(context)}\n`;
  const value = evaluate(cue, 'template', source);
  return {
    output: value.output as KubeObject | undefined,
    outputs: (value.outputs as Record<string, KubeObject> | undefined) ?? {},
    patch: value.patch as Record<string, unknown> | undefined,
  };
}

/** Evaluates a health policy or custom status against a live object, as KubeVela does. */
export async function evaluateStatus(
  policy: string,
  context: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const cue = await cueWasm();
  return evaluate(cue, 'status', `${policy}\ncontext: ${JSON.stringify(context)}\n`);
}
