import { PATCH_STRATEGY } from '../../libs/renderer/src/patch/index.js';
import { pod, trait, workload, type Obj } from './support/traits.js';

/** The CUE traits that patch the pod template: env, annotations, sidecar, resource, storage, affinity. */
describe('env', () => {
  const base = () =>
    workload('webservice', {
      image: 'nginx',
      env: [
        { name: 'A', value: '1' },
        { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        { name: 'C', value: '3' },
      ],
    });

  it('overrides, adds and unsets variables of the component container, keeping the rest', async () => {
    const { apply } = await trait('env', { env: { A: 'one', D: '4' }, unset: ['C'] }, await base());
    expect(pod(apply()).containers[0].env).toEqual([
      { name: 'A', value: 'one' },
      { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      { name: 'D', value: '4' },
    ]);
  });

  it('replaces the whole environment on request', async () => {
    const { apply } = await trait('env', { env: { Z: 'z' }, replace: true }, await base());
    expect(pod(apply()).containers[0].env).toEqual([{ name: 'Z', value: 'z' }]);
  });

  it('targets other containers by name', async () => {
    const withSidecar = await trait('sidecar', { name: 'proxy', image: 'envoy' }, await base());
    const { apply } = await trait(
      'env',
      { containers: [{ containerName: 'proxy', env: { LOG: 'debug' } }] },
      withSidecar.apply(),
    );
    const containers = pod(apply()).containers;
    expect(containers.map((c: Obj) => c.name)).toEqual(['api', 'proxy']);
    expect(containers[0].env).toHaveLength(3);
    expect(containers[1].env).toEqual([{ name: 'LOG', value: 'debug' }]);
  });

  it('names a container that does not exist', async () => {
    await expect(trait('env', { containerName: 'nope', env: { A: 'b' } }, await base())).rejects.toThrow(
      /container \\"nope\\" not found/,
    );
  });
});

describe('annotations', () => {
  it('annotates the workload and its pods', async () => {
    const { apply } = await trait(
      'annotations',
      { 'a.example.com/x': 'y' },
      await workload('worker', { image: 'busybox' }),
    );
    const result = apply() as Obj;
    expect(result.metadata.annotations).toEqual({ 'a.example.com/x': 'y' });
    expect(result.spec.template.metadata.annotations).toEqual({ 'a.example.com/x': 'y' });
    expect(result.spec.template.metadata.labels['app.oam.dev/component']).toBe('api');
  });

  it("annotates a CronJob's job pods, and an object without pods only on itself", async () => {
    const cron = await workload('cron-task', { image: 'busybox', schedule: '@daily' });
    const { patch } = await trait('annotations', { k: 'v' }, cron, 'cron-task');
    expect(patch).toEqual({
      metadata: { annotations: { k: 'v' } },
      spec: {
        jobTemplate: {
          metadata: { annotations: { k: 'v' } },
          spec: { template: { metadata: { annotations: { k: 'v' } } } },
        },
      },
    });
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {} };
    expect((await trait('annotations', { k: 'v' }, configMap, 'k8s-objects')).patch).toEqual({
      metadata: { annotations: { k: 'v' } },
    });
  });

  it('removes an annotation given null, as a JSON merge patch (KubeVela), and may overwrite one', async () => {
    const base = await workload('webservice', { image: 'nginx', annotations: { drop: 'me', keep: 'x' } });
    const { apply, patch, patchKeys } = await trait(
      'annotations',
      { drop: null, keep: 'y', note: 'hi' },
      base,
    );
    expect(patchKeys).toEqual({ '': PATCH_STRATEGY.jsonMergePatch });
    expect((patch as Obj).metadata.annotations).toEqual({ drop: null, keep: 'y', note: 'hi' });
    const result = apply() as Obj;
    expect(result.metadata.annotations).toEqual({ keep: 'y', note: 'hi' });
    expect(result.spec.template.metadata.annotations).toEqual({ keep: 'y', note: 'hi' });
  });
});

describe('sidecar', () => {
  it('adds a container merged by name', async () => {
    const { apply, patchKeys } = await trait(
      'sidecar',
      {
        name: 'log',
        image: 'fluent-bit',
        args: ['-c', '/conf'],
        volumes: [{ name: 'logs', path: '/var/log/app' }],
      },
      await workload('webservice', { image: 'nginx' }),
    );
    expect(patchKeys).toEqual({ 'spec.template.spec.containers': 'name' });
    const containers = pod(apply()).containers;
    expect(containers).toHaveLength(2);
    expect(containers[1]).toEqual({
      name: 'log',
      image: 'fluent-bit',
      args: ['-c', '/conf'],
      volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }],
    });
    // Applying it again changes nothing: same name, same container.
    const again = await trait(
      'sidecar',
      { name: 'log', image: 'fluent-bit', args: ['-c', '/conf'] },
      apply(),
    );
    expect(pod(again.apply())).toEqual(pod(apply()));
    // A different image for the same container is a conflict, as in KubeVela: patches unify.
    const other = await trait('sidecar', { name: 'log', image: 'fluent-bit:2' }, apply());
    expect(() => other.apply()).toThrow(
      /traits\[0\] \(sidecar\): patch\.spec\.template\.spec\.containers\[1\]\.image: conflicting values "fluent-bit" \(workload\) and "fluent-bit:2" \(patch\)/,
    );
  });
});

describe('resource', () => {
  it("replaces the first container's requests and limits, with KubeVela's defaults", async () => {
    const base = await workload('webservice', { image: 'nginx', memory: '128Mi' });
    const { apply, patchKeys } = await trait('resource', { cpu: '500m' }, base);
    expect(patchKeys).toMatchObject({
      'spec.template.spec.containers': 'name',
      'spec.template.spec.containers[].resources.requests': PATCH_STRATEGY.retainKeys,
      'spec.template.spec.containers[].resources.limits': PATCH_STRATEGY.retainKeys,
    });
    // memory defaults to 2048Mi and replaces the component's 128Mi, as with KubeVela's resource trait.
    expect(pod(apply()).containers[0].resources).toEqual({
      requests: { cpu: '500m', memory: '2048Mi' },
      limits: { cpu: '500m', memory: '2048Mi' },
    });
    expect(pod((await trait('resource', {}, base)).apply()).containers[0].resources).toEqual({
      requests: { cpu: 1, memory: '2048Mi' },
      limits: { cpu: 1, memory: '2048Mi' },
    });
  });

  it('takes explicit requests and limits, each with its own defaults', async () => {
    const base = await workload('webservice', { image: 'nginx', cpu: '1', memory: '128Mi' });
    const { apply } = await trait(
      'resource',
      { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: 2 } },
      base,
    );
    expect(pod(apply()).containers[0].resources).toEqual({
      requests: { cpu: '250m', memory: '64Mi' },
      limits: { cpu: 2, memory: '2048Mi' },
    });
  });

  it("patches a CronJob's job pods, and the first container whatever its name", async () => {
    const cron = await workload('cron-task', { image: 'busybox', schedule: '@daily' });
    const { apply } = await trait('resource', { cpu: '100m', memory: '64Mi' }, cron, 'cron-task');
    const [container] = (apply() as Obj).spec.jobTemplate.spec.template.spec.containers;
    expect(container).toMatchObject({
      name: 'api',
      resources: { requests: { cpu: '100m', memory: '64Mi' } },
    });
    const raw = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'raw' },
      spec: { template: { spec: { containers: [{ name: 'main', image: 'x' }] } } },
    };
    const onRaw = await trait('resource', { cpu: '1', memory: '1Gi' }, raw as never, 'k8s-objects');
    expect(pod(onRaw.apply()).containers).toEqual([
      {
        name: 'main',
        image: 'x',
        resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
      },
    ]);
  });

  it('rejects a malformed memory quantity', async () => {
    const base = await workload('webservice', { image: 'nginx' });
    await expect(trait('resource', { memory: 'lots' }, base)).rejects.toThrow(/memory/);
  });
});

describe('storage', () => {
  it('mounts volumes by name, maps keys to env and creates what it declares', async () => {
    const base = await workload('webservice', {
      image: 'nginx',
      env: [{ name: 'KEEP', value: 'me' }],
      volumeMounts: { emptyDir: [{ name: 'tmp', mountPath: '/tmp' }] },
    });
    const { apply, outputs, patchKeys } = await trait(
      'storage',
      {
        pvc: [{ name: 'data', mountPath: '/data', resources: { requests: { storage: '1Gi' } } }],
        configMap: [
          {
            name: 'conf',
            mountPath: '/etc/conf',
            data: { 'app.ini': 'x=1' },
            mountToEnv: { envName: 'MODE', configMapKey: 'mode' },
          },
        ],
        secret: [{ name: 'creds', mountOnly: true, mountToEnvs: [{ envName: 'TOKEN', secretKey: 'token' }] }],
        emptyDir: [{ name: 'cache', mountPath: '/cache', medium: 'Memory' }],
      },
      base,
    );
    expect(patchKeys).toEqual({
      'spec.template.spec.volumes': 'name',
      'spec.template.spec.containers': 'name',
      'spec.template.spec.containers[].volumeMounts': 'name',
      'spec.template.spec.containers[].env': 'name',
    });
    const spec = pod(apply());
    expect(spec.volumes.map((v: Obj) => v.name)).toEqual([
      'tmp',
      'pvc-data',
      'configmap-conf',
      'emptydir-cache',
    ]);
    expect(spec.containers).toHaveLength(1);
    expect(spec.containers[0].volumeMounts).toEqual([
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'pvc-data', mountPath: '/data' },
      { name: 'configmap-conf', mountPath: '/etc/conf', readOnly: false },
      { name: 'emptydir-cache', mountPath: '/cache' },
    ]);
    expect(spec.containers[0].env).toEqual([
      { name: 'KEEP', value: 'me' },
      { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'conf', key: 'mode' } } },
      { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } },
    ]);
    expect(Object.keys(outputs)).toEqual(['pvc-data', 'configmap-conf']);
    expect(outputs['pvc-data']).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        volumeMode: 'Filesystem',
        resources: { requests: { storage: '1Gi' } },
      },
    });
    expect(outputs['configmap-conf']).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'conf' },
      data: { 'app.ini': 'x=1' },
    });
  });

  it('attaches block-mode claims as devices', async () => {
    const { patch } = await trait(
      'storage',
      { pvc: [{ name: 'raw', mountPath: '/dev/xvda', volumeMode: 'Block', mountOnly: true }] },
      await workload('statefulset', { image: 'db' }),
      'statefulset',
    );
    expect((patch as Obj).spec.template.spec.containers[0]).toEqual({
      name: 'api',
      volumeDevices: [{ name: 'pvc-raw', devicePath: '/dev/xvda' }],
    });
  });
});

describe('affinity', () => {
  it('patches affinity and tolerations into the pod spec', async () => {
    const { apply } = await trait(
      'affinity',
      {
        podAntiAffinity: {
          preferred: [
            {
              weight: 100,
              podAffinityTerm: {
                labelSelector: { matchLabels: { 'app.oam.dev/component': 'api' } },
                topologyKey: 'kubernetes.io/hostname',
              },
            },
          ],
        },
        nodeAffinity: {
          required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disktype', values: ['ssd'] }] }] },
        },
        tolerations: [{ key: 'dedicated', value: 'api', effect: 'NoSchedule' }],
      },
      await workload('webservice', { image: 'nginx' }),
    );
    const spec = pod(apply());
    expect(spec.affinity).toEqual({
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: {
              labelSelector: { matchLabels: { 'app.oam.dev/component': 'api' } },
              topologyKey: 'kubernetes.io/hostname',
            },
          },
        ],
      },
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'disktype', operator: 'In', values: ['ssd'] }] }],
        },
      },
    });
    expect(spec.tolerations).toEqual([
      { key: 'dedicated', operator: 'Equal', value: 'api', effect: 'NoSchedule' },
    ]);
    expect(spec.containers).toHaveLength(1);
  });

  it('rejects a weight outside 1..100', async () => {
    const base = await workload('webservice', { image: 'nginx' });
    const term = { topologyKey: 'zone' };
    await expect(
      trait('affinity', { podAffinity: { preferred: [{ weight: 0, podAffinityTerm: term }] } }, base),
    ).rejects.toThrow(/weight/);
  });
});
