import { trait, workload, type Obj } from './support/traits.js';

/** The CUE traits that add objects or scale: scaler, hpa, cpuscaler, gateway. */
describe('scaler', () => {
  it('patches spec.replicas, one by default', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    expect((await trait('scaler', { replicas: 3 }, deployment)).patch).toEqual({ spec: { replicas: 3 } });
    expect((await trait('scaler', {}, deployment)).patch).toEqual({ spec: { replicas: 1 } });
    await expect(trait('scaler', { replicas: -1 }, deployment)).rejects.toThrow(/replicas/);
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

  it('rejects a quantity as a utilization percentage', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    await expect(trait('hpa', { cpu: { type: 'Utilization', value: '500m' } }, deployment)).rejects.toThrow(
      /averageUtilization/,
    );
  });
});

describe('cpuscaler', () => {
  it('renders a CPU-utilization HPA for the workload', async () => {
    const deployment = await workload('webservice', { image: 'nginx' });
    const { outputs } = await trait('cpuscaler', { min: 2, max: 5, cpuUtil: 80 }, deployment);
    expect(outputs.cpuscaler).toMatchObject({
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'api' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [{ resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      },
    });
  });
});

describe('gateway', () => {
  it('renders an Ingress to the component Service, class in an annotation by default', async () => {
    const deployment = await workload('webservice', {
      image: 'nginx',
      ports: [{ port: 8080, expose: true }],
    });
    const { outputs } = await trait(
      'gateway',
      { domain: 'shop.example.com', http: { '/': 8080, '/metrics': 9090 }, secretName: 'shop-tls' },
      deployment,
    );
    expect(Object.keys(outputs)).toEqual(['ingress']);
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

  it('puts the class in the spec on request, and names extra gateways', async () => {
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
    expect(outputs.ingress.metadata).toEqual({
      name: 'api-internal',
      labels: { exposure: 'internal' },
      annotations: { 'traefik.ingress.kubernetes.io/router.entrypoints': 'web' },
    });
    expect((outputs.ingress as Obj).spec.ingressClassName).toBe('traefik');
    expect((outputs.ingress as Obj).spec.rules).toEqual([
      {
        http: {
          paths: [
            { path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { number: 80 } } } },
          ],
        },
      },
    ]);
  });
});
