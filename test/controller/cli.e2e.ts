import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '#definitions';
import { eventually } from '#kube-core';
import { ensureBuilt } from '../support/build.js';
import { ControllerCluster, helloApp } from './harness.js';

/** `oam controller` as a user runs it: the built CLI in a child process, against the embedded server. */
const root = projectRoot();
let cluster: ControllerCluster;
let child: ChildProcess | undefined;

beforeAll(async () => {
  ensureBuilt(root);
  cluster = await ControllerCluster.start();
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await cluster?.stop();
});

const oam = (args: string[]) => [join(root, 'bin', 'oam.js'), ...args];

describe('oam controller', () => {
  it('reconciles in the foreground, logs JSON lines with the object key on stderr, stops cleanly on SIGTERM', async () => {
    const ns = await cluster.namespace('cli');
    const proc = spawn(
      process.execPath,
      oam(['controller', '--kubeconfig', cluster.server.kubeconfigPath, '--workers', '2']),
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = proc;
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    await eventually(() => stderr.includes('"oam controller started"'), 'the controller to start');
    await cluster.applyApp(helloApp(ns));
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'hello to be running');
    const lines = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.msg === 'applied')).toMatchObject({
      level: 'info',
      key: `${ns}/hello`,
      revision: 'hello-v1',
    });
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('says in one line, without a stack, what is wrong with its input', () => {
    const noContext = spawnSync(
      process.execPath,
      oam(['controller', '--kubeconfig', cluster.server.kubeconfigPath, '--context', 'nope']),
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(noContext.status).toBe(1);
    expect(noContext.stderr).toBe('error: no context "nope" in the kubeconfig (it has: oam-local)\n');
    const badWorkers = spawnSync(process.execPath, oam(['controller', '--workers', '0']), {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(badWorkers.status).not.toBe(0);
    expect(badWorkers.stderr).toContain('expected a positive integer');
    expect(badWorkers.stderr).not.toContain('    at ');
  });
});
