import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
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

/** The built-in ComponentDefinitions and TraitDefinitions shipped in definitions/. */
export async function loadBuiltinDefinitions(root = projectRoot()): Promise<Definition[]> {
  const files = await readYamlTree(definitionsDir(root), root);
  const parsed = parseSources(files);
  if (parsed.errors.length > 0) throw new BuiltinDefinitionsError(parsed.errors.map((e) => e.message));
  return parsed.objects
    .filter((o) => o.kind === 'ComponentDefinition' || o.kind === 'TraitDefinition')
    .map((o) => o.object as Definition);
}

/** Every .yaml/.yml below `dir`, in sorted order so the result is stable; paths shown relative to `root`. */
async function readYamlTree(dir: string, root: string): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await readYamlTree(full, root)));
    else if (extname(e.name) === '.yaml' || extname(e.name) === '.yml')
      out.push({ path: relative(root, full), text: await readFile(full, 'utf8') });
  }
  return out;
}
