import { ANNOTATIONS } from '#api';
import { type TypedObject } from '#kube-core';
import type { ClusterVersion, RenderContext } from '../engines/engine.js';
import type { AppSpec, ResolvedComponent } from '../resolve/index.js';

/** What the renderer knows about the cluster it renders for; a dry run uses the defaults. */
export interface ClusterInfo {
  name: string;
  version: ClusterVersion;
}

/**
 * What a dry run (`oam render`) renders for unless told otherwise (`--kube-version`): the
 * embedded API server's version (it reports v1.37.2), so a dry run renders as `oam up` would.
 * Fixed, so render output never depends on the machine it runs on.
 */
export const DEFAULT_CLUSTER: ClusterInfo = {
  name: 'local',
  version: { major: 1, minor: 37, gitVersion: 'v1.37.2', platform: 'linux/amd64' },
};

/**
 * `1.30`, `1.30.4` or `v1.30.4` (Helm's `--kube-version`) as KubeVela's clusterVersion;
 * undefined when it is none of these.
 */
export function parseKubeVersion(text: string): ClusterVersion | undefined {
  const m = /^v?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return undefined;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return {
    major,
    minor,
    gitVersion: `v${major}.${minor}.${patch}`,
    platform: DEFAULT_CLUSTER.version.platform,
  };
}

/**
 * A server's `/version` answer in KubeVela's shape: `minor: "37+"` (as some
 * providers report it) becomes 37, so templates can compare it with numbers.
 */
export function clusterVersionOf(info: {
  major: string;
  minor: string;
  gitVersion: string;
  platform?: string;
}): ClusterVersion {
  const number = (s: string) => Number.parseInt(s, 10) || 0;
  return {
    major: number(info.major),
    minor: number(info.minor),
    gitVersion: info.gitVersion,
    platform: info.platform ?? '',
  };
}

/** KubeVela's `context` for one component of an application. */
export function componentContext(
  app: AppSpec,
  component: ResolvedComponent,
  cluster: ClusterInfo,
): RenderContext {
  return {
    name: component.name,
    appName: app.name,
    namespace: app.namespace,
    appRevision: app.revision?.name ?? '',
    appRevisionNum: app.revision?.number ?? 0,
    appLabels: app.labels,
    appAnnotations: app.annotations,
    appComponents: app.components.map((c) => c.name),
    components: app.components.map((c) => ({ name: c.name, type: c.type, properties: c.properties })),
    componentType: component.type,
    revision: app.revision ? `${component.name}-v${app.revision.number}` : '',
    cluster: cluster.name,
    clusterVersion: cluster.version,
    publishVersion: app.annotations[ANNOTATIONS.publishVersion] ?? '',
    workflowName: app.name,
  };
}

/** The context a trait sees: the component's, plus the workload and outputs rendered so far. */
export function traitContext(
  base: RenderContext,
  output: TypedObject,
  outputs: Record<string, TypedObject>,
): RenderContext {
  return { ...base, output, outputs };
}
