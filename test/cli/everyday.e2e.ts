import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '#definitions';
import { eventually } from '#kube-core';
import { isAlive } from '../../apps/cli/src/plane/plane.js';
import { ensureBuilt } from '../support/build.js';
import { runOam, type OamRun } from '../support/run-oam.js';

/**
 * The everyday commands around `oam up` (diff, history, rollback, def,
 * init, completion, version) as a user runs them: the built `oam` in a
 * child process, in a pipe, against one local plane in a temporary
 * OAM_HOME and HOME (no KUBECONFIG, so the target is the local plane).
 */
const root = projectRoot();
const home = mkdtempSync(join(tmpdir(), 'oam-everyday-e2e-'));
const work = mkdtempSync(join(tmpdir(), 'oam-everyday-files-'));
const ESC = '\u001b[';

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, OAM_HOME: home, HOME: home };
  for (const key of ['KUBECONFIG', 'FORCE_COLOR', 'NO_COLOR', 'npm_package_version']) delete env[key];
  return env;
}

const oam = (args: string[]): Promise<OamRun> => runOam(root, args, baseEnv());

/** examples/hello as another app, with its replicas and exposure changed: one file per version. */
function helloVariant(file: string, name: string, replicas: number, expose: boolean): string {
  const text = readFileSync(join(root, 'examples', 'hello', 'app.yaml'), 'utf8')
    .replace('name: hello\n', `name: ${name}\n`)
    .replace('name: hello-web', `name: ${name}-web`)
    .replace('replicas: 2', `replicas: ${replicas}`)
    .replace('expose: true', `expose: ${expose}`);
  const path = join(work, file);
  writeFileSync(path, text);
  return path;
}

beforeAll(() => ensureBuilt(root), 240_000);
afterAll(async () => {
  await oam(['server', 'stop']).catch(() => undefined);
  const record = join(home, 'plane.json');
  if (existsSync(record)) {
    const { pid } = JSON.parse(readFileSync(record, 'utf8')) as { pid: number };
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('without a cluster', () => {
  it('completion scripts load: bash registers the function; zsh and fish print theirs', async () => {
    const bin = join(work, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(join(root, 'bin', 'oam.js'), join(bin, 'oam'));
    const r = spawnSync('bash', ['-c', 'source <(oam completion bash) && complete -p oam'], {
      env: { ...baseEnv(), PATH: `${bin}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('complete -F _oam_complete oam');
    // The function itself, as bash calls it on TAB after `oam di`.
    const tab = spawnSync(
      'bash',
      [
        '-c',
        'source <(oam completion bash); COMP_WORDS=(oam di); COMP_CWORD=1; _oam_complete; printf "%s\\n" "${COMPREPLY[@]}"',
      ],
      { env: { ...baseEnv(), PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' },
    );
    expect(tab.stdout.trim()).toBe('diff');
    const zsh = await oam(['completion', 'zsh']);
    expect(zsh.stdout).toContain('compdef _oam_complete oam');
    const fish = await oam(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c oam -f -a '(__oam_complete)'");
    const bad = await oam(['completion', 'tcsh']);
    expect(bad).toMatchObject({ code: 1 });
  });

  it('def vet: a broken CUE template is exit 1 naming the file line; a good Handlebars one is ok', async () => {
    const broken = join(work, 'broken.yaml');
    writeFileSync(
      broken,
      [
        'apiVersion: core.oam.dev/v1beta1',
        'kind: ComponentDefinition',
        'metadata:',
        '  name: broken',
        'spec:',
        '  workload:',
        '    definition: {apiVersion: apps/v1, kind: Deployment}',
        '  schematic:',
        '    cue:',
        '      template: |',
        '        output: {',
        '          kind: "Deployment"',
        '          spec: replicas: parameter.replicas +',
        '        }',
        '        parameter: replicas: *1 | int',
        '',
      ].join('\n'),
    );
    const r = await oam(['def', 'vet', '-f', broken]);
    expect(r).toMatchObject({ code: 1 });
    // Template line 4 (the closing brace) is line 14 of the file.
    expect(r.stderr).toContain(`${broken}:14: ComponentDefinition "broken": template line 4:`);
    const ok = await oam(['def', 'vet', '-f', 'examples/handlebars/definition.yaml']);
    expect(ok.stderr).toBe('');
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.stdout).toBe('ComponentDefinition "static-site": ok\n');
  });

  it('version with no plane running: the CLI version, and says the API server is not reachable (exit 0)', async () => {
    const r = await oam(['version']);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toContain('→ local plane (not running yet)');
    expect(r.stdout).toMatch(/oam CLI: +0\.\d+\.\d+/);
    expect(r.stdout).toContain('API server:  not reachable (no local plane is running');
  });

  it('def ls and def show with no plane: the built-ins', async () => {
    const ls = await oam(['def', 'ls', '--type', 'trait']);
    expect(ls).toMatchObject({ code: 0 });
    expect(ls.stdout.split('\n')[0]).toMatch(/^NAME +TYPE +NAMESPACE +DESCRIPTION$/);
    expect(ls.stdout).toMatch(/^scaler +trait +\(built-in\) +Manually scale/m);
    expect(ls.stdout).not.toMatch(/^\S+ +component /m);
  });
});

describe('against the local plane', () => {
  it('version: the API server and the controller from its heartbeat', async () => {
    expect(await oam(['up', '-f', 'examples/hello'])).toMatchObject({ code: 0 });
    const r = await oam(['version']);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toMatch(/API server: +v1\.\d+\.\d+\S* \(https:\/\/127\.0\.0\.1:\d+\)/);
    expect(r.stdout).toMatch(/controller: +0\.\d+\.\d+ \(last heartbeat \d+\w* ago\)/);
    const json = await oam(['version', '-o', 'json']);
    const parsed = JSON.parse(json.stdout) as {
      cli: string;
      controller: { version: string; alive: boolean };
    };
    expect(parsed.controller).toMatchObject({ version: parsed.cli, alive: true });
  });

  it('diff: exit 0 and nothing on stdout when up would change nothing; exit 1 with the changes (the Service to go included)', async () => {
    const same = await oam(['diff', '-f', 'examples/hello']);
    expect(same.stderr).toContain('no changes');
    expect(same.stdout).toBe('');
    expect(same).toMatchObject({ code: 0 });

    const changed = helloVariant('hello-changed.yaml', 'hello', 3, false);
    const r = await oam(['diff', '-f', changed]);
    expect(r).toMatchObject({ code: 1 });
    expect(r.stdout).toContain(
      '--- Application default/hello (live)\n+++ Application default/hello (after oam up)\n@@ ',
    );
    expect(r.stdout).toMatch(/^- +replicas: 2$/m);
    expect(r.stdout).toMatch(/^\+ +replicas: 3$/m);
    expect(r.stdout).toMatch(/^- +- expose: true$/m);
    // The controller would prune the Service once nothing is exposed: shown whole, as removed.
    expect(r.stdout).toContain('--- Service default/hello-web (live)');
    expect(r.stdout).toMatch(/^-kind: Service$/m);
    expect(r.stdout).not.toContain(ESC);
    expect(r.stderr).toContain('2 objects would change');

    // A new app: all of it is new (the Application and what the controller will create).
    const fresh = await oam(['diff', '-f', helloVariant('fresh.yaml', 'fresh', 1, true)]);
    expect(fresh).toMatchObject({ code: 1 });
    expect(fresh.stdout).toContain('--- Application default/fresh (not on the cluster)');
    expect(fresh.stdout).toContain(
      '+++ Deployment default/fresh-web (the controller will create it for Application fresh)',
    );

    // Nothing was applied by any of these.
    expect(await oam(['diff', '-f', 'examples/hello'])).toMatchObject({ code: 0, stdout: '' });

    // An error is above 1: a bad property (exit 1 for `up`) is 2 here.
    const bad = join(work, 'bad.yaml');
    writeFileSync(bad, readFileSync(changed, 'utf8').replace('replicas: 3', 'replicas: many'));
    const invalid = await oam(['diff', '-f', bad]);
    expect(invalid).toMatchObject({ code: 2 });
    expect(invalid.stderr).toContain('replicas');
  });

  it('history after three changes; rollback to the first, and status shows its objects again', async () => {
    const v1 = helloVariant('hist-1.yaml', 'hist', 2, true);
    const v2 = helloVariant('hist-2.yaml', 'hist', 3, false);
    const v3 = helloVariant('hist-3.yaml', 'hist', 1, false);
    // The whole run on failure: its stderr says why.
    for (const file of [v1, v2, v3]) expect(await oam(['up', '-f', file])).toMatchObject({ code: 0 });

    const h = await oam(['history', 'hist']);
    expect(h).toMatchObject({ code: 0 });
    const rows = h.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^REVISION +CREATED +LIVE +CHANGE$/);
    expect(rows).toHaveLength(4);
    expect(rows[1]).toMatch(/^1 +\d+\w* +\S/);
    expect(rows[2]).toMatch(/^2 +\d+\w* +.*replicas: 2 → 3/);
    expect(rows[3]).toMatch(/^3 +\d+\w* +\* +.*replicas: 3 → 1/);

    const r = await oam(['rollback', 'hist', '--to', '1']);
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toContain(
      'asked the controller to roll default/hist back to revision 1 (live: hist-v3)',
    );
    expect(r.stdout).toContain('hist rolled back to revision 1 (live as hist-v4)');

    const status = await oam(['status', 'hist']);
    expect(status.stdout).toContain('revision hist-v4');
    expect(status.stdout).toMatch(/Deployment\/hist-web {2}healthy {2}2\/2 ready/);
    expect(status.stdout).toMatch(/Service\/hist-web {2}healthy/);

    const after = await oam(['history', 'hist', '-o', 'json']);
    const revisions = JSON.parse(after.stdout) as { revision: number; live: boolean }[];
    expect(revisions.map((x) => x.revision)).toEqual([1, 2, 3, 4]);
    expect(revisions.find((x) => x.live)?.revision).toBe(4);

    const missing = await oam(['rollback', 'hist', '--to', '9']);
    expect(missing).toMatchObject({ code: 1 });
    expect(missing.stderr).toContain('hist has no revision 9 (revisions: 1, 2, 3, 4');
  });

  it('def show of a CUE definition and, after def apply, of a Handlebars one; def ls lists it', async () => {
    const cue = await oam(['def', 'show', 'webservice']);
    expect(cue).toMatchObject({ code: 0 });
    expect(cue.stdout).toContain('webservice (ComponentDefinition, namespace vela-system)');
    expect(cue.stdout).toContain('workload: Deployment (apps/v1)');
    expect(cue.stdout).toMatch(/^NAME +TYPE +REQUIRED +DEFAULT +DESCRIPTION$/m);
    expect(cue.stdout).toMatch(/^image +string +yes +Which image/m);
    expect(cue.stdout).toMatch(/^ports +\[\]object +no /m);
    expect(cue.stdout).toMatch(/^ {2}port +integer +yes /m);
    expect(cue.stdout).toMatch(/^ {2}expose +boolean +no +false /m);

    const apply = await oam(['def', 'apply', '-f', 'examples/handlebars/definition.yaml']);
    expect(apply).toMatchObject({ code: 0 });
    expect(apply.stdout).toContain('applied ComponentDefinition vela-system/static-site');
    const hbs = await oam(['def', 'show', 'static-site']);
    expect(hbs).toMatchObject({ code: 0 });
    expect(hbs.stdout).toContain('engine: Handlebars');
    expect(hbs.stdout).toMatch(/^html +string +yes +The page, as HTML\.$/m);
    expect(hbs.stdout).toMatch(/^replicas +integer +no +1 +How many nginx pods serve it\.$/m);

    const ls = await oam(['def', 'ls', '-n', 'vela-system']);
    expect(ls.stdout).toMatch(/^static-site +component +vela-system +A static web page/m);

    const none = await oam(['def', 'show', 'nope']);
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr).toContain('no component or trait definition "nope"');
  });

  it('init then up of what it wrote: an app.yaml, and the split Component and Trait', async () => {
    const appDir = join(work, 'web');
    const init = await oam(['init', 'web', '--dir', appDir]);
    expect(init).toMatchObject({ code: 0 });
    expect(init.stdout).toContain('wrote ');
    const up = await oam(['up', '-f', join(appDir, 'app.yaml')]);
    expect(up.stderr).toBe('');
    expect(up).toMatchObject({ code: 0 });
    expect(up.stdout).toContain('web is healthy');
    // Never overwritten without --force.
    const again = await oam(['init', 'web', '--dir', appDir]);
    expect(again).toMatchObject({ code: 1 });
    expect(again.stderr).toContain('already exist: pass --force');

    const splitDir = join(work, 'parts');
    const split = await oam([
      'init',
      'parts',
      '--split',
      '--type',
      'worker',
      '--image',
      'busybox',
      '--dir',
      splitDir,
    ]);
    expect(split).toMatchObject({ code: 0 });
    const upSplit = await oam([
      'up',
      '-f',
      join(splitDir, 'component.yaml'),
      '-f',
      join(splitDir, 'trait.yaml'),
    ]);
    expect(upSplit).toMatchObject({ code: 0 });
    expect(upSplit.stdout).toContain('applied Component default/parts');
    expect(upSplit.stdout).toContain('applied Trait default/parts-scaler');
    await eventually(
      async () => {
        const s = await oam(['status', 'parts', '-o', 'json']);
        return s.code === 0 && (JSON.parse(s.stdout) as { healthy: boolean }).healthy;
      },
      'the standalone Component parts to become healthy',
      120_000,
    );
  });

  it('completion names the applications on the target and the definition types', async () => {
    const apps = await oam(['__complete', '--', 'status', '']);
    expect(apps.stdout.split('\n')).toEqual(expect.arrayContaining(['hello', 'hist', 'web']));
    const types = await oam(['__complete', '--', 'def', 'show', 'st']);
    expect(types.stdout.split('\n')).toEqual(
      expect.arrayContaining(['static-site', 'statefulset', 'storage']),
    );
  });
});
