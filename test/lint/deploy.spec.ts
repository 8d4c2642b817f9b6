// A lint of deploy/ (the controller's files and api/, the REST API's): no wildcard RBAC, every rule
// explained, every Deployment's pod meets the Pod Security "restricted" profile, and what
// `kubectl apply -k` applies is what `oam install` applies.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '#definitions';
import type { KubeObject } from '#kube-core';
import { readDeploy } from '../../apps/cli/src/commands/install/deploy-manifests.js';

const dir = join(projectRoot(), 'deploy');
const read = readDeploy(dir);
const objects = read.map((o) => o.object);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
const deployments = ofKind('Deployment') as any[];
const named = (name: string) => deployments.find((d) => d.metadata.name === name);

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
    const files = new Set(read.filter((o) => /Role$/.test(o.object.kind ?? '')).map((o) => o.file));
    expect([...files]).toEqual(expect.arrayContaining(['rbac/controller-role.yaml', 'api/role.yaml']));
    for (const file of files) {
      const lines = readFileSync(join(dir, file), 'utf8').split('\n');
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

  it('installs the controller and the REST API, each as its own ServiceAccount, probed on /healthz and /readyz', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['oam-api', 'oam-controller']);
    const accounts = ofKind('ServiceAccount').map((a) => `${a.metadata!.namespace}/${a.metadata!.name}`);
    for (const d of deployments) {
      expect(d.metadata.namespace).toBe('oam-system');
      const pod = d.spec.template.spec;
      expect(pod.serviceAccountName).toBe(d.metadata.name);
      expect(accounts).toContain(`oam-system/${pod.serviceAccountName}`);
      expect(pod.automountServiceAccountToken).not.toBe(false);
      const [c] = pod.containers;
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.image).toMatch(/^ghcr\.io\/oam-platform\/oam:/);
    }
    const controller = named('oam-controller');
    expect(controller.spec.replicas).toBe(2);
    expect(controller.spec.template.spec.containers[0].args).toEqual(
      expect.arrayContaining(['controller', '--leader-elect', '--metrics-port=8080']),
    );
    expect(named('oam-api').spec.template.spec.containers[0].args).toEqual(
      expect.arrayContaining(['api', '--auth=kubernetes']),
    );
    const [pdb] = ofKind('PodDisruptionBudget') as any[];
    expect(pdb.spec.selector.matchLabels).toEqual(controller.spec.selector.matchLabels);
    expect(pdb.spec.minAvailable).toBe(1);
  });

  it("binds each role to one ServiceAccount, a Deployment's own, and only the controller to the controller's roles", () => {
    const bindings = [...ofKind('ClusterRoleBinding'), ...ofKind('RoleBinding')] as any[];
    expect(bindings.length).toBeGreaterThan(3);
    for (const b of bindings) {
      const sa = b.roleRef.name.startsWith('oam-api') ? 'oam-api' : 'oam-controller';
      expect({ binding: b.metadata.name, subjects: b.subjects }).toEqual({
        binding: b.metadata.name,
        subjects: [{ kind: 'ServiceAccount', name: sa, namespace: 'oam-system' }],
      });
    }
  });

  it('meets the Pod Security "restricted" profile, every Deployment', () => {
    for (const d of deployments)
      expect({ deployment: d.metadata.name, violations: restrictedViolations(d.spec.template.spec) }).toEqual(
        {
          deployment: d.metadata.name,
          violations: [],
        },
      );
    const pod = deployments[0].spec.template.spec;
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
