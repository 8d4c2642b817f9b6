import { PATCH_STRATEGY } from '../../libs/renderer/src/patch/index.js';
import { renderTemplate } from './support/cue.js';
import { componentContext, traitContext } from './support/context.js';
import { cueTemplate, trait, workload, type Obj } from './support/traits.js';

/** The CUE traits that add objects or scale: scaler, hpa, cpuscaler, gateway. */
describe('scaler', () => {
  it('patches spec.replicas, one by default', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    expect((await trait('scaler', { replicas: 3 }, deployment)).patch).toEqual({ spec: { replicas: 3 } });
    expect((await trait('scaler', {}, deployment)).patch).toEqual({ spec: { replicas: 1 } });
    await expect(trait('scaler', { replicas: -1 }, deployment)).rejects.toThrow(/replicas/);
  });

  it('may change replicas the workload already has (retainKeys, as KubeVela)', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    const scaled = (await trait('scaler', { replicas: 3 }, deployment)).apply();
    const { apply, patchKeys } = await trait('scaler', { replicas: 5 }, scaled);
    expect(patchKeys).toEqual({ 'spec.replicas': PATCH_STRATEGY.retainKeys });
    expect((apply() as Obj).spec.replicas).toBe(5);
  });
});

describe('hpa', () => {
  it('renders an autoscaling/v2 HPA aimed at the workload', async () => {
    const statefulset = await workload('statefulset', { image: 'postgres:16' });
    const { outputs, patch } = await trait(
      'hpa',
      {
        min: 2,
        max: 8,
        cpu: { type: 'Utilization', value: 70 },
        mem: { type: 'AverageValue', value: '512Mi' },
        podCustomMetrics: [{ name: 'requests_per_second', value: '100' }],
      },
      statefulset,
      'statefulset',
    );
    expect(patch).toBeUndefined();
    expect(outputs.hpa).toEqual({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'api' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'api' },
        minReplicas: 2,
        maxReplicas: 8,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
          {
            type: 'Resource',
            resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } },
          },
          {
            type: 'Pods',
            pods: {
              metric: { name: 'requests_per_second' },
              target: { type: 'AverageValue', averageValue: '100' },
            },
          },
        ],
      },
    });
  });

  it('defaults to 1..10 replicas at 50% CPU, and honours an explicit target', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    const { outputs } = await trait(
      'hpa',
      { targetAPIVersion: 'apps/v1', targetKind: 'ReplicaSet' },
      deployment,
    );
    expect(outputs.hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api' },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ],
    });
  });

  it('renders autoscaling/v2beta2 for clusters before 1.23, as KubeVela does', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    const context = traitContext('api', 'webservice', deployment);
    const old = { ...context, clusterVersion: { major: 1, minor: 22, gitVersion: 'v1.22.0', platform: '' } };
    const { outputs } = await renderTemplate(cueTemplate('traits', 'hpa'), {}, old);
    expect(outputs.hpa.apiVersion).toBe('autoscaling/v2beta2');
  });

  it('rejects a quantity as a utilization percentage', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    await expect(trait('hpa', { cpu: { type: 'Utilization', value: '500m' } }, deployment)).rejects.toThrow(
      /averageUtilization/,
    );
  });
});

describe('cpuscaler', () => {
  it("renders KubeVela's autoscaling/v1 HPA on CPU utilization for the workload", async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    const { outputs } = await trait('cpuscaler', { min: 2, max: 5, cpuUtil: 80 }, deployment);
    expect(outputs.cpuscaler).toEqual({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'api' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
        minReplicas: 2,
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 80,
      },
    });
  });
});

describe('gateway', () => {
  it('renders a Service for the mapped ports and an Ingress to it, class in an annotation by default', async () => {
    const deployment = await workload('webservice', {
      image: 'nginx',
      ports: [{ port: 8080, expose: true }],
    });
    const { outputs } = await trait(
      'gateway',
      { domain: 'shop.example.com', http: { '/': 8080, '/metrics': 9090 }, secretName: 'shop-tls' },
      deployment,
    );
    expect(Object.keys(outputs).sort()).toEqual(['ingress', 'service']);
    expect(outputs.service).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api' },
      spec: {
        selector: { 'app.oam.dev/component': 'api' },
        ports: [
          { name: 'port-8080', port: 8080, targetPort: 8080 },
          { name: 'port-9090', port: 9090, targetPort: 9090 },
        ],
      },
    });
    expect(outputs.ingress).toEqual({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'api', annotations: { 'kubernetes.io/ingress.class': 'nginx' } },
      spec: {
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
        rules: [
          {
            host: 'shop.example.com',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'ImplementationSpecific',
                  backend: { service: { name: 'api', port: { number: 8080 } } },
                },
                {
                  path: '/metrics',
                  pathType: 'ImplementationSpecific',
                  backend: { service: { name: 'api', port: { number: 9090 } } },
                },
              ],
            },
          },
        ],
      },
    });
  });

  it("reuses the component's own Service when it serves every mapped port", async () => {
    const { output, outputs: own } = await renderTemplate(
      cueTemplate('components', 'webservice'),
      { image: 'nginx', ports: [{ port: 8080, expose: true }] },
      componentContext('api', 'webservice'),
    );
    const covered = await trait('gateway', { http: { '/': 8080 } }, output!, 'webservice', own);
    expect(Object.keys(covered.outputs)).toEqual(['ingress']);
    const uncovered = await trait(
      'gateway',
      { http: { '/': 8080, '/admin': 9000 } },
      output!,
      'webservice',
      own,
    );
    expect(Object.keys(uncovered.outputs).sort()).toEqual(['ingress', 'service']);
  });

  it('routes to an existing Service instead of creating one', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    const { outputs } = await trait(
      'gateway',
      { http: { '/': 80 }, existingServiceName: 'shared' },
      deployment,
    );
    expect(Object.keys(outputs)).toEqual(['ingress']);
    expect((outputs.ingress as Obj).spec.rules[0].http.paths[0].backend).toEqual({
      service: { name: 'shared', port: { number: 80 } },
    });
  });

  it('puts the class in the spec on request, and names extra gateways and their outputs', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    const { outputs } = await trait(
      'gateway',
      {
        http: { '/api': 80 },
        class: 'traefik',
        classInSpec: true,
        name: 'internal',
        pathType: 'Prefix',
        labels: { exposure: 'internal' },
        annotations: { 'traefik.ingress.kubernetes.io/router.entrypoints': 'web' },
      },
      deployment,
    );
    expect(Object.keys(outputs).sort()).toEqual(['ingress-internal', 'service-internal']);
    expect(outputs['service-internal'].metadata).toEqual({ name: 'api-internal' });
    const ingress = outputs['ingress-internal'] as Obj;
    expect(ingress.metadata).toEqual({
      name: 'api-internal',
      labels: { exposure: 'internal' },
      annotations: { 'traefik.ingress.kubernetes.io/router.entrypoints': 'web' },
    });
    expect(ingress.spec.ingressClassName).toBe('traefik');
    expect(ingress.spec.rules).toEqual([
      {
        http: {
          paths: [
            {
              path: '/api',
              pathType: 'Prefix',
              backend: { service: { name: 'api-internal', port: { number: 80 } } },
            },
          ],
        },
      },
    ]);
  });

  it('renders the networking.k8s.io/v1beta1 Ingress for clusters before 1.19, as KubeVela does', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    const context = traitContext('api', 'webservice', deployment);
    const old = { ...context, clusterVersion: { major: 1, minor: 18, gitVersion: 'v1.18.0', platform: '' } };
    const { outputs } = await renderTemplate(cueTemplate('traits', 'gateway'), { http: { '/': 80 } }, old);
    expect(outputs.ingress.apiVersion).toBe('networking.k8s.io/v1beta1');
    expect((outputs.ingress as Obj).spec.rules[0].http.paths[0].backend).toEqual({
      serviceName: 'api',
      servicePort: 80,
    });
  });
});
