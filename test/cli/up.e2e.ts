import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { projectRoot } from '#definitions';
import { eventually } from '#kube-core';
import { isNotFound, KubeTransport, NAMESPACES, ResourceClient } from '#runtime';
import { isAlive } from '../../apps/cli/src/plane/plane.js';
import { ensureBuilt } from '../support/build.js';
import { runOam, type OamRun } from '../support/run-oam.js';

/**
 * `oam up`, `status`, `ls`, `delete` and `server status|stop` as a user runs
 * them: the built `oam` in a child process, in a pipe (so never a TTY), with a
 * temporary OAM_HOME and HOME and no KUBECONFIG, so the developer's own
 * ~/.kube/config is never read and the target is the local plane.
 */
const root = projectRoot();
const home = mkdtempSync(join(tmpdir(), 'oam-up-e2e-'));
const inputs = mkdtempSync(join(tmpdir(), 'oam-up-inputs-'));

type Run = OamRun;

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, OAM_HOME: home, HOME: home };
  for (const key of ['KUBECONFIG', 'FORCE_COLOR', 'NO_COLOR', 'npm_package_version']) delete env[key];
  return env;
}

function oam(args: string[], env: NodeJS.ProcessEnv = baseEnv()): Promise<Run> {
  return runOam(root, args, env);
}

function plane(): { pid: number; apiServer: string; kubeconfig: string } {
  return JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as {
    pid: number;
    apiServer: string;
    kubeconfig: string;
  };
}

/** Signal 0, and not a zombie: the plane outlives the `oam up` that started it, and nothing may reap it here. */
const alive = isAlive;

function input(name: string, text: string): string {
  const path = join(inputs, name);
  writeFileSync(path, text);
  return path;
}

/** Reads the plane directly (not through `oam`), to check what was and was not applied. */
async function namespaceExists(name: string): Promise<boolean> {
  const kc = new KubeConfig();
  kc.loadFromFile(plane().kubeconfig);
  const transport = new KubeTransport(kc);
  try {
    await new ResourceClient(transport, NAMESPACES).get(undefined, name);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  } finally {
    transport.close();
  }
}

const ESC = '\u001b[';

beforeAll(() => ensureBuilt(root), 240_000);
afterAll(async () => {
  // Always stop the plane this suite started, even when a test failed half-way.
  await oam(['server', 'stop']).catch(() => undefined);
  if (existsSync(join(home, 'plane.json'))) {
    const { pid } = plane();
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(home, { recursive: true, force: true });
  rmSync(inputs, { recursive: true, force: true });
}, 60_000);

describe('oam up on the local plane', () => {
  it('starts the local plane (once, for two at a time), applies examples/hello, waits until healthy and prints the tree (exit 0), with no escape codes in a pipe', async () => {
    // Two at once, as from two terminals: exactly one starts the plane, the other waits for it.
    const both = await Promise.all([
      oam(['up', '-f', 'examples/hello']),
      oam(['up', '-f', 'examples/hello/app.yaml']),
    ]);
    const starters = both.filter((run) => run.stdout.includes('starting the local plane'));
    expect(starters).toHaveLength(1);
    const [r] = starters;
    const other = both.find((run) => run !== r)!;
    expect(other.stderr).toBe('');
    expect(other.code).toBe(0);
    expect(other.stdout).toContain('hello is healthy');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('→ local plane (not running yet)');
    expect(r.stdout).toContain(
      `starting the local plane in the background (logs: ${join(home, 'logs', 'server.log')})`,
    );
    expect(r.stdout).toContain(`local plane ready at ${plane().apiServer}`);
    expect(r.stdout).toContain('applied Application default/hello (generation 1)');
    expect(r.stdout).toContain('hello is healthy');
    expect(r.stdout).toContain('hello (Application, namespace default): running, healthy, revision hello-v1');
    expect(r.stdout).toMatch(/└─ hello-web {2}webservice {2}healthy {2}Ready:2\/2/);
    expect(r.stdout).toMatch(/Deployment\/hello-web {2}healthy {2}2\/2 ready/);
    expect(r.stdout).toMatch(/Service\/hello-web {2}healthy/);
    expect(r.stdout).toMatch(/trait scaler {2}healthy/);
    expect(r.stdout + r.stderr).not.toContain(ESC);
    // Plain progress lines: each printed once, never a spinner's carriage returns.
    expect(r.stdout).not.toContain('\r');
    expect(alive(plane().pid)).toBe(true);
    expect(existsSync(join(home, 'logs', 'server.log'))).toBe(true);
  });

  it('reuses the running plane on a second up', async () => {
    const before = plane();
    const r = await oam(['up', '-f', 'examples/hello/app.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`→ local plane (${before.apiServer})`);
    expect(r.stdout).not.toContain('starting the local plane');
    expect(r.stdout).toContain('hello is healthy');
    expect(plane().pid).toBe(before.pid);
  });

  it('oam status prints the tree, and -o json a parsable view', async () => {
    const tree = await oam(['status', 'hello']);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toContain('hello (Application, namespace default): running, healthy');
    expect(tree.stdout).toMatch(/Deployment\/hello-web {2}healthy/);

    const json = await oam(['status', 'hello', '-n', 'default', '-o', 'json']);
    expect(json.code).toBe(0);
    const view = JSON.parse(json.stdout) as {
      name: string;
      healthy: boolean;
      phase: string;
      observedGeneration: number;
      components: {
        name: string;
        type: string;
        healthy: boolean;
        traits: { type: string; healthy: boolean }[];
        objects: { kind: string; name: string; healthy: boolean }[];
      }[];
    };
    expect(view).toMatchObject({ name: 'hello', healthy: true, phase: 'running', observedGeneration: 1 });
    expect(view.components).toHaveLength(1);
    expect(view.components[0]).toMatchObject({ name: 'hello-web', type: 'webservice', healthy: true });
    expect(view.components[0].traits).toEqual([expect.objectContaining({ type: 'scaler', healthy: true })]);
    expect(view.components[0].objects.map((o) => `${o.kind}/${o.name}`).sort()).toEqual([
      'Deployment/hello-web',
      'Service/hello-web',
    ]);

    const watchJson = await oam(['status', 'hello', '--watch', '-o', 'json']);
    expect(watchJson.code).toBe(1);
    expect(watchJson.stderr).toContain('--watch shows the tree');

    const missing = await oam(['status', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error: no Application or Component "nope" in namespace default');
  });

  it("oam ls prints vela's columns, -A adds the namespace", async () => {
    const r = await oam(['ls']);
    expect(r.code).toBe(0);
    const [header, row] = r.stdout.trim().split('\n');
    expect(header.split(/\s+/)).toEqual([
      'APP',
      'COMPONENT',
      'TYPE',
      'TRAITS',
      'PHASE',
      'HEALTHY',
      'STATUS',
      'AGE',
    ]);
    expect(row.split(/\s+/).slice(0, 7)).toEqual([
      'hello',
      'hello-web',
      'webservice',
      'scaler',
      'running',
      'true',
      'Ready:2/2',
    ]);
    const all = await oam(['ls', '-A']);
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n')[0].split(/\s+/)[0]).toBe('NAMESPACE');
    expect(all.stdout).toMatch(/^default\s+hello\s+hello-web/m);
  });

  it('a bad property: exit 1 with the render error, and nothing applied (not even the namespace)', async () => {
    const bad = input(
      'bad.yaml',
      'apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: broken, namespace: never-made}\nspec:\n  components:\n    - name: api\n      type: webservice\n      properties:\n        image: nginx\n        port: eighty\n',
    );
    const r = await oam(['up', '-f', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      ':10: Application "broken", components[0] "api" (webservice): properties.port: expected integer, got "eighty"',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).not.toContain('applied');
    expect(await namespaceExists('never-made')).toBe(false);
    expect((await oam(['status', 'broken', '-n', 'never-made'])).code).toBe(1);
  });

  it('an app whose type is defined on the target (not built in, not among the inputs) validates against it', async () => {
    const alone = await oam(['up', '-f', 'examples/handlebars/app.yaml']);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('unknown component type "static-site"');
    expect(alone.stdout).not.toContain('applied');

    expect((await oam(['up', '-f', 'examples/handlebars/definition.yaml'])).code).toBe(0);
    const r = await oam(['up', '-f', 'examples/handlebars/app.yaml']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('docs is healthy');
    expect((await oam(['delete', 'docs', '--wait'])).code).toBe(0);
  });

  it('--no-wait applies and returns; the app becomes healthy on its own', async () => {
    const r = await oam(['up', '-f', 'examples/multi-component', '--no-wait']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('applied Application default/shop');
    expect(r.stdout).toContain('not waiting (--no-wait)');
    expect(r.stdout).not.toContain('is healthy');
    await eventually(async () => {
      const s = await oam(['status', 'shop', '-o', 'json']);
      return s.code === 0 && (JSON.parse(s.stdout) as { healthy: boolean }).healthy;
    }, 'shop to become healthy after up --no-wait');
  });

  it('creates a missing namespace and says so; applies standalone Components and Traits and waits until the Component is healthy', async () => {
    const r = await oam(['up', '-f', 'examples/split-roles']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('namespace shop created');
    const order = ['applied Component shop/checkout', 'applied Trait shop/checkout-autoscaling'];
    expect(r.stdout.indexOf(order[0])).toBeGreaterThanOrEqual(0);
    expect(r.stdout.indexOf(order[1])).toBeGreaterThan(r.stdout.indexOf(order[0]));
    expect(r.stdout).toContain('checkout is healthy');
    const s = await oam(['status', 'checkout', '-n', 'shop', '-o', 'json']);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ kind: 'Component', name: 'checkout', healthy: true });
  });

  it('exit 2 naming the component and its last message when it is not healthy within --timeout', async () => {
    const never = input(
      'never.yaml',
      'apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: stuck}\nspec:\n  components:\n    - name: stuck-web\n      type: webservice\n      properties: {image: nginx}\n      traits:\n        - type: annotations\n          properties: {"simulation.oam.dev/ready": "false"}\n',
    );
    const r = await oam(['up', '-f', never, '--timeout', '3s']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: stuck: not healthy after 3s: component stuck-web: Ready:0/1');
    expect(r.stdout).toContain('stuck (Application, namespace default)');
    expect((await oam(['delete', 'stuck'])).code).toBe(0);
  });

  it('oam delete --wait removes the app and what it applied', async () => {
    const r = await oam(['delete', 'hello', '--wait']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Application default/hello deleted');
    expect(r.stdout).toContain('are gone');
    expect((await oam(['status', 'hello'])).code).toBe(1);
    const again = await oam(['delete', 'hello']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no Application or Component "hello"');
  });

  it('an unreachable kubeconfig context: exit 3 saying so, and the local plane is not started in its place', async () => {
    const otherHome = mkdtempSync(join(tmpdir(), 'oam-up-e2e-cluster-'));
    try {
      const kubeconfig = input(
        'kubeconfig',
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          '- name: prod',
          '  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}',
          'users:',
          '- name: me',
          '  user: {token: t}',
          'contexts:',
          '- name: prod',
          '  context: {cluster: prod, user: me}',
          'current-context: prod',
          '',
        ].join('\n'),
      );
      const r = await oam(['up', '-f', 'examples/hello'], {
        ...baseEnv(),
        OAM_HOME: otherHome,
        HOME: otherHome,
        KUBECONFIG: kubeconfig,
      });
      expect(r.code).toBe(3);
      expect(r.stdout.split('\n')[0]).toBe('→ cluster prod (https://127.0.0.1:1)');
      expect(r.stderr).toContain('error: cluster "prod" (https://127.0.0.1:1) does not answer');
      expect(r.stderr).toContain('--local');
      expect(existsSync(join(otherHome, 'plane.json'))).toBe(false);
      expect(existsSync(join(otherHome, 'logs'))).toBe(false);
    } finally {
      rmSync(otherHome, { recursive: true, force: true });
    }
  });

  it('one clear line each: a second plane on the same OAM_HOME, a port in use, an unwritable OAM_HOME', async () => {
    const { pid, apiServer } = plane();
    const second = await oam(['server', '--port', '0']);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `error: a local plane is already running (pid ${pid}, ${apiServer}); stop it with \`oam server stop\` first\n`,
    );

    const port = new URL(apiServer).port;
    const elsewhere = mkdtempSync(join(tmpdir(), 'oam-up-e2e-port-'));
    try {
      const busy = await oam(['server', '--port', port], { ...baseEnv(), OAM_HOME: elsewhere });
      expect(busy.code).toBe(3);
      expect(busy.stderr).toContain(
        `error: port ${port} on 127.0.0.1 is in use (another oam server, or another program): pass --port N, or --port 0 for any free port`,
      );
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }

    const notADir = input('not-a-dir', '');
    const unwritable = await oam(['up', '-f', 'examples/hello'], {
      ...baseEnv(),
      OAM_HOME: join(notADir, 'home'),
    });
    expect(unwritable.code).toBe(3);
    expect(unwritable.stderr).toMatch(
      /^error: cannot write to .*not-a-dir\/home \(.*\): set OAM_HOME to a writable directory\n$/,
    );
  });

  it('oam server status shows the plane; oam server stop stops it and removes plane.json', async () => {
    const { pid, apiServer } = plane();
    const status = await oam(['server', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`${apiServer} (answers)`);
    const json = await oam(['server', 'status', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      running: true,
      answers: true,
      pid,
      apiServer,
      kubeconfig: join(home, 'server', 'kubeconfig'),
      stateDir: join(home, 'server'),
      logFile: join(home, 'logs', 'server.log'),
      controller: true,
      simulatedWorkloads: true,
    });

    const stop = await oam(['server', 'stop']);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe(`stopped the local plane (pid ${pid}, ${apiServer})\n`);
    expect(alive(pid)).toBe(false);
    expect(existsSync(join(home, 'plane.json'))).toBe(false);
    const after = await oam(['server', 'status']);
    expect(after.code).toBe(3);
    expect(after.stdout).toContain('no local plane is running');
  });

  it('a stale plane.json (its process gone) is removed with a message', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(
      join(home, 'plane.json'),
      JSON.stringify({ pid: dead, apiServer: 'https://127.0.0.1:1', kubeconfig: '/nowhere' }),
    );
    const r = await oam(['server', 'status']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`removed a stale ${join(home, 'plane.json')} (pid ${dead} is not running`);
    expect(existsSync(join(home, 'plane.json'))).toBe(false);
  });
});
