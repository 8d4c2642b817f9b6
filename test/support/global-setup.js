// Jest globalSetup: on a full run, build dist/ once for every suite that runs the `oam` command,
// instead of each of them compiling the project in parallel on two cores.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export default function globalSetup(globalConfig) {
  if (globalConfig.nonFlagArgs.length > 0) return; // a targeted run: suites that need dist/ build it
  const root = globalConfig.rootDir;
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0)
    throw new Error('`tsc -p tsconfig.build.json` failed: run `npm run build` to see why');
  process.env.OAM_TEST_DIST_BUILT = '1';
}
