import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { KubeTransport, RestMapper, ResourceClient } from '#runtime';
import { ensureBuilt } from '../support/build.js';

/** `oam server` as a user runs it: one command, and an applied Application becomes healthy. */
const root = projectRoot();
const home = mkdtempSync(join(tmpdir(), 'oam-server-e2e-'));
let child: ChildProcess | undefined;
let transport: KubeTransport | undefined;

beforeAll(() => ensureBuilt(root), 240_000);
afterAll(() => {
  transport?.close();
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('oam server', () => {
  it('hosts the controller: an Application applied to it becomes healthy; logs go to stderr, not stdout', async () => {
    const proc = spawn(
      process.execPath,
      [join(root, 'bin', 'oam.js'), 'server', '--port', '0', '--state-dir', join(home, 'server')],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OAM_HOME: home } },
    );
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const kubeconfigPath = await eventually(
      () => /^export KUBECONFIG=(.+)$/m.exec(stdout)?.[1] ?? (proc.exitCode !== null ? 'exited' : undefined),
      `oam server to print its kubeconfig (stderr so far: ${stderr.slice(-500)})`,
      { timeoutMs: 60_000 },
    );
    expect(kubeconfigPath).toBe(join(home, 'server', 'kubeconfig'));
    expect(stdout).toContain('oam controller reconciling Applications');

    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigPath);
    transport = new KubeTransport(kc);
    const mapper = new RestMapper(transport);
    const app = parseAllDocuments(
      readFileSync(join(root, 'examples', 'hello', 'app.yaml'), 'utf8'),
    )[0].toJS() as KubeObject;
    const apps = new ResourceClient(transport, await mapper.kindFor(app));
    await apps.apply(
      { ...app, metadata: { ...app.metadata, namespace: 'default' } },
      { fieldManager: 'e2e-user' },
    );
    const running = await eventually(async () => {
      const live = await apps.get('default', app.metadata!.name!);
      return (live.status as { status?: string } | undefined)?.status === 'running' ? live : undefined;
    }, 'the hello Application to be running');
    expect((running.status as { services: unknown[] }).services).toEqual([
      expect.objectContaining({ name: 'hello-web', healthy: true }),
    ]);

    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Everything on stdout is for a person: no JSON log lines.
    expect(stdout.split('\n').filter((l) => l.startsWith('{'))).toEqual([]);
    expect(stderr).toContain('"msg":"API server listening"');
  });
});
