import { RenderErrors, type AppSpec, type RenderedApp, type RenderError } from '#renderer';
import type { KeptRenders } from './kept-renders.js';

/**
 * Step 4's output: the render, or why there is none. `blamed` names the
 * joined standalone Traits the errors are located at: a Trait whose
 * properties do not validate (or whose output cannot be applied) is
 * rejected by itself, and the rest renders without it.
 */
export type RenderOutcome =
  { rendered: RenderedApp } | { errors: RenderError[]; blamed: ReadonlyMap<string, string> };

/**
 * Step 4, render. Only the renderer's own errors are a failed render (a
 * condition, no retry); anything else it throws is a bug or an outage and
 * goes to the queue.
 */
export async function render(
  renders: KeptRenders,
  key: string,
  spec: AppSpec,
  revision: { name: string; revision: number },
  /** The joined standalone Traits, by name. */
  traits: Readonly<Record<string, unknown>> | undefined,
): Promise<RenderOutcome> {
  try {
    return { rendered: await renders.render(key, spec, revision) };
  } catch (err) {
    if (!(err instanceof RenderErrors)) throw err;
    return { errors: err.errors, blamed: blamedTraits(err.errors, Object.keys(traits ?? {})) };
  }
}

/** The joined standalone Traits some render error is located at (`Trait "name" (type)`) → their errors. */
export function blamedTraits(errors: readonly RenderError[], traits: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of traits) {
    const own = errors.filter((e) => e.location.object?.startsWith(`Trait "${name}"`));
    if (own.length > 0) out.set(name, own.map((e) => e.message).join('; '));
  }
  return out;
}
