import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { projectRoot } from '#definitions';
import { eventually } from '#kube-core';
import { ensureBuilt } from '../support/build.js';
import { runOam } from '../support/run-oam.js';
import { call } from './harness.js';

/** The REST API as the CLI runs it: inside `oam server` (recorded in plane.json) and as `oam api`. */
const root = projectRoot();
const home = mkdtempSync(join(tmpdir(), 'oam-api-cli-e2e-'));
const env = { ...process.env, OAM_HOME: home };
const children: ChildProcess[] = [];

beforeAll(() => ensureBuilt(root), 240_000);
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

function start(args: string[]) {
  const proc = spawn(process.execPath, [join(root, 'bin', 'oam.js'), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  const out = { stdout: '', stderr: '' };
  proc.stdout!.on('data', (d: Buffer) => (out.stdout += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, out, exited };
}

describe('the REST API from the CLI', () => {
  it('oam server starts it on a free port with a generated token recorded in plane.json; oam api serves in the foreground', async () => {
    const server = start(['server', '--port', '0', '--state-dir', join(home, 'server')]);
    const plane = await eventually(
      () => {
        if (server.proc.exitCode !== null)
          throw new Error(`oam server exited: ${server.out.stderr.slice(-800)}`);
        try {
          const record = JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8'));
          return record.api ? record : undefined;
        } catch {
          return undefined;
        }
      },
      'plane.json to record the REST API',
      { timeoutMs: 90_000 },
    );
    expect(plane.api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(plane.api.tokensFile).toBe(join(home, 'api-tokens.yaml'));
    expect(statSync(plane.api.tokensFile).mode & 0o777).toBe(0o600);
    const token = parse(readFileSync(plane.api.tokensFile, 'utf8'))[0].token as string;
    expect(server.out.stdout).toContain(`oam REST API on ${plane.api.url}`);
    expect(server.out.stdout).not.toContain(token);
    expect(server.out.stdout).toContain(`oam web catalog on ${plane.api.url}/ui/`);

    const catalog = await call(plane.api.url, 'GET', '/api/v1/catalog/components', { token });
    expect(catalog.status).toBe(200);
    expect((await call(plane.api.url, 'GET', '/api/v1/catalog/components')).status).toBe(401);

    const status = await runOam(root, ['server', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`REST API\\s+${plane.api.url.replace(/\./g, '\\.')}`));

    // The foreground command against the plane's kubeconfig, with the cluster's own tokens.
    const api = start(['api', '--kubeconfig', plane.kubeconfig, '--port', '0']);
    const url = await eventually(
      () => {
        if (api.proc.exitCode !== null) throw new Error(`oam api exited: ${api.out.stderr.slice(-800)}`);
        return /listening on (http:\/\/\S+)/.exec(api.out.stdout)?.[1];
      },
      'oam api to listen',
      { timeoutMs: 60_000 },
    );
    expect(api.out.stdout).toContain('auth: kubernetes');
    const kc = new KubeConfig();
    kc.loadFromFile(plane.kubeconfig);
    const list = await call(url, 'GET', '/api/v1/namespaces/default/applications', {
      token: kc.getCurrentUser()!.token!,
    });
    expect(list.status).toBe(200);
    expect((await call(url, 'GET', '/api/v1/namespaces/default/applications', { token })).status).toBe(401);
    api.proc.kill('SIGTERM');
    expect(await api.exited).toBe(0);
    expect(api.out.stderr).not.toContain(kc.getCurrentUser()!.token!);

    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.out.stderr).not.toContain(token);
  });

  it('oam api refuses a missing or broken tokens file with one line, exit 1', async () => {
    const missing = await runOam(root, ['api', '--auth', 'tokens'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--auth tokens needs --tokens-file/);
    const broken = await runOam(root, ['api', '--tokens-file', join(home, 'nope.yaml')], env);
    expect(broken.code).toBe(1);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toMatch(/nope\.yaml: cannot read the tokens file/);
  });
});
