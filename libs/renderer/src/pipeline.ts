import type { Definition } from '#api';
import { RenderError, RenderErrors } from './errors.js';
import { parseSources, type OamObject, type SourceFile } from './parse/index.js';
import type { Renderer } from './render/renderer.js';
import type { ClusterInfo } from './render/context.js';
import { RenderFailure, type RenderedApp } from './render/result.js';
import { InMemoryCatalog, resolveObjects } from './resolve/index.js';

export interface DryRunOptions {
  /** Definitions that inputs may override (the built-ins of `definitions/`). */
  builtins: readonly Definition[];
  strict?: boolean;
  defaultNamespace?: string;
  /** The cluster to render for (see RenderOptions.cluster). */
  cluster?: ClusterInfo;
  /** Stops the evaluations (see RenderOptions.signal). */
  signal?: AbortSignal;
}

export interface DryRunResult {
  apps: RenderedApp[];
  errors: RenderError[];
  warnings: RenderError[];
}

/**
 * parse → resolve → render for files, as `oam render` and the REST API's
 * preview need it. All-or-nothing: when `errors` is not empty, `apps` is
 * empty, so no caller can act on half a result.
 */
export async function renderSources(
  files: readonly SourceFile[],
  renderer: Renderer,
  options: DryRunOptions,
): Promise<DryRunResult> {
  const parsed = parseSources(files);
  if (parsed.errors.length > 0) return { apps: [], errors: parsed.errors, warnings: parsed.warnings };
  const result = await renderObjects(parsed.objects, renderer, options);
  return { ...result, warnings: [...parsed.warnings, ...result.warnings] };
}

export async function renderObjects(
  objects: readonly OamObject[],
  renderer: Renderer,
  options: DryRunOptions,
): Promise<DryRunResult> {
  const inputDefinitions = objects
    .filter((o) => o.kind === 'ComponentDefinition' || o.kind === 'TraitDefinition')
    .map((o) => o.object as Definition);
  const catalog = new InMemoryCatalog([inputDefinitions, options.builtins]);
  const resolved = resolveObjects(objects, catalog, { defaultNamespace: options.defaultNamespace });
  if (resolved.errors.length > 0) return { apps: [], errors: resolved.errors, warnings: resolved.warnings };
  const apps: RenderedApp[] = [];
  const errors: RenderError[] = [];
  const warnings = [...resolved.warnings];
  for (const app of resolved.apps) {
    try {
      const rendered = await renderer.render(app, {
        strict: options.strict,
        cluster: options.cluster,
        signal: options.signal,
      });
      apps.push(rendered);
      warnings.push(...rendered.warnings);
    } catch (err) {
      if (!(err instanceof RenderErrors)) throw err;
      errors.push(...err.errors);
      // Warnings matter most when something failed: keep them next to the errors.
      if (err instanceof RenderFailure) warnings.push(...err.warnings);
    }
  }
  return errors.length > 0 ? { apps: [], errors, warnings } : { apps, errors, warnings };
}
