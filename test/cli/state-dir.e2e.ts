import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { projectRoot } from '#definitions';
import { KubeTransport, ResourceClient } from '#runtime';
import { isAlive } from '../../apps/cli/src/plane/plane.js';
import { ensureBuilt } from '../support/build.js';
import { runOam, type OamRun } from '../support/run-oam.js';

/**
 * $OAM_HOME written by another oam: one from an older oam (before
 * layout.json) is migrated in place and its objects survive; one from a
 * newer oam is refused by `oam up` and `oam server` with what to do, and
 * nothing in it changes. Never a silent reset.
 */
const root = projectRoot();
const homes: string[] = [];

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'oam-state-e2e-'));
  homes.push(home);
  return home;
}

function oam(home: string, args: string[]): Promise<OamRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, OAM_HOME: home, HOME: home };
  for (const key of ['KUBECONFIG', 'FORCE_COLOR', 'NO_COLOR', 'npm_package_version']) delete env[key];
  return runOam(root, args, env);
}

const APPS = {
  group: 'core.oam.dev',
  version: 'v1beta1',
  plural: 'applications',
  kind: 'Application',
  namespaced: true,
};

async function helloUid(home: string): Promise<string> {
  const plane = JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as { kubeconfig: string };
  const kc = new KubeConfig();
  kc.loadFromFile(plane.kubeconfig);
  const transport = new KubeTransport(kc);
  try {
    return (await new ResourceClient(transport, APPS).get('default', 'hello')).metadata!.uid!;
  } finally {
    transport.close();
  }
}

beforeAll(() => ensureBuilt(root), 240_000);
afterAll(async () => {
  for (const home of homes) {
    await oam(home, ['server', 'stop']).catch(() => undefined);
    const file = join(home, 'plane.json');
    if (existsSync(file)) {
      const { pid } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number };
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(home, { recursive: true, force: true });
  }
}, 60_000);

describe('a state directory another oam wrote', () => {
  it('from a newer oam: oam up and oam server refuse (exit 3), saying which and what to do; nothing started or changed', async () => {
    const home = newHome();
    const layout = JSON.stringify({ layout: 99, writtenBy: '9.0.0' });
    writeFileSync(join(home, 'layout.json'), layout);
    const expected = `error: ${home} was written by oam 9.0.0 (state layout 99); this is oam `;
    const up = await oam(home, ['up', '-f', 'examples/hello']);
    expect(up.code).toBe(3);
    expect(up.stderr).toContain(expected);
    expect(up.stderr).toContain('set OAM_HOME to another directory');
    expect(up.stderr).not.toMatch(/^\s+at /m);
    const server = await oam(home, ['server', '--port', '0']);
    expect(server.code).toBe(3);
    expect(server.stderr).toContain(expected);
    expect(existsSync(join(home, 'plane.json'))).toBe(false);
    expect(existsSync(join(home, 'server'))).toBe(false);
    expect(readFileSync(join(home, 'layout.json'), 'utf8')).toBe(layout);
  });

  it('from an older oam (no layout.json): migrated in place with a message, its Applications kept', async () => {
    const home = newHome();
    const first = await oam(home, ['up', '-f', 'examples/hello']);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('migrated');
    expect(JSON.parse(readFileSync(join(home, 'layout.json'), 'utf8'))).toMatchObject({ layout: 1 });
    const uid = await helloUid(home);
    expect((await oam(home, ['server', 'stop'])).code).toBe(0);
    rmSync(join(home, 'layout.json')); // as an oam from before layout.json left it

    const r = await oam(home, ['up', '-f', 'examples/hello']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `migrated ${home} from state layout 0 (an older oam) to 1; everything in it was kept`,
    );
    expect(r.stdout).toContain('starting the local plane');
    expect(r.stdout).toContain('hello is healthy');
    expect(await helloUid(home)).toBe(uid);
    expect(JSON.parse(readFileSync(join(home, 'layout.json'), 'utf8'))).toMatchObject({ layout: 1 });
  });
});
