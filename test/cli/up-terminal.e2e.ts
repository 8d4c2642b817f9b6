import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { projectRoot } from '#definitions';
import { eventually } from '#kube-core';
import { KubeTransport, NAMESPACES, ResourceClient, type ResourceKind } from '#runtime';
import { isAlive } from '../../apps/cli/src/plane/plane.js';
import { ensureBuilt } from '../support/build.js';
import { runOam, type OamRun } from '../support/run-oam.js';

/**
 * What `oam up` shows a person. In a terminal (a tmux pane, read back with
 * capture-pane): the target line, the plane starting, one spinner line
 * redrawn in place while it waits ("n/m ready" and each component's
 * message), then the status tree, with no escape debris or stack. The
 * screens are saved under test-artifacts/cli-terminal/ (or
 * $OAM_TEST_ARTIFACTS). In a pipe: `-v` adds HTTP details (and stacks on
 * failure), and a render failure on the server ends the wait with exit 2.
 */
const root = projectRoot();
const home = mkdtempSync(join(tmpdir(), 'oam-terminal-e2e-'));
const inputs = mkdtempSync(join(tmpdir(), 'oam-terminal-inputs-'));
const artifacts = join(process.env.OAM_TEST_ARTIFACTS ?? join(root, 'test-artifacts'), 'cli-terminal');
const socket = `oam-e2e-${process.pid}`;
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

const APPS: ResourceKind = {
  group: 'core.oam.dev',
  version: 'v1beta1',
  plural: 'applications',
  kind: 'Application',
  namespaced: true,
};
const COMPONENT_DEFINITIONS: ResourceKind = {
  ...APPS,
  plural: 'componentdefinitions',
  kind: 'ComponentDefinition',
};

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `oam ARGS` in a new 100x30 tmux window as a user would type it (a
 * terminal, so a TTY; no NO_COLOR/FORCE_COLOR/CI/KUBECONFIG), then prints
 * its exit code and waits for a key so the screen stays to be read.
 */
function openPane(name: string, args: string[]): void {
  const env = `env -u KUBECONFIG -u NO_COLOR -u FORCE_COLOR -u CI -u npm_package_version OAM_HOME=${quote(home)} HOME=${quote(home)} TERM=xterm-256color`;
  const command = `cd ${quote(root)} && ${env} ${quote(process.execPath)} bin/oam.js ${args.map(quote).join(' ')}; echo "[exit $?]"; read _`;
  tmux('new-session', '-d', '-s', name, '-x', '100', '-y', '30', command);
}

/** The pane as text (what a person sees), and with its colours as escape sequences. */
function screen(name: string): { text: string; ansi: string } {
  return {
    text: tmux('capture-pane', '-p', '-t', name),
    ansi: tmux('capture-pane', '-p', '-e', '-t', name),
  };
}

/** Every distinct screen of a pane, in order, saved as artifacts when the test ends. */
class Screens {
  readonly seen: { text: string; ansi: string }[] = [];
  constructor(readonly name: string) {}

  /** Captures until `until` holds on a screen (each new screen recorded); returns that screen. */
  async waitFor(what: string, until: (text: string) => boolean, timeoutMs = 120_000): Promise<string> {
    return eventually(
      () => {
        const s = screen(this.name);
        // A new screen is one that changed beyond the spinner's frame.
        const last = this.seen.at(-1)?.text;
        if (last === undefined || unspun(last) !== unspun(s.text)) this.seen.push(s);
        else this.seen[this.seen.length - 1] = s;
        return until(s.text) ? s.text : undefined;
      },
      `${what} (screen now:\n${this.seen.at(-1)?.text ?? ''})`,
      { timeoutMs, intervalMs: 50 },
    );
  }

  save(): void {
    mkdirSync(artifacts, { recursive: true });
    this.seen.forEach((s, i) => {
      const base = join(artifacts, `${this.name}-${String(i).padStart(2, '0')}`);
      writeFileSync(`${base}.txt`, s.text);
      writeFileSync(`${base}.ansi`, s.ansi);
    });
  }
}

const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const unspun = (text: string) => text.replace(new RegExp(FRAME.source, 'g'), '*');
const spinnerLines = (text: string) => text.split('\n').filter((l) => FRAME.test(l));

/** What must never be on a person's screen: escape debris, a stack, a dependency's noise. */
function expectClean(text: string): void {
  expect(text).not.toContain('\u001b');
  expect(text).not.toMatch(/\[2K|\^\[|\[\d+m/);
  expect(text).not.toMatch(/^\s+at /m);
  expect(text).not.toMatch(/Error:|undefined|\[object Object\]/);
}

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, OAM_HOME: home, HOME: home };
  for (const key of ['KUBECONFIG', 'FORCE_COLOR', 'NO_COLOR', 'npm_package_version']) delete env[key];
  return env;
}

const oam = (args: string[]): Promise<OamRun> => runOam(root, args, baseEnv());

function plane(): { pid: number; apiServer: string; kubeconfig: string } {
  return JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as {
    pid: number;
    apiServer: string;
    kubeconfig: string;
  };
}

/** As an operator would, straight to the plane's API server (not through `oam`). */
async function withClient<T>(kind: ResourceKind, fn: (c: ResourceClient) => Promise<T>): Promise<T> {
  const kc = new KubeConfig();
  kc.loadFromFile(plane().kubeconfig);
  const transport = new KubeTransport(kc);
  try {
    return await fn(new ResourceClient(transport, kind));
  } finally {
    transport.close();
  }
}

/** An app that waits until its pods' readiness annotation says "true". */
function heldApp(ready: boolean) {
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata: { name: 'held', namespace: 'default' },
    spec: {
      components: [
        {
          name: 'held-web',
          type: 'webservice',
          properties: { image: 'nginx' },
          traits: [{ type: 'annotations', properties: { 'simulation.oam.dev/ready': String(ready) } }],
        },
      ],
    },
  };
}

const screens: Screens[] = [];

beforeAll(() => ensureBuilt(root), 240_000);
afterAll(async () => {
  for (const s of screens) s.save();
  if (hasTmux) {
    try {
      tmux('kill-server');
    } catch {
      // no session left
    }
  }
  await oam(['server', 'stop']).catch(() => undefined);
  if (existsSync(join(home, 'plane.json'))) {
    const { pid } = plane();
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(home, { recursive: true, force: true });
  rmSync(inputs, { recursive: true, force: true });
}, 60_000);

(hasTmux ? describe : describe.skip)('oam up in a terminal (tmux)', () => {
  it('from cold: the target, the plane starting, then hello healthy and its tree; nothing else on screen', async () => {
    const s = new Screens('cold-hello');
    screens.push(s);
    openPane(s.name, ['up', '-f', 'examples/hello']);
    const end = await s.waitFor('oam up to exit', (t) => /^\[exit \d+\]$/m.test(t));
    expect(end).toContain('[exit 0]');
    const lines = end.split('\n');
    expect(lines[0]).toBe('→ local plane (not running yet)');
    expect(end).toContain(
      `starting the local plane in the background (logs: ${join(home, 'logs', 'server.log')})`,
    );
    expect(end).toContain(`local plane ready at ${plane().apiServer}`);
    expect(end).toContain('applied Application default/hello (generation 1)');
    expect(end).toContain('hello is healthy');
    expect(end).toContain('hello (Application, namespace default): running, healthy, revision hello-v1');
    expect(end).toMatch(/└─ hello-web {2}webservice {2}healthy {2}Ready:2\/2/);
    expect(end).toMatch(/Deployment\/hello-web {2}healthy {2}2\/2 ready/);
    // The spinner was cleared, not left behind, and no plain progress line was printed instead.
    expect(spinnerLines(end)).toEqual([]);
    expect(end).not.toMatch(/^ {2}hello: /m);
    expectClean(end);
    // Colours on a terminal: the spinner's and the tree's, as SGR sequences only.
    const coloured = s.seen.at(-1)!.ansi;
    expect(coloured).toContain('\u001b[');
  });

  it('while it waits: one spinner line redrawn in place ("0/1 ready", the component\'s message); then the tree', async () => {
    const s = new Screens('held');
    screens.push(s);
    const file = join(inputs, 'held.yaml');
    writeFileSync(file, JSON.stringify(heldApp(false)));
    openPane(s.name, ['up', '-f', file]);
    const waiting = await s.waitFor('the spinner line with the component waiting', (t) =>
      /held-web: waiting \(Ready:0\/1\)/.test(t),
    );
    expect(waiting.split('\n')[0]).toBe(`→ local plane (${plane().apiServer})`);
    expect(waiting).toContain('applied Application default/held (generation 1)');
    const [line] = spinnerLines(waiting);
    expect(spinnerLines(waiting)).toHaveLength(1);
    expect(line).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] held: 0\/1 ready {2}· {2}held-web: waiting \(Ready:0\/1\)$/);
    expectClean(waiting);
    // It animates: the same one line, another frame.
    const frame = FRAME.exec(line)![0];
    const redrawn = await s.waitFor('the spinner to turn', (t) => {
      const now = spinnerLines(t);
      return now.length === 1 && !now[0].startsWith(frame);
    });
    expect(redrawn.split('\n').filter((l) => l.includes('applied Application'))).toHaveLength(1);

    // The pods become ready (as a fixed readiness probe would): the wait ends healthy.
    await withClient(APPS, (c) =>
      c.patch('default', 'held', { spec: heldApp(true).spec }, { type: 'merge' }),
    );
    const end = await s.waitFor('oam up to exit', (t) => /^\[exit \d+\]$/m.test(t));
    expect(end).toContain('[exit 0]');
    expect(end).toContain('held is healthy');
    expect(end).toMatch(/└─ held-web {2}webservice {2}healthy {2}Ready:1\/1/);
    expect(spinnerLines(end)).toEqual([]);
    expectClean(end);
    expect((await oam(['delete', 'held', '--wait'])).code).toBe(0);
  });
});

describe('oam up -v, and a render failure on the server', () => {
  beforeAll(async () => {
    // Without tmux, the plane is started here.
    if (!existsSync(join(home, 'plane.json')))
      expect((await oam(['up', '-f', 'examples/hello'])).code).toBe(0);
  }, 180_000);

  it('-v prints each request (method, URL, status, duration) on stderr; without it, none', async () => {
    const url = plane().apiServer;
    const r = await oam(['-v', 'up', '-f', 'examples/hello']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('hello is healthy');
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines)
      expect(l).toMatch(/^http: (GET|POST|PATCH|PUT|DELETE) https:\/\/\S+ \d{3} in \d+ ms$/);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^http: GET ${url}/version 200 in \\d+ ms$`)),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^http: PATCH ${url}/apis/core\\.oam\\.dev/v1beta1/namespaces/default/applications/hello\\?fieldManager=oam-cli&force=true 200 in \\d+ ms$`,
        ),
      ),
    );
    const after = await oam(['up', '-f', 'examples/hello', '--verbose']);
    expect(after.stderr).toMatch(/^http: GET /m);
    const quiet = await oam(['up', '-f', 'examples/hello']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it('a stack trace only with -v', async () => {
    const plain = await oam(['status', 'nope']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^error: no Application or Component "nope" in namespace default/);
    expect(plain.stderr).not.toMatch(/^\s+at /m);
    const verbose = await oam(['status', 'nope', '-v']);
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/^http: GET \S+\/applications\/nope 404 in \d+ ms$/m);
    expect(verbose.stderr).toMatch(/^UserError: no Application or Component "nope"/m);
    expect(verbose.stderr).toMatch(/^\s+at /m);
  });

  it('a definition the server resolves differently fails to render there: the wait ends at once, exit 2, naming the component and the message', async () => {
    // The namespace's own `webservice` (definition drift) shadows the built-in the CLI rendered with.
    await withClient(NAMESPACES, (c) =>
      c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'drift' } }),
    );
    await withClient(COMPONENT_DEFINITIONS, (c) =>
      c.create({
        apiVersion: 'core.oam.dev/v1beta1',
        kind: 'ComponentDefinition',
        metadata: { name: 'webservice', namespace: 'drift' },
        spec: {
          workload: { definition: { apiVersion: 'apps/v1', kind: 'Deployment' } },
          schematic: {
            cue: {
              template:
                'parameter: {image: string, ...}\noutput: {\n  apiVersion: "apps/v1"\n  kind: "Deployment"\n  spec: replicas: int & parameter.image\n}\n',
            },
          },
        },
      }),
    );
    const file = join(inputs, 'drifted.yaml');
    writeFileSync(
      file,
      'apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: drifted, namespace: drift}\nspec:\n  components:\n    - name: api\n      type: webservice\n      properties: {image: nginx}\n',
    );
    const r = await oam(['up', '-f', file, '--timeout', '10m']);
    expect(r.code).toBe(2);
    const error = r.stderr.trim().split('\n');
    expect(error).toHaveLength(1);
    expect(error[0]).toMatch(/^error: drifted: the controller cannot render it: /);
    expect(error[0]).toContain('components[0] "api" (webservice)');
    expect(error[0]).toContain('conflicting values int and string');
    expect(r.stdout).toContain('drifted (Application, namespace drift)');
    expect(r.stdout).toMatch(/Rendered False \(RenderFailed\)/);
    expect(r.stderr + r.stdout).not.toMatch(/^\s+at /m);
  });
});
