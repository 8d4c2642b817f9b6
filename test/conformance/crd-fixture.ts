import type { Target } from './target.js';
import { eventually } from './target.js';

/**
 * A namespaced CRD "Widget" in a group unique to the run, with a structural
 * schema (validation, defaults, pruning, one preserve-unknown-fields subtree),
 * status and scale subresources and printer columns. Resolves once it is
 * Established and served.
 */
export interface WidgetCrd {
  group: string;
  plural: 'widgets';
  crdName: string;
  /** /apis/<group>/v1/namespaces/<ns>/widgets */
  path(namespace: string, name?: string): string;
}

export function widgetCrdBody(group: string): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
        shortNames: ['wdg'],
        categories: ['all'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Color', type: 'string', jsonPath: '.spec.color' },
            { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
            { name: 'Phase', type: 'string', jsonPath: '.status.phase', priority: 1 },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['color'],
                  properties: {
                    color: { type: 'string', enum: ['red', 'blue'] },
                    size: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
                    replicas: { type: 'integer', default: 1 },
                    name: { type: 'string', pattern: '^[a-z]+$' },
                    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                },
                status: {
                  type: 'object',
                  properties: {
                    phase: { type: 'string' },
                    replicas: { type: 'integer' },
                    selector: { type: 'string' },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

export async function createWidgetCrd(t: Target): Promise<WidgetCrd> {
  const group = `${t.unique('w')}.conformance.example.com`;
  const res = await t.http.post(
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    widgetCrdBody(group),
  );
  if (res.status !== 201) throw new Error(`create CRD widgets.${group}: ${res.status} ${res.text}`);
  await eventually(async () => {
    const crd = (
      await t.http.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`)
    ).json();
    const established = crd.status?.conditions?.find((c: any) => c.type === 'Established')?.status === 'True';
    const served = (await t.http.get(`/apis/${group}/v1`)).status === 200;
    return established && served ? true : undefined;
  }, `CRD widgets.${group} to be Established and served`);
  return {
    group,
    plural: 'widgets',
    crdName: `widgets.${group}`,
    path: (namespace, name) => `/apis/${group}/v1/namespaces/${namespace}/widgets${name ? `/${name}` : ''}`,
  };
}

export async function deleteWidgetCrd(t: Target, crd: WidgetCrd): Promise<void> {
  const res = await t.http.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.crdName}`);
  if (res.status !== 200 && res.status !== 404)
    throw new Error(`delete CRD ${crd.crdName}: ${res.status} ${res.text}`);
}

export function widget(name: string, spec: Record<string, unknown>, group: string): any {
  return { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, spec };
}
