import type { Registry } from '../resources/registry.js';
import type { ResourceInfo } from '../resources/builtin.js';

/** The Kubernetes release whose behaviour this server follows (held to it by test/real-cluster against that kube-apiserver). */
export const KUBE_VERSION = { major: '1', minor: '37', gitVersion: 'v1.37.2+oam-local' };

export function versionInfo(simulatedWorkloads: boolean): Record<string, unknown> {
  return {
    ...KUBE_VERSION,
    gitCommit: 'oam-local',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'oam-local',
    platform: `${process.platform}/${process.arch}`,
    ...(simulatedWorkloads ? { simulatedWorkloads: true } : {}),
  };
}

/** /api: the legacy core group's versions. */
export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function group(name: string, versions: string[]) {
  const list = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: list, preferredVersion: list[0] };
}

/** /apis: every named group (not the core group), preferred version first. */
export function apiGroupList(registry: Registry): Record<string, unknown> {
  const groups = [...registry.groups()]
    .filter(([name]) => name !== '')
    .map(([name, versions]) => group(name, versions));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(registry: Registry, name: string): Record<string, unknown> | undefined {
  const versions = registry.groups().get(name);
  if (!versions || !name) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...group(name, versions) };
}

function resourceEntries(r: ResourceInfo): Array<Record<string, unknown>> {
  const main: Record<string, unknown> = {
    name: r.plural,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: [...r.verbs].sort(),
  };
  if (r.shortNames?.length) main.shortNames = r.shortNames;
  if (r.categories?.length) main.categories = r.categories;
  const subs = (r.subresources ?? []).map((sub) => {
    if (sub === 'scale') {
      return {
        name: `${r.plural}/scale`,
        singularName: '',
        namespaced: r.namespaced,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      };
    }
    if (sub === 'log')
      return {
        name: `${r.plural}/log`,
        singularName: '',
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: ['get'],
      };
    if (sub === 'exec' || sub === 'attach' || sub === 'portforward') {
      const kind = {
        exec: 'PodExecOptions',
        attach: 'PodAttachOptions',
        portforward: 'PodPortForwardOptions',
      }[sub];
      return {
        name: `${r.plural}/${sub}`,
        singularName: '',
        namespaced: r.namespaced,
        kind,
        verbs: ['create', 'get'],
      };
    }
    if (sub === 'token')
      return {
        name: `${r.plural}/token`,
        singularName: '',
        namespaced: r.namespaced,
        group: 'authentication.k8s.io',
        version: 'v1',
        kind: 'TokenRequest',
        verbs: ['create'],
      };
    if (sub === 'finalize')
      return {
        name: `${r.plural}/finalize`,
        singularName: '',
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: ['update'],
      };
    return {
      name: `${r.plural}/${sub}`,
      singularName: '',
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: ['get', 'patch', 'update'],
    };
  });
  return [main, ...subs];
}

/** /api/v1 and /apis/<group>/<version>: an APIResourceList, or undefined when the group/version is not served. */
export function apiResourceList(
  registry: Registry,
  groupName: string,
  version: string,
): Record<string, unknown> | undefined {
  const resources = registry.all().filter((r) => r.group === groupName && r.version === version);
  if (!resources.length) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupName ? `${groupName}/${version}` : version,
    resources: resources.flatMap(resourceEntries),
  };
}
