import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

export function definitionsDir(root = projectRoot()): string {
  return join(root, 'definitions');
}
