// A lint of deploy/api: least-privilege RBAC that still covers every route, the pod's security,
// and what `kubectl kustomize` renders is what `oam install` would read.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROUTES, type RouteSpec } from '#api-server';
import { projectRoot } from '#definitions';
import type { KubeObject } from '#kube-core';
import { readDeploy } from '../../apps/cli/src/commands/install/deploy-manifests.js';

const dir = join(projectRoot(), 'deploy', 'api');
const objects = readDeploy(dir).map((o) => o.object) as any[];
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
const rules = ofKind('ClusterRole').flatMap((r) => r.rules) as {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}[];
const allows = (group: string, resource: string, verb: string) =>
  rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));

describe('lint: deploy/api', () => {
  it('grants no wildcard, no Secrets, no RBAC objects, nothing to escalate with', () => {
    const flat = rules.flatMap((r) => [...r.apiGroups, ...r.resources, ...r.verbs]);
    expect(flat.filter((x) => x.includes('*'))).toEqual([]);
    expect(
      flat.filter((x) =>
        /^(secrets|pods|roles|rolebindings|clusterroles|clusterrolebindings|escalate|bind|impersonate)$/.test(
          x,
        ),
      ),
    ).toEqual([]);
  });

  it('explains every rule in a comment above it', () => {
    const lines = readFileSync(join(dir, 'role.yaml'), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!/^\s*- apiGroups:/.test(line)) return;
      const above =
        lines
          .slice(0, i)
          .reverse()
          .find((l) => l.trim() !== '') ?? '';
      expect({ line: i + 1, explained: /^\s*#/.test(above) || /^\s*verbs:/.test(above) }).toEqual({
        line: i + 1,
        explained: true,
      });
    });
  });

  it('lets the API do what each route needs (generated from the route table) and review tokens', () => {
    for (const [id, r] of Object.entries(ROUTES) as [string, RouteSpec][]) {
      if (r.access === 'public') continue;
      for (const verb of [
        'get',
        'list',
        'watch',
        ...(r.access.verb === 'patch' ? ['patch', 'update'] : [r.access.verb]),
      ])
        expect([id, r.access.resource, verb, allows('core.oam.dev', r.access.resource, verb)]).toEqual([
          id,
          r.access.resource,
          verb,
          true,
        ]);
    }
    expect(allows('authentication.k8s.io', 'tokenreviews', 'create')).toBe(true);
    expect(allows('authorization.k8s.io', 'subjectaccessreviews', 'create')).toBe(true);
    for (const resource of ['configmaps', 'namespaces', 'events'])
      expect(allows('', resource, 'watch')).toBe(true);
  });

  it('runs `oam api --auth kubernetes` as its ServiceAccount, restricted, probed on /healthz and /readyz', () => {
    const [deployment] = ofKind('Deployment');
    const pod = deployment.spec.template.spec;
    expect(pod.serviceAccountName).toBe('oam-api');
    const [c] = pod.containers;
    expect(c.args).toEqual(expect.arrayContaining(['api', '--auth=kubernetes']));
    expect(c.image).toMatch(/^ghcr\.io\/oam-platform\/oam:/);
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(c.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.hostNetwork ?? false).toBe(false);
    const [binding] = ofKind('ClusterRoleBinding');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'oam-api', namespace: 'oam-system' }]);
    const [service] = ofKind('Service');
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
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
