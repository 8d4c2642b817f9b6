import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Definition } from '#api';
import { parseSources } from '#renderer';
import { readInputs } from './read-inputs.js';
import { UserError } from '../output/user-error.js';

/** The project root: where package.json and definitions/ are, whether we run from dist/ or from sources. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'definitions')) || !existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('cannot find the project root (a folder with package.json and definitions/)');
    dir = parent;
  }
  return dir;
}

/** The built-in ComponentDefinitions and TraitDefinitions shipped in definitions/. */
export async function loadBuiltinDefinitions(root = projectRoot()): Promise<Definition[]> {
  const files = await readInputs([join(root, 'definitions')]);
  const parsed = parseSources(files);
  if (parsed.errors.length > 0) {
    // A broken built-in is our bug, but it should still read like any other error.
    throw new UserError(
      `built-in definitions are invalid:\n${parsed.errors.map((e) => `  ${e.message}`).join('\n')}`,
    );
  }
  return parsed.objects
    .filter((o) => o.kind === 'ComponentDefinition' || o.kind === 'TraitDefinition')
    .map((o) => o.object as Definition);
}
