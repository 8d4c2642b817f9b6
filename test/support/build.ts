import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Tests that run the `oam` command as a user would need the compiled CLI in
 * dist/. Rebuild it (a few seconds) so they never test stale code; type
 * errors are `npm run typecheck`'s business, so only a missing output fails.
 */
export function ensureBuilt(root: string): void {
  const main = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
  // A full run built it once already (test/support/global-setup.js).
  if (process.env.OAM_TEST_DIST_BUILT && existsSync(main)) return;
  spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'ignore',
      timeout: 240_000,
    },
  );
  if (!existsSync(main)) throw new Error(`build produced no ${main}: run \`npm run build\` to see why`);
}
