import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface OamRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `oam` (bin/oam.js) as a user would, to completion, with its output captured. */
export function runOam(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<OamRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'oam.js'), ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
