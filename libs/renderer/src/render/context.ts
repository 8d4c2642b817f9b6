import type { KubeObject } from '#api';
import type { RenderContext } from '../engines/engine.js';
import type { AppSpec, ResolvedComponent } from '../resolve/index.js';

/** What the renderer knows about the cluster it renders for; a dry run uses the defaults. */
export interface ClusterInfo {
  name: string;
  version: { major: string; minor: string; gitVersion: string };
}

export const DEFAULT_CLUSTER: ClusterInfo = {
  name: 'local',
  version: { major: '1', minor: '32', gitVersion: 'v1.32.0' },
};

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
    publishVersion: app.annotations['app.oam.dev/publishVersion'] ?? '',
    workflowName: app.name,
  };
}

/** The context a trait sees: the component's, plus the workload and outputs rendered so far. */
export function traitContext(
  base: RenderContext,
  output: KubeObject,
  outputs: Record<string, KubeObject>,
): RenderContext {
  return { ...base, output, outputs };
}
