import { type TypedObject } from '#kube-core';
import { definitionNamed, loadDefinitionFiles } from './support/load.js';
import { renderTemplate } from './support/cue.js';
import { componentContext } from './support/context.js';

/** Evaluates every built-in ComponentDefinition's CUE on representative properties. */
const files = loadDefinitionFiles();

function render(name: string, properties: Record<string, unknown>) {
  const def = definitionNamed(files, 'components', name).object as {
    spec: { schematic: { cue: { template: string } } };
  };
  return renderTemplate(def.spec.schematic.cue.template, properties, componentContext('api', name));
}

type Obj = Record<string, any>;
const podSpec = (o: TypedObject | undefined): Obj => (o as Obj).spec.template.spec;

describe('webservice', () => {
  it('renders a Deployment and a Service for the exposed ports', async () => {
    const { output, outputs } = await render('webservice', {
      image: 'ghcr.io/example/api:1.0',
      cmd: ['/api'],
      args: ['--verbose'],
      env: [
        { name: 'MODE', value: 'prod' },
        { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      ],
      cpu: '250m',
      memory: '256Mi',
      ports: [
        { port: 8080, expose: true },
        { port: 9090, name: 'metrics' },
        { port: 53, protocol: 'UDP', expose: true },
      ],
      exposeType: 'NodePort',
      imagePullPolicy: 'IfNotPresent',
      imagePullSecrets: ['regcred'],
      livenessProbe: { httpGet: { path: '/healthz', port: 8080 } },
      volumeMounts: {
        configMap: [{ name: 'config', mountPath: '/etc/api', cmName: 'api-config' }],
        emptyDir: [
          { name: 'cache', mountPath: '/cache' },
          { name: 'cache', mountPath: '/tmp/cache', subPath: 'tmp' },
        ],
      },
      labels: { tier: 'web' },
      annotations: { 'prometheus.io/scrape': 'true' },
    });
    expect(output).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      spec: {
        selector: { matchLabels: { 'app.oam.dev/component': 'api' } },
        template: {
          metadata: {
            labels: { tier: 'web', 'app.oam.dev/name': 'shop', 'app.oam.dev/component': 'api' },
            annotations: { 'prometheus.io/scrape': 'true' },
          },
        },
      },
    });
    const pod = podSpec(output);
    expect(pod.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(pod.containers).toHaveLength(1);
    const [container] = pod.containers;
    expect(container).toMatchObject({
      name: 'api',
      image: 'ghcr.io/example/api:1.0',
      command: ['/api'],
      args: ['--verbose'],
      imagePullPolicy: 'IfNotPresent',
      resources: { limits: { cpu: '250m', memory: '256Mi' }, requests: { cpu: '250m', memory: '256Mi' } },
      livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10, failureThreshold: 3 },
    });
    expect(container.env[1]).toEqual({
      name: 'DB_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'db', key: 'password' } },
    });
    expect(container.ports).toEqual([
      { containerPort: 8080, protocol: 'TCP', name: 'port-8080' },
      { containerPort: 9090, protocol: 'TCP', name: 'metrics' },
      { containerPort: 53, protocol: 'UDP', name: 'port-53-udp' },
    ]);
    expect(container.volumeMounts.map((m: Obj) => m.mountPath)).toEqual(['/etc/api', '/cache', '/tmp/cache']);
    // Two mounts of one volume yield one volume.
    expect(pod.volumes).toEqual([
      { name: 'config', configMap: { name: 'api-config', defaultMode: 420 } },
      { name: 'cache', emptyDir: { medium: '' } },
    ]);
    expect(Object.keys(outputs)).toEqual(['webserviceExpose']);
    expect(outputs.webserviceExpose).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api' },
      spec: {
        selector: { 'app.oam.dev/component': 'api' },
        type: 'NodePort',
        ports: [
          { name: 'port-8080', port: 8080, targetPort: 8080, protocol: 'TCP' },
          { name: 'port-53-udp', port: 53, targetPort: 53, protocol: 'UDP' },
        ],
      },
    });
  });

  it('gives the older single `port` to the container only, as KubeVela does (no Service)', async () => {
    const { output, outputs } = await render('webservice', { image: 'nginx', port: 80 });
    expect(podSpec(output).containers[0].ports).toEqual([{ containerPort: 80 }]);
    expect(outputs).toEqual({});
  });

  it('maps a Service port to another container port with `containerPort`', async () => {
    const { output, outputs } = await render('webservice', {
      image: 'nginx',
      ports: [{ port: 80, containerPort: 8080, expose: true }],
    });
    expect(podSpec(output).containers[0].ports).toEqual([
      { containerPort: 8080, protocol: 'TCP', name: 'port-8080' },
    ]);
    expect((outputs.webserviceExpose as Obj).spec.ports).toEqual([
      { name: 'port-8080', port: 80, targetPort: 8080, protocol: 'TCP' },
    ]);
  });

  it('sets limits above the requests with `limit`', async () => {
    const { output } = await render('webservice', {
      image: 'nginx',
      cpu: '250m',
      memory: '256Mi',
      limit: { cpu: '1' },
    });
    expect(podSpec(output).containers[0].resources).toEqual({
      requests: { cpu: '250m', memory: '256Mi' },
      limits: { cpu: '1', memory: '256Mi' },
    });
  });

  it('renders no Service when no port is exposed', async () => {
    const { output, outputs } = await render('webservice', { image: 'nginx', ports: [{ port: 80 }] });
    expect(output?.kind).toBe('Deployment');
    expect(outputs).toEqual({});
  });

  it('rejects properties of the wrong type, naming the field', async () => {
    await expect(render('webservice', { image: 'nginx', port: 'eighty' })).rejects.toThrow(
      /properties\.port: expected integer/,
    );
    await expect(render('webservice', { ports: [{ port: 80 }] })).rejects.toThrow(/image/);
  });

  it('mounts the older `volumes` form', async () => {
    const { output } = await render('webservice', {
      image: 'nginx',
      volumes: [
        { name: 'data', mountPath: '/data', type: 'pvc', claimName: 'data-claim' },
        { name: 'tmp', mountPath: '/tmp' },
      ],
    });
    expect(podSpec(output).volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-claim' } },
      { name: 'tmp', emptyDir: { medium: '' } },
    ]);
    expect(podSpec(output).containers[0].volumeMounts).toEqual([
      { name: 'data', mountPath: '/data' },
      { name: 'tmp', mountPath: '/tmp' },
    ]);
  });
});

describe('worker', () => {
  it('renders a Deployment with no Service', async () => {
    const { output, outputs } = await render('worker', {
      image: 'ghcr.io/example/mailer:2',
      env: [{ name: 'QUEUE', value: 'mail' }],
      volumeMounts: { secret: [{ name: 'creds', mountPath: '/creds', secretName: 'smtp' }] },
    });
    expect(output).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
    expect(podSpec(output).containers[0]).toMatchObject({
      name: 'api',
      env: [{ name: 'QUEUE', value: 'mail' }],
    });
    expect(podSpec(output).volumes).toEqual([
      { name: 'creds', secret: { secretName: 'smtp', defaultMode: 420 } },
    ]);
    expect(outputs).toEqual({});
  });
});

describe('daemon', () => {
  it('renders a DaemonSet selected by component', async () => {
    const { output, outputs } = await render('daemon', {
      image: 'fluent/fluent-bit:3',
      volumeMounts: { hostPath: [{ name: 'logs', mountPath: '/var/log', path: '/var/log' }] },
      ports: [{ port: 2020, expose: true }],
    });
    expect(output).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      spec: { selector: { matchLabels: { 'app.oam.dev/component': 'api' } } },
    });
    expect(podSpec(output).volumes).toEqual([{ name: 'logs', hostPath: { path: '/var/log' } }]);
    expect((outputs.webserviceExpose as Obj).spec.ports).toEqual([
      { name: 'port-2020', port: 2020, targetPort: 2020, protocol: 'TCP' },
    ]);
  });
});

describe('statefulset', () => {
  it('renders a StatefulSet, its headless Service and a Service for exposed ports', async () => {
    const { output, outputs } = await render('statefulset', {
      image: 'postgres:16',
      ports: [{ port: 5432, expose: true }],
      env: [{ name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }],
    });
    expect(output).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      spec: { serviceName: 'api-headless', selector: { matchLabels: { 'app.oam.dev/component': 'api' } } },
    });
    expect(Object.keys(outputs).sort()).toEqual(['headless', 'statefulsetsExpose']);
    expect(outputs.headless).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api-headless' },
      spec: {
        clusterIP: 'None',
        selector: { 'app.oam.dev/component': 'api' },
        ports: [{ name: 'port-5432', port: 5432, targetPort: 5432, protocol: 'TCP' }],
      },
    });
    expect(outputs.statefulsetsExpose.metadata).toEqual({ name: 'api' });
  });

  it('still renders the headless Service when no port is declared', async () => {
    const { outputs } = await render('statefulset', { image: 'redis:7' });
    expect(Object.keys(outputs)).toEqual(['headless']);
    expect(outputs.headless.spec).toEqual({
      clusterIP: 'None',
      selector: { 'app.oam.dev/component': 'api' },
    });
  });
});

describe('task', () => {
  it('renders a Job running `count` pods', async () => {
    const { output, outputs } = await render('task', {
      image: 'perl:5.34',
      cmd: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'],
      count: 3,
      restart: 'OnFailure',
      backoffLimit: 2,
    });
    expect(output).toMatchObject({
      apiVersion: 'batch/v1',
      kind: 'Job',
      spec: { parallelism: 3, completions: 3, backoffLimit: 2 },
    });
    expect(podSpec(output)).toMatchObject({
      restartPolicy: 'OnFailure',
      containers: [
        { name: 'api', image: 'perl:5.34', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] },
      ],
    });
    expect(outputs).toEqual({});
  });

  it('defaults to one pod that is never restarted', async () => {
    const { output } = await render('task', { image: 'busybox' });
    expect((output as Obj).spec).toMatchObject({ parallelism: 1, completions: 1 });
    expect(podSpec(output).restartPolicy).toBe('Never');
  });

  it('accepts only Never or OnFailure as restart policy', async () => {
    await expect(render('task', { image: 'busybox', restart: 'Always' })).rejects.toThrow(/restart/);
  });
});

describe('cron-task', () => {
  it('renders a batch/v1 CronJob with KubeVela defaults', async () => {
    const { output } = await render('cron-task', {
      image: 'busybox',
      schedule: '*/5 * * * *',
      cmd: ['date'],
      concurrencyPolicy: 'Forbid',
    });
    expect(output).toMatchObject({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      spec: {
        schedule: '*/5 * * * *',
        concurrencyPolicy: 'Forbid',
        suspend: false,
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
        jobTemplate: {
          metadata: { labels: { 'app.oam.dev/component': 'api' } },
          spec: { parallelism: 1, completions: 1, backoffLimit: 6 },
        },
      },
    });
    const pod = (output as Obj).spec.jobTemplate.spec.template.spec;
    expect(pod).toMatchObject({ restartPolicy: 'Never', containers: [{ name: 'api', command: ['date'] }] });
  });

  it('mounts volumes by type, as webservice does (volumeMounts)', async () => {
    const { output } = await render('cron-task', {
      image: 'busybox',
      schedule: '@daily',
      volumeMounts: {
        pvc: [{ name: 'data', mountPath: '/data', claimName: 'data-claim' }],
        configMap: [{ name: 'conf', mountPath: '/etc/conf', cmName: 'conf' }],
        secret: [{ name: 'creds', mountPath: '/creds', secretName: 'creds', subPath: 'token' }],
        emptyDir: [{ name: 'tmp', mountPath: '/tmp', medium: 'Memory' }],
        hostPath: [{ name: 'logs', mountPath: '/var/log', path: '/var/log' }],
      },
    });
    const pod = (output as Obj).spec.jobTemplate.spec.template.spec;
    expect(pod.containers[0].volumeMounts).toEqual([
      { name: 'data', mountPath: '/data' },
      { name: 'conf', mountPath: '/etc/conf' },
      { name: 'creds', mountPath: '/creds', subPath: 'token' },
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'logs', mountPath: '/var/log' },
    ]);
    expect(pod.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-claim' } },
      { name: 'conf', configMap: { name: 'conf', defaultMode: 420 } },
      { name: 'creds', secret: { secretName: 'creds', defaultMode: 420 } },
      { name: 'tmp', emptyDir: { medium: 'Memory' } },
      { name: 'logs', hostPath: { path: '/var/log' } },
    ]);
  });

  it('renders batch/v1beta1 for clusters before 1.25, as KubeVela does', async () => {
    const def = definitionNamed(files, 'components', 'cron-task').object as {
      spec: { schematic: { cue: { template: string } } };
    };
    const context = componentContext('api', 'cron-task');
    const old = { ...context, clusterVersion: { major: 1, minor: 24, gitVersion: 'v1.24.0', platform: '' } };
    const properties = { image: 'busybox', schedule: '@daily' };
    expect((await renderTemplate(def.spec.schematic.cue.template, properties, old)).output?.apiVersion).toBe(
      'batch/v1beta1',
    );
  });

  it('requires a schedule', async () => {
    await expect(render('cron-task', { image: 'busybox' })).rejects.toThrow(/schedule/);
  });
});

describe('k8s-objects', () => {
  it('passes raw objects through: the first is the workload', async () => {
    const objects = [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'raw' }, spec: { replicas: 2 } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw-config' }, data: { a: 'b' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'raw-secret' }, stringData: { c: 'd' } },
    ];
    const { output, outputs } = await render('k8s-objects', { objects });
    expect(output).toEqual(objects[0]);
    expect(outputs).toEqual({ 'objects-1': objects[1], 'objects-2': objects[2] });
  });

  it('requires apiVersion and kind on every object', async () => {
    await expect(render('k8s-objects', { objects: [{ metadata: { name: 'x' } }] })).rejects.toThrow(
      /apiVersion|kind|incomplete/,
    );
  });
});
