/* eslint-disable @typescript-eslint/no-explicit-any -- fixtures the validation specs reach into and break field by field, at any depth */
/** Valid objects of the built-in kinds, for the validation tests. */
export const podSpec = () => ({
  containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }],
});

export const template = (labels: Record<string, string> = { app: 'web' }) => ({
  metadata: { labels },
  spec: podSpec(),
});

export const deployment = (): Record<string, any> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: template(),
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
  },
});

export const service = (): Record<string, any> => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web' },
  spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] },
});

export const ingress = (): Record<string, any> => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'web' },
  spec: {
    rules: [
      {
        host: 'web.example.com',
        http: {
          paths: [
            { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
          ],
        },
      },
    ],
  },
});

export const hpa = (): Record<string, any> => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 1,
    maxReplicas: 5,
    metrics: [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ],
  },
});

/** One valid object of every kind the server serves. */
export const validObjects = (): Array<[string, string, string, Record<string, any>]> => [
  ['', 'v1', 'Namespace', { metadata: { name: 'team-a' } }],
  [
    '',
    'v1',
    'ConfigMap',
    { metadata: { name: 'cfg' }, data: { 'app.properties': 'a=b' }, binaryData: { logo: 'AAEC' } },
  ],
  [
    '',
    'v1',
    'Secret',
    { metadata: { name: 's' }, type: 'Opaque', data: { password: 'cGFzcw==' }, stringData: { user: 'me' } },
  ],
  ['', 'v1', 'Service', service()],
  ['', 'v1', 'ServiceAccount', { metadata: { name: 'runner' } }],
  [
    '',
    'v1',
    'Node',
    {
      metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } },
      spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }], capacity: { cpu: '4', pods: '110' } },
    },
  ],
  [
    'discovery.k8s.io',
    'v1',
    'EndpointSlice',
    {
      metadata: { name: 'web-abc12', labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.244.0.5'], conditions: { ready: true }, nodeName: 'node-1' }],
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    },
  ],
  ['', 'v1', 'Pod', { metadata: { name: 'p' }, spec: podSpec() }],
  [
    '',
    'v1',
    'Event',
    { metadata: { name: 'e.1' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Started' },
  ],
  [
    'events.k8s.io',
    'v1',
    'Event',
    { metadata: { name: 'e.2' }, eventTime: '2026-01-01T00:00:00.000000Z', reason: 'R' },
  ],
  [
    '',
    'v1',
    'PersistentVolumeClaim',
    {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ],
  ['apps', 'v1', 'Deployment', deployment()],
  [
    'apps',
    'v1',
    'ReplicaSet',
    { metadata: { name: 'rs' }, spec: { selector: { matchLabels: { app: 'web' } }, template: template() } },
  ],
  [
    'apps',
    'v1',
    'StatefulSet',
    {
      metadata: { name: 'db' },
      spec: { serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template: template() },
    },
  ],
  [
    'apps',
    'v1',
    'DaemonSet',
    { metadata: { name: 'ds' }, spec: { selector: { matchLabels: { app: 'web' } }, template: template() } },
  ],
  [
    'batch',
    'v1',
    'Job',
    { metadata: { name: 'once' }, spec: { template: { spec: { ...podSpec(), restartPolicy: 'Never' } } } },
  ],
  [
    'batch',
    'v1',
    'CronJob',
    {
      metadata: { name: 'nightly' },
      spec: {
        schedule: '0 3 * * *',
        jobTemplate: { spec: { template: { spec: { ...podSpec(), restartPolicy: 'OnFailure' } } } },
      },
    },
  ],
  ['autoscaling', 'v2', 'HorizontalPodAutoscaler', hpa()],
  [
    'autoscaling',
    'v1',
    'HorizontalPodAutoscaler',
    {
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        maxReplicas: 3,
        targetCPUUtilizationPercentage: 70,
      },
    },
  ],
  ['networking.k8s.io', 'v1', 'Ingress', ingress()],
  [
    'coordination.k8s.io',
    'v1',
    'Lease',
    { metadata: { name: 'leader' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
  ],
  [
    'apiextensions.k8s.io',
    'v1',
    'CustomResourceDefinition',
    {
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    },
  ],
  [
    'rbac.authorization.k8s.io',
    'v1',
    'Role',
    { metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  ],
  [
    'rbac.authorization.k8s.io',
    'v1',
    'RoleBinding',
    {
      metadata: { name: 'rb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [{ kind: 'ServiceAccount', name: 'runner', namespace: 'default' }],
    },
  ],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRole', { metadata: { name: 'system:oam' }, rules: [] }],
  [
    'rbac.authorization.k8s.io',
    'v1',
    'ClusterRoleBinding',
    {
      metadata: { name: 'crb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:oam' },
    },
  ],
  ['authentication.k8s.io', 'v1', 'TokenReview', { metadata: {}, spec: { token: 'abc' } }],
  [
    'authorization.k8s.io',
    'v1',
    'SubjectAccessReview',
    { metadata: {}, spec: { user: 'u', resourceAttributes: { verb: 'get', resource: 'pods' } } },
  ],
];
