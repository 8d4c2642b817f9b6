import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The package's version (npm sets npm_package_version only under `npm run`). */
export function cliVersion(): string {
  if (cached) return cached;
  cached = process.env.npm_package_version;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!cached) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'oam-platform') cached = pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) cached = '0.0.0';
    dir = parent;
  }
  return cached;
}
