import { execFile } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  deploymentAndService,
  gadget,
  gadgetCrd,
  settingsConfigMap,
  sprocketCrdAndSprocket,
} from './manifests.js';

/**
 * The kubectl scenario: the machine's kubectl against a server given by
 * kubeconfig (the embedded server, or a real one, test/real-cluster/). Every
 * command must exit 0 and print what kubectl prints against kube-apiserver.
 * Commands run asynchronously: the embedded server may live in this process.
 */
export interface Step {
  args: string[];
  /** Every pattern must match stdout. */
  expect: RegExp[];
  env?: Record<string, string>;
  /** Runs alongside the command (for `get -w`: the writes it should see), given the command's output so far. */
  during?: (output: CommandOutput) => Promise<void>;
  /** The command must fail, and every pattern must match its stderr. */
  fails?: RegExp[];
}

export interface ScenarioOptions {
  kubectl: string;
  kubeconfig: string;
  workDir: string;
  /** Unique per run: the namespace name and the CRD group derive from it. */
  runId: string;
}

export class StepFailed extends Error {}

/** The running command's stdout, as it arrives. */
export interface CommandOutput {
  /** Resolves once stdout matches `pattern` (fails if the command ends first). */
  until(pattern: RegExp): Promise<void>;
}

export async function runKubectlScenario(opts: ScenarioOptions): Promise<string> {
  const transcript = join(opts.workDir, 'kubectl-transcript.txt');
  writeFileSync(transcript, `# kubectl scenario against ${opts.kubeconfig}\n`);
  const ns = `kubectl-${opts.runId}`;
  const group = `k${opts.runId}.kubectl.example.com`;
  const file = (name: string, content: string) => {
    const path = join(opts.workDir, name);
    writeFileSync(path, content);
    return path;
  };
  const app = file('app.yaml', deploymentAndService('nginx:1.27'));
  const kubectl = (args: string[], env: Record<string, string> = {}) =>
    run(opts, transcript, args, env).then((r) => {
      if (r.failure) throw r.failure;
      return r.stdout;
    });
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const sprockets = file('sprockets.yaml', sprocketCrdAndSprocket(group, ns));

  const steps: Step[] = [
    { args: ['version', '-o', 'json'], expect: [/"serverVersion"/, /"gitVersion": "v\d+\.\d+\.\d+/] },
    { args: ['get', 'ns'], expect: [/^NAME\s+STATUS\s+AGE$/m, /^default\s+Active\s+\S+$/m] },
    // apply, not `create namespace`: kubectl create sends protobuf, checked at the end on its own.
    {
      args: ['apply', '-f', file('ns.yaml', `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`)],
      expect: [new RegExp(`^namespace/${ns} created$`, 'm')],
    },
    {
      args: ['apply', '-n', ns, '-f', app],
      expect: [/^deployment\.apps\/web created$/m, /^service\/web created$/m],
    },
    {
      args: ['apply', '-n', ns, '-f', app],
      expect: [/^deployment\.apps\/web unchanged$/m, /^service\/web unchanged$/m],
    },
    {
      args: ['apply', '-n', ns, '--server-side', '-f', file('cm.yaml', settingsConfigMap('1'))],
      expect: [/^configmap\/settings serverside-applied$/m],
    },
    {
      args: ['apply', '-n', ns, '--server-side', '-f', file('cm2.yaml', settingsConfigMap('2'))],
      expect: [/^configmap\/settings serverside-applied$/m],
    },
    { args: ['get', 'configmap', 'settings', '-n', ns, '-o', 'jsonpath={.data.level}'], expect: [/^2$/] },
    {
      args: [
        'patch',
        'deployment',
        'web',
        '-n',
        ns,
        '-p',
        '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}',
      ],
      expect: [/^deployment\.apps\/web patched$/m],
    },
    {
      // `kubectl edit` with an editor that rewrites the image: the edit-style round trip.
      args: ['edit', 'deployment', 'web', '-n', ns],
      env: { KUBE_EDITOR: 'sed -i -e s/nginx:1.28/nginx:1.29/' },
      expect: [/^deployment\.apps\/web edited$/m],
    },
    {
      args: [
        'get',
        'deployment',
        'web',
        '-n',
        ns,
        '-o',
        'jsonpath={.spec.template.spec.containers[*].image}',
      ],
      expect: [/^nginx:1\.29$/],
    },
    {
      // kubectl explain walks the /openapi/v3 schemas.
      args: ['explain', 'deployment.spec'],
      expect: [/^KIND:\s+Deployment$/m, /^\s+replicas\s+<integer>$/m, /^\s+selector\s+<LabelSelector>/m],
    },
    {
      args: ['scale', 'deployment', 'web', '-n', ns, '--replicas=3'],
      expect: [/^deployment\.apps\/web scaled$/m],
    },
    { args: ['get', 'deployment', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}'], expect: [/^3$/] },
    {
      // Pods run on the real cluster's kwok node, and on the embedded server's workload simulator.
      args: ['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=60s'],
      expect: [/^deployment "web" successfully rolled out$/m],
    },
    {
      args: ['get', 'pods', '-n', ns, '-l', 'app=web', '--field-selector=status.phase=Running', '-o', 'name'],
      expect: [/^(pod\/web-[a-z0-9]+-[a-z0-9]{5}\n){3,}$/],
    },
    {
      args: ['get', 'deployments', '-n', ns],
      expect: [/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m, /^web\s+\d+\/3\s+\d+\s+\d+\s+\S+$/m],
    },
    {
      args: ['get', 'deployments', '-n', ns, '-o', 'wide'],
      expect: [
        /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/m,
        /\sweb\s+nginx:1\.29\s+app=web$/m,
      ],
    },
    // A matching object the watch lists first: once kubectl prints it, the list is done and the watch
    // resumes from its resourceVersion, so every later write is seen (no guess at how long that takes).
    {
      args: ['create', 'configmap', 'watch-marker', '-n', ns],
      expect: [/^configmap\/watch-marker created$/m],
    },
    {
      args: ['label', 'configmap', 'watch-marker', '-n', ns, 'watched=yes'],
      expect: [/^configmap\/watch-marker labeled$/m],
    },
    {
      args: [
        'get',
        'configmaps',
        '-n',
        ns,
        '-w',
        '--output-watch-events',
        '-l',
        'watched=yes',
        '--request-timeout=5s',
      ],
      expect: [
        /^EVENT\s+NAME\s+DATA\s+AGE$/m,
        /^ADDED\s+watch-marker\s+0\s/m,
        /^ADDED\s+watched\s+0\s/m,
        /^MODIFIED\s+watched\s+1\s/m,
        /^DELETED\s+watched\s/m,
      ],
      during: async (output) => {
        await output.until(/^ADDED\s+watch-marker\s/m);
        await kubectl([
          'apply',
          '-n',
          ns,
          '-f',
          file('watched.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n'),
        ]);
        await kubectl(['label', 'configmap', 'watched', '-n', ns, 'watched=yes']);
        await kubectl([
          'patch',
          'configmap',
          'watched',
          '-n',
          ns,
          '--type=merge',
          '-p',
          '{"data":{"k":"v"}}',
        ]);
        await kubectl(['delete', 'configmap', 'watched', '-n', ns]);
      },
    },
    {
      args: ['api-resources'],
      expect: [
        /^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND$/m,
        /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m,
        /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m,
        /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m,
        /^customresourcedefinitions\s+crd,crds\s+apiextensions\.k8s\.io\/v1\s+false\s+CustomResourceDefinition$/m,
      ],
    },
    {
      args: ['apply', '-f', file('crd.yaml', gadgetCrd(group))],
      expect: [
        new RegExp(
          `^customresourcedefinition\\.apiextensions\\.k8s\\.io/gadgets\\.${group.replace(/\./g, '\\.')} created$`,
          'm',
        ),
      ],
    },
    {
      args: ['wait', '--for', 'condition=Established', `crd/gadgets.${group}`, '--timeout=30s'],
      expect: [/condition met$/m],
    },
    {
      args: ['apply', '-n', ns, '-f', file('gadget.yaml', gadget(group))],
      expect: [new RegExp(`^gadget\\.${group.replace(/\./g, '\\.')}/first created$`, 'm')],
    },
    {
      args: ['get', `gadgets.${group}`, '-n', ns],
      expect: [/^NAME\s+FLAVOR\s+COUNT$/m, /^first\s+lemon\s+7$/m],
    },
    {
      args: ['api-resources', `--api-group=${group}`],
      expect: [new RegExp(`^gadgets\\s+gdg\\s+${group.replace(/\./g, '\\.')}/v1\\s+true\\s+Gadget$`, 'm')],
    },
    {
      args: ['delete', '-n', ns, '-f', app],
      expect: [/^deployment\.apps "web" deleted/m, /^service "web" deleted/m],
    },
    { args: ['delete', 'crd', `gadgets.${group}`], expect: [/deleted/] },
    {
      // A CRD and a resource of it in one file: kubectl maps every object before applying any,
      // so the CRD is created and the resource fails, as on any cluster ("ensure CRDs are installed first").
      args: ['apply', '-f', sprockets],
      expect: [
        new RegExp(
          `^customresourcedefinition\\.apiextensions\\.k8s\\.io/sprockets\\.${escaped(group)} created$`,
          'm',
        ),
      ],
      fails: [
        new RegExp(
          `resource mapping not found for name: "one" namespace: "${ns}" from "${escaped(sprockets)}": no matches for kind "Sprocket" in version "${escaped(group)}/v1"`,
        ),
        /ensure CRDs are installed first/,
      ],
    },
    {
      args: ['wait', '--for', 'condition=Established', `crd/sprockets.${group}`, '--timeout=30s'],
      expect: [/condition met$/m],
    },
    {
      args: ['apply', '-f', sprockets],
      expect: [
        new RegExp(
          `^customresourcedefinition\\.apiextensions\\.k8s\\.io/sprockets\\.${escaped(group)} unchanged$`,
          'm',
        ),
        new RegExp(`^sprocket\\.${escaped(group)}/one created$`, 'm'),
      ],
    },
    { args: ['delete', 'crd', `sprockets.${group}`], expect: [/deleted/] },
    // kubectl create and kubectl label: typed requests with protobuf bodies (create) and strategic merge patches.
    {
      args: ['create', 'configmap', 'created', '-n', ns, '--from-literal=k=v'],
      expect: [/^configmap\/created created$/m],
    },
    {
      args: ['label', 'configmap', 'created', '-n', ns, 'step=last'],
      expect: [/^configmap\/created labeled$/m],
    },
    {
      args: ['get', 'configmap', 'created', '-n', ns, '-o', 'jsonpath={.data.k} {.metadata.labels.step}'],
      expect: [/^v last$/],
    },
    {
      args: ['delete', 'namespace', ns, '--wait=true', '--timeout=60s'],
      expect: [new RegExp(`^namespace "${ns}" deleted`, 'm')],
    },
  ];

  for (const step of steps) {
    const output = new StreamedOutput();
    const [result] = await Promise.all([
      run(opts, transcript, step.args, step.env ?? {}, Boolean(step.fails), output),
      step.during?.(output),
    ]);
    if (step.fails) {
      if (!result.failure)
        throw new StepFailed(`kubectl ${step.args.join(' ')}: should fail (transcript: ${transcript})`);
      for (const pattern of step.fails) {
        if (!pattern.test(result.stderr)) {
          throw new StepFailed(
            `kubectl ${step.args.join(' ')}: stderr does not match ${pattern} (transcript: ${transcript})`,
          );
        }
      }
    } else if (result.failure) throw result.failure;
    const out = result.stdout;
    for (const pattern of step.expect) {
      if (!pattern.test(out)) {
        throw new StepFailed(
          `kubectl ${step.args.join(' ')}: output does not match ${pattern} (transcript: ${transcript})`,
        );
      }
    }
  }
  return transcript;
}

function run(
  opts: ScenarioOptions,
  transcript: string,
  args: string[],
  env: Record<string, string>,
  expectFailure = false,
  output?: StreamedOutput,
): Promise<{ stdout: string; stderr: string; failure?: StepFailed }> {
  return new Promise((resolve) => {
    const child = execFile(
      opts.kubectl,
      args,
      { cwd: opts.workDir, env: { ...process.env, KUBECONFIG: opts.kubeconfig, ...env }, timeout: 90_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number | string }).code ?? 'error') : 0;
        appendFileSync(
          transcript,
          `\n$ kubectl ${args.join(' ')}\n${stdout}${stderr ? `[stderr]\n${stderr}` : ''}[exit ${code}${err && expectFailure ? ' (expected)' : ''}]\n`,
        );
        const failure = err
          ? new StepFailed(
              `kubectl ${args.join(' ')} exited ${code}: ${stderr.trim()} (transcript: ${transcript})`,
            )
          : undefined;
        output?.end();
        resolve({ stdout, stderr, failure });
      },
    );
    child.stdout?.on('data', (chunk: Buffer | string) => output?.push(chunk.toString()));
  });
}

class StreamedOutput implements CommandOutput {
  private text = '';
  private ended = false;
  private readonly waiters: Array<{ pattern: RegExp; resolve: () => void; reject: (e: Error) => void }> = [];

  until(pattern: RegExp): Promise<void> {
    if (pattern.test(this.text)) return Promise.resolve();
    if (this.ended) return Promise.reject(new StepFailed(`the command ended before printing ${pattern}`));
    return new Promise((resolve, reject) => this.waiters.push({ pattern, resolve, reject }));
  }

  push(chunk: string): void {
    this.text += chunk;
    for (const w of [...this.waiters]) {
      if (!w.pattern.test(this.text)) continue;
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  end(): void {
    this.ended = true;
    for (const w of this.waiters.splice(0))
      w.reject(new StepFailed(`the command ended before printing ${w.pattern}`));
  }
}
