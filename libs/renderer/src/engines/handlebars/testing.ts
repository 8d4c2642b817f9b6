import type { RenderContext, TemplateRequest } from '../engine.js';

/** A component's context as the renderer builds it, for tests. */
export function componentContext(overrides: Partial<RenderContext> = {}): RenderContext {
  return {
    name: 'api',
    appName: 'shop',
    namespace: 'default',
    appRevision: 'shop-v1',
    appRevisionNum: 1,
    appLabels: {},
    appAnnotations: {},
    appComponents: ['api'],
    components: [{ name: 'api', type: 'webservice', properties: {} }],
    componentType: 'webservice',
    revision: '',
    cluster: 'local',
    clusterVersion: { major: 1, minor: 37, gitVersion: 'v1.37.2', platform: 'linux/amd64' },
    publishVersion: '',
    workflowName: 'shop',
    ...overrides,
  };
}

export function request(
  parameter: Record<string, unknown> = {},
  context?: Partial<RenderContext>,
): TemplateRequest {
  return { parameter, context: componentContext(context) };
}
