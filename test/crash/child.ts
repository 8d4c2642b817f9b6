import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The embedded server running in a child process (test/crash/server-child.mjs). */
export interface ServerChild {
  process: ChildProcess;
  url: string;
  kubeconfigPath: string;
  output(): string;
}

export function startServerChild(root: string, stateDir: string, timeoutMs = 30_000): Promise<ServerChild> {
  const child = spawn(process.execPath, [join(root, 'test', 'crash', 'server-child.mjs'), stateDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server child did not print READY within ${timeoutMs} ms; output:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = /^READY (.*)$/m.exec(output);
      if (!line) return;
      clearTimeout(timer);
      const info = JSON.parse(line[1]) as { url: string; kubeconfigPath: string };
      resolve({ process: child, ...info, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`server child exited (code ${code}, signal ${signal}) before READY; output:\n${output}`),
      );
    });
  });
}

export function killHard(child: ServerChild): Promise<void> {
  return new Promise((resolve) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return resolve();
    child.process.once('exit', () => resolve());
    child.process.kill('SIGKILL');
  });
}
