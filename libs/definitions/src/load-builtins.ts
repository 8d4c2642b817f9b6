import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import type { Definition } from '#api';
import { parseSources, type SourceFile } from '#renderer';
import { definitionsDir, projectRoot } from './project-root.js';

/** A built-in definition that does not parse: our bug, reported like any input error. */
export class BuiltinDefinitionsError extends Error {
  constructor(readonly problems: string[]) {
    super(`built-in definitions are invalid:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'BuiltinDefinitionsError';
  }
}

/** The definitions a caller needs, by kind and name (see `loadBuiltinDefinitions`). */
export interface WantedDefinitions {
  components: readonly string[];
  traits: readonly string[];
}

/**
 * The built-in ComponentDefinitions and TraitDefinitions shipped in definitions/.
 *
 * With `only`, a one-shot command (`oam render`) parses just the files named after the
 * definitions it uses (`webservice.yaml` for `webservice`): parsing every built-in costs
 * more than rendering one application. When one of them is not found that way (an unknown
 * type, or a file named otherwise), every built-in is loaded, so "unknown type" errors still
 * list every name and nothing depends on the naming convention but speed.
 */
export async function loadBuiltinDefinitions(
  root = projectRoot(),
  only?: WantedDefinitions,
): Promise<Definition[]> {
  const paths = await yamlTree(definitionsDir(root));
  if (only) {
    const names = new Set([...only.components, ...only.traits]);
    const subset = await parse(
      paths.filter((p) => names.has(basename(p, extname(p)))),
      root,
    );
    const has = (kind: Definition['kind'], name: string) =>
      subset.some((d) => d.kind === kind && d.metadata.name === name);
    if (
      only.components.every((n) => has('ComponentDefinition', n)) &&
      only.traits.every((n) => has('TraitDefinition', n))
    )
      return subset;
  }
  return parse(paths, root);
}

async function parse(paths: readonly string[], root: string): Promise<Definition[]> {
  const files: SourceFile[] = await Promise.all(
    paths.map(async (p) => ({ path: relative(root, p), text: await readFile(p, 'utf8') })),
  );
  const parsed = parseSources(files);
  if (parsed.errors.length > 0) throw new BuiltinDefinitionsError(parsed.errors.map((e) => e.message));
  return parsed.objects
    .filter((o) => o.kind === 'ComponentDefinition' || o.kind === 'TraitDefinition')
    .map((o) => o.object as Definition);
}

/** Every .yaml/.yml below `dir`, in sorted order so the result is stable. */
async function yamlTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await yamlTree(full)));
    else if (extname(e.name) === '.yaml' || extname(e.name) === '.yml') out.push(full);
  }
  return out;
}
