// A lint of deploy/: no wildcard RBAC, every rule explained, the controller's pod meets the
// Pod Security "restricted" profile, and what `kubectl apply -k` applies is what `oam install` applies.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '#definitions';
import type { KubeObject } from '#kube-core';
import { readDeploy } from '../../apps/cli/src/commands/install/deploy-manifests.js';

const dir = join(projectRoot(), 'deploy');
const objects = readDeploy(dir).map((o) => o.object);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

describe('lint: deploy/', () => {
  it('installs every CRD that npm run gen:crds writes', () => {
    const names = ofKind('CustomResourceDefinition').map((c) => c.metadata!.name);
    expect(names.sort()).toEqual(
      readdirSync(join(dir, 'crds'))
        .map((f) => f.replace(/\.yaml$/, ''))
        .sort(),
    );
  });

  it('grants no wildcard verb, resource or API group', () => {
    const rules = [...ofKind('ClusterRole'), ...ofKind('Role')].flatMap((r) =>
      ((r.rules as Rule[] | undefined) ?? []).map((rule) => ({ role: r.metadata!.name, rule })),
    );
    expect(rules.length).toBeGreaterThan(5);
    const wild = rules.filter(({ rule }) =>
      [
        ...rule.verbs,
        ...(rule.resources ?? []),
        ...(rule.apiGroups ?? []),
        ...(rule.nonResourceURLs ?? []),
      ].some((x) => x.includes('*')),
    );
    expect(wild).toEqual([]);
    // No rights that let the controller grant itself more, read every Pod, or exec.
    const risky = rules.filter(
      ({ rule }) =>
        rule.verbs.some((v) => ['escalate', 'bind', 'impersonate'].includes(v)) ||
        (rule.resources ?? []).some((r) =>
          /^(pods\/exec|clusterroles|clusterrolebindings|roles|rolebindings)$/.test(r),
        ),
    );
    expect(risky).toEqual([]);
  });

  it('explains every RBAC rule in a comment above it', () => {
    for (const file of readdirSync(join(dir, 'rbac'))) {
      const lines = readFileSync(join(dir, 'rbac', file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!/^\s*- apiGroups:/.test(line)) return;
        // A comment above, or the rule continues a group introduced by one (same resources).
        const above = lines
          .slice(0, i)
          .reverse()
          .find((l) => l.trim() !== '');
        const explained = /^\s*#/.test(above ?? '') || /^\s*(verbs|resourceNames):/.test(above ?? '');
        expect({ file, line: i + 1, explained }).toEqual({ file, line: i + 1, explained: true });
      });
    }
  });

  it('runs the controller as its ServiceAccount, two replicas with leader election, probed on /healthz and /readyz', () => {
    const [deployment] = ofKind('Deployment') as any[];
    expect(deployment.metadata.namespace).toBe('oam-system');
    expect(deployment.spec.replicas).toBe(2);
    const pod = deployment.spec.template.spec;
    expect(pod.serviceAccountName).toBe('oam-controller');
    const [c] = pod.containers;
    expect(c.args).toEqual(expect.arrayContaining(['controller', '--leader-elect', '--metrics-port=8080']));
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.image).toMatch(/^ghcr\.io\/oam-platform\/oam:/);
    const [pdb] = ofKind('PodDisruptionBudget') as any[];
    expect(pdb.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    expect(pdb.spec.minAvailable).toBe(1);
    const bindings = [...ofKind('ClusterRoleBinding'), ...ofKind('RoleBinding')] as any[];
    for (const b of bindings)
      expect(b.subjects).toEqual([
        { kind: 'ServiceAccount', name: 'oam-controller', namespace: 'oam-system' },
      ]);
  });

  it('meets the Pod Security "restricted" profile', () => {
    const [deployment] = ofKind('Deployment') as any[];
    const pod = deployment.spec.template.spec;
    expect(restrictedViolations(pod)).toEqual([]);
    // The check itself catches a privileged pod.
    const bad = structuredClone(pod);
    bad.containers[0].securityContext = { privileged: true };
    bad.hostNetwork = true;
    expect(restrictedViolations(bad).length).toBeGreaterThanOrEqual(4);
  });

  it('is what kubectl kustomize renders', () => {
    const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
    if (run.error) return; // no kubectl here: the other tests still hold
    expect(run.status).toBe(0);
    const rendered = parseAllDocuments(run.stdout).map((d) => d.toJS() as KubeObject);
    const key = (o: KubeObject) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
    expect(new Map(rendered.map((o) => [key(o), o]))).toEqual(new Map(objects.map((o) => [key(o), o])));
  });
});

/** The "restricted" profile's checks (kubernetes.io/docs/concepts/security/pod-security-standards). */
function restrictedViolations(pod: any): string[] {
  const out: string[] = [];
  const psc = pod.securityContext ?? {};
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) out.push('host namespaces');
  const allowedVolumes = [
    'configMap',
    'csi',
    'downwardAPI',
    'emptyDir',
    'ephemeral',
    'persistentVolumeClaim',
    'projected',
    'secret',
  ];
  for (const v of pod.volumes ?? [])
    if (
      !Object.keys(v)
        .filter((k) => k !== 'name')
        .every((k) => allowedVolumes.includes(k))
    )
      out.push(`volume ${v.name}`);
  for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
    const sc = c.securityContext ?? {};
    const where = `container ${c.name}`;
    if (sc.privileged) out.push(`${where}: privileged`);
    if (sc.allowPrivilegeEscalation !== false) out.push(`${where}: allowPrivilegeEscalation must be false`);
    if (!(sc.runAsNonRoot ?? psc.runAsNonRoot)) out.push(`${where}: runAsNonRoot`);
    if ((sc.runAsUser ?? psc.runAsUser) === 0) out.push(`${where}: runs as root`);
    if ((sc.seccompProfile ?? psc.seccompProfile)?.type !== 'RuntimeDefault') out.push(`${where}: seccomp`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) out.push(`${where}: capabilities not dropped`);
    if ((sc.capabilities?.add ?? []).some((cap: string) => cap !== 'NET_BIND_SERVICE'))
      out.push(`${where}: adds capabilities`);
    if (sc.readOnlyRootFilesystem !== true) out.push(`${where}: writable root filesystem`);
    for (const p of c.ports ?? []) if (p.hostPort) out.push(`${where}: hostPort`);
  }
  return out;
}
