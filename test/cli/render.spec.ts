import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '#definitions';
import { ensureBuilt } from '../support/build.js';

/** `oam render` as a user runs it: the built CLI in a child process (`npm test` builds first). */
const root = projectRoot();

function oam(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'oam.js'), ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'oam-cli-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A template that allocates without bound (fifty million fields), and an app using it. */
const bomb = `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: forever}
spec:
  workload: {definition: {apiVersion: v1, kind: ConfigMap}}
  schematic:
    cue:
      template: |
        import "list"
        output: {
          apiVersion: "v1"
          kind: "ConfigMap"
          data: {for i in list.Range(0, 50000000, 1) {"k\\(i)": "v"}}
        }
---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: loop}
spec:
  components:
    - name: spin
      type: forever
`;

describe('oam render', () => {
  beforeAll(() => ensureBuilt(root), 240_000);

  it('prints a multi-document YAML stream for an example', () => {
    const r = oam(['render', '-f', 'examples/hello']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const kinds = parseAllDocuments(r.stdout).map((d) => (d.toJS() as { kind: string }).kind);
    expect(kinds).toEqual(['Deployment', 'Service']);
  });

  it('prints one v1 List with -o json', () => {
    const r = oam(['render', '-f', 'examples/hello/app.yaml', '-o', 'json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout);
    expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List' });
    expect(list.items.map((i: { kind: string }) => i.kind)).toEqual(['Deployment', 'Service']);
  });

  it('prints YAML that kubectl (YAML 1.1) reads back as the same values: `yes` stays a string', () => {
    const text = [
      'apiVersion: core.oam.dev/v1beta1',
      'kind: Application',
      'metadata: {name: w}',
      'spec:',
      '  components:',
      '    - name: w',
      '      type: worker',
      '      properties: {image: busybox}',
      '      traits:',
      '        - type: labels',
      '          properties: {exposed: "yes", tier: "on", mode: "0777"}',
      '',
    ].join('\n');
    const yaml = oam(['render', '-f', '-'], text);
    const json = oam(['render', '-f', '-', '-o', 'json'], text);
    expect([yaml.code, json.code]).toEqual([0, 0]);
    const asKubectlReads = parseAllDocuments(yaml.stdout, { version: '1.1' }).map((d) => d.toJS());
    expect(asKubectlReads).toEqual(JSON.parse(json.stdout).items);
    expect(asKubectlReads[0].metadata.labels).toMatchObject({ exposed: 'yes', tier: 'on', mode: '0777' });
  });

  it('reads stdin with -f -', () => {
    const text =
      'apiVersion: core.oam.dev/v1beta1\nkind: Component\nmetadata: {name: w}\nspec: {type: worker, properties: {image: busybox}}\n';
    const r = oam(['render', '-f', '-'], text);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kind: Deployment');
  });

  it('exits 1 with the error on stderr and nothing on stdout for bad input', () => {
    const path = tempFile(
      'app.yaml',
      'apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n    - name: api\n      type: webservice\n      properties:\n        image: nginx\n        port: eighty\n',
    );
    const r = oam(['render', '-f', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      ':10: Application "shop", components[0] "api" (webservice): properties.port: expected integer, got "eighty"',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('exits 1 for a missing file, naming it', () => {
    const r = oam(['render', '-f', 'no/such/file.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: no/such/file.yaml: no such file or folder\n');
    expect(r.stdout).toBe('');
  });

  it('exits 1 naming a broken symbolic link in an input folder, without a stack trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oam-cli-'));
    writeFileSync(join(dir, 'app.yaml'), 'apiVersion: core.oam.dev/v1beta1\n');
    symlinkSync(join(dir, 'nowhere.yaml'), join(dir, 'broken.yaml'));
    const r = oam(['render', '-f', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${join(dir, 'broken.yaml')}: no such file (a broken symbolic link?)\n`);
  });

  it('prints warnings as well as errors', () => {
    const path = tempFile(
      'app.yaml',
      'apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n    - name: a\n      type: worker\n      properties: {image: busybox, imagee: typo}\n    - name: b\n      type: worker\n      properties: {image: 5}\n',
    );
    const r = oam(['render', '-f', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /warning: .*:8: .*components\[0\] "a" \(worker\): properties\.imagee: unknown field/,
    );
    expect(r.stderr).toMatch(
      /error: .*:11: .*components\[1\] "b" \(worker\): properties\.image: expected string/,
    );
  });

  it('warns about unknown properties, and fails on them under --strict', () => {
    const path = tempFile(
      'c.yaml',
      'apiVersion: core.oam.dev/v1beta1\nkind: Component\nmetadata: {name: w}\nspec:\n  type: worker\n  properties:\n    image: busybox\n    imagee: typo\n',
    );
    const loose = oam(['render', '-f', path]);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toMatch(
      /warning: .*:8: Component "w" \(worker\): properties\.imagee: unknown field \(did you mean "image"\?\)/,
    );
    const strict = oam(['render', '--strict', '-f', path]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toMatch(/error: .*properties\.imagee: unknown field/);
  });

  it('stops a runaway template: exit 1, no JSON half-printed, no Go runtime output, the definition and component named', () => {
    const definition = `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: forever}
spec:
  workload: {definition: {apiVersion: v1, kind: ConfigMap}}
  schematic:
    cue:
      template: |
        import "list"
        output: {
          apiVersion: "v1"
          kind: "ConfigMap"
          data: {for i in list.Range(0, 50000000, 1) {"k\\(i)": "v"}}
        }
---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: loop}
spec:
  components:
    - name: spin
      type: forever
`;
    // Only the wall-clock backstop can stop it here: the other limits are far away.
    const r = oam([
      'render',
      '-o',
      'json',
      '--eval-timeout',
      '2s',
      '--eval-cpu-limit',
      '1h',
      '--eval-memory-limit',
      '3Gi',
      '-f',
      tempFile('loop.yaml', definition),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: .*loop\.yaml:\d+: Application "loop", components\[0\] "spin" \(forever\): ComponentDefinition "forever": evaluation did not finish within \d+ ms/,
    );
    expect(r.stderr).not.toMatch(/goroutine|panic|wasm/);
  });

  it('names the memory limit a template ran into: exit 1, nothing on stdout', () => {
    const r = oam(['render', '--eval-memory-limit', '64Mi', '-f', tempFile('bomb.yaml', bomb)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: .*bomb\.yaml:\d+: Application "loop", components\[0\] "spin" \(forever\): ComponentDefinition "forever": memory limit 64Mi exceeded\n/,
    );
  });

  it('names the CPU-time limit a template ran into', () => {
    const r = oam([
      'render',
      '--eval-cpu-limit',
      '300ms',
      '--eval-memory-limit',
      '3Gi',
      '-f',
      tempFile('bomb.yaml', bomb),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ComponentDefinition "forever": cpu time limit 300ms exceeded\n/);
  });

  it.each([
    ['--eval-cpu-limit', 'soon', /--eval-cpu-limit.*duration/],
    ['--eval-cpu-limit', '0s', /--eval-cpu-limit.*above zero/],
    ['--eval-memory-limit', 'lots', /--eval-memory-limit.*quantity such as 512Mi/],
  ])('refuses %s %s, naming the flag: exit 1', (flag, value, message) => {
    const r = oam(['render', flag, value, '-f', 'examples/hello']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('renders what CUE accepts even where a JSON Schema would refuse (`env: *{} | {[string]: string}`)', () => {
    const app = `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: envmap}
spec:
  workload: {definition: {apiVersion: v1, kind: ConfigMap}}
  schematic:
    cue:
      template: |
        parameter: env: *{} | {[string]: string}
        output: {apiVersion: "v1", kind: "ConfigMap", data: parameter.env}
---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: env}
spec:
  components:
    - name: a
      type: envmap
      properties: {env: {LOG_LEVEL: info}}
    - name: b
      type: envmap
      properties: {env: {}}
`;
    const r = oam(['render', '-o', 'json', '-f', tempFile('env.yaml', app)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout);
    expect(list.items.map((i: { data?: unknown }) => i.data ?? {})).toEqual([{ LOG_LEVEL: 'info' }, {}]);
  });

  it('renders for --kube-version X.Y as context.clusterVersion, for a fixed default without it', () => {
    const path = tempFile(
      'v.yaml',
      `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: versioned}
spec:
  workload: {definition: {apiVersion: v1, kind: ConfigMap}}
  schematic:
    cue:
      template: |
        output: {
          apiVersion: "v1"
          kind: "ConfigMap"
          data: {
            minor: "\\(context.clusterVersion.minor)"
            git: context.clusterVersion.gitVersion
            if context.clusterVersion.minor < 21 {cronJob: "batch/v1beta1"}
            if context.clusterVersion.minor >= 21 {cronJob: "batch/v1"}
          }
        }
---
apiVersion: core.oam.dev/v1beta1
kind: Component
metadata: {name: c}
spec: {type: versioned}
`,
    );
    const data = (args: string[]) => {
      const r = oam(['render', '-o', 'json', '-f', path, ...args]);
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout).items[0].data;
    };
    expect(data([])).toEqual({ minor: '37', git: 'v1.37.2', cronJob: 'batch/v1' });
    expect(data(['--kube-version', '1.0'])).toEqual({ minor: '0', git: 'v1.0.0', cronJob: 'batch/v1beta1' });
    expect(data(['--kube-version', 'v1.29.3'])).toEqual({ minor: '29', git: 'v1.29.3', cronJob: 'batch/v1' });
    const bad = oam(['render', '-f', path, '--kube-version', 'latest']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/--kube-version: expected MAJOR\.MINOR such as 1\.30, got "latest"/);
  });

  it('accepts WorkflowStepDefinitions and PolicyDefinitions in a folder: listed once as not run, never an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oam-cli-'));
    writeFileSync(
      join(dir, 'step.yaml'),
      'apiVersion: core.oam.dev/v1beta1\nkind: WorkflowStepDefinition\nmetadata: {name: apply-object}\nspec:\n  schematic: {cue: {template: "parameter: {}"}}\n',
    );
    writeFileSync(
      join(dir, 'policy.yaml'),
      'apiVersion: core.oam.dev/v1beta1\nkind: PolicyDefinition\nmetadata: {name: topology}\nspec:\n  schematic: {cue: {template: "parameter: {}"}}\n---\napiVersion: core.oam.dev/v1beta1\nkind: PolicyDefinition\nmetadata: {name: override}\nspec: {}\n',
    );
    writeFileSync(
      join(dir, 'c.yaml'),
      'apiVersion: core.oam.dev/v1beta1\nkind: Component\nmetadata: {name: w}\nspec: {type: worker, properties: {image: busybox}}\n',
    );
    const r = oam(['render', '-f', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kind: Deployment');
    const warnings = r.stderr.trim().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^warning: not run \(rendering runs no workflow steps or policies\): .*PolicyDefinition "topology".*PolicyDefinition "override".*WorkflowStepDefinition "apply-object"/,
    );
  });
});
