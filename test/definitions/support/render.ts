import { afterAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Definition } from '#api';
import { type TypedObject } from '#kube-core';
import { createRenderer, parseSources, renderSources, type RendererHandle } from '#renderer';
import { DEFINITIONS_DIR, loadDefinitionFiles } from './load.js';

let handle: RendererHandle | undefined;
let builtins: Definition[] | undefined;
afterAll(async () => {
  await handle?.close();
  handle = undefined;
});

/** The built-in definitions as `oam render` installs them. */
function builtinDefinitions(): Definition[] {
  if (!builtins) {
    const files = loadDefinitionFiles().map((f) => ({
      path: join('definitions', f.path),
      text: readFileSync(join(DEFINITIONS_DIR, f.path), 'utf8'),
    }));
    const parsed = parseSources(files);
    if (parsed.errors.length > 0) throw new Error(parsed.errors.map((e) => e.message).join('\n'));
    builtins = parsed.objects.map((o) => o.object as Definition);
  }
  return builtins;
}

export interface Rendered {
  objects: TypedObject[];
  errors: string[];
}

/** Renders YAML (Applications, and definitions that override or add to the built-ins) end to end. */
export async function renderYaml(text: string): Promise<Rendered> {
  handle ??= createRenderer({ timeoutMs: 30_000, poolSize: 1 });
  const result = await renderSources([{ path: 'app.yaml', text }], handle.renderer, {
    builtins: builtinDefinitions(),
  });
  return {
    objects: result.apps.flatMap((a) => a.objects.map((o) => o.object)),
    errors: result.errors.map((e) => e.message),
  };
}

/** The one object of that kind (and name, when given), or an error listing what was rendered. */
export function find(rendered: Rendered, kind: string, name?: string): Record<string, any> {
  const found = rendered.objects.filter((o) => o.kind === kind && (!name || o.metadata?.name === name));
  if (found.length !== 1) {
    const all = rendered.objects.map((o) => `${o.kind}/${o.metadata?.name}`).join(', ');
    throw new Error(
      `expected one ${kind}${name ? ` ${name}` : ''}, rendered: ${all}; errors: ${rendered.errors}`,
    );
  }
  return found[0] as Record<string, any>;
}
