import { type TypedObject } from '#kube-core';

/**
 * A complete KubeVela-style `context` with exactly the keys the renderer
 * provides, so a template that reads anything else fails here too.
 */
export function componentContext(name: string, componentType: string): Record<string, unknown> {
  return {
    name,
    appName: 'shop',
    namespace: 'default',
    appRevision: 'shop-v3',
    appRevisionNum: 3,
    appLabels: { team: 'storefront' },
    appAnnotations: {},
    appComponents: [name],
    components: [{ name, type: componentType, properties: {} }],
    componentType,
    revision: `${name}-v3`,
    cluster: 'local',
    clusterVersion: { major: 1, minor: 37, gitVersion: 'v1.37.2', platform: 'linux/amd64' },
    publishVersion: '',
    workflowName: 'shop',
  };
}

/** The context a trait sees: the component's plus the rendered workload and outputs. */
export function traitContext(
  name: string,
  componentType: string,
  output: TypedObject,
  outputs: Record<string, TypedObject> = {},
): Record<string, unknown> {
  return { ...componentContext(name, componentType), output, outputs };
}
