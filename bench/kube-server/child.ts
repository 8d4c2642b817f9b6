/** `oam server --no-controller` in its own process, for benchmarks that measure the server from outside. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { projectRoot } from '#definitions';
import { eventually } from '#kube-core';
import { httpsClient, type BenchClient } from './server.js';

/** A client for the child's kubeconfig. */
export function childClient(kubeconfig: string): BenchClient {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const cluster = kc.getCurrentCluster()!;
  const ca = cluster.caData
    ? Buffer.from(cluster.caData, 'base64').toString('utf8')
    : readFileSync(cluster.caFile!, 'utf8');
  return httpsClient(cluster.server, ca, kc.getCurrentUser()!.token!);
}

export { cpuMs } from '../proc.js';

/** Starts the server; with OAM_BENCH_CPU_PROF=DIR it writes its V8 CPU profile there (`<name>.cpuprofile`). */
export async function startChild(
  stateDir: string,
  name = 'server',
): Promise<{ proc: ChildProcess; kubeconfig: string }> {
  const prof = process.env.OAM_BENCH_CPU_PROF;
  const node = prof ? ['--cpu-prof', '--cpu-prof-dir', prof, `--cpu-prof-name=${name}.cpuprofile`] : [];
  const proc = spawn(
    process.execPath,
    [
      ...node,
      join(projectRoot(), 'bin', 'oam.js'),
      'server',
      '--port',
      '0',
      '--no-controller',
      '--state-dir',
      stateDir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  proc.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const kubeconfig = await eventually(
    () => /^export KUBECONFIG=(.+)$/m.exec(out)?.[1],
    'the server to start',
  ).catch((err: unknown) => {
    proc.kill('SIGKILL');
    throw new Error(`${String(err)}; its output:\n${out}`, { cause: err });
  });
  return { proc, kubeconfig };
}

export function stopChild(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}
