import { type TypedObject } from '#kube-core';
import { definitionNamed, loadDefinitionFiles } from './support/load.js';
import { cueEngine, renderTemplate, statusOf } from './support/cue.js';
import { componentContext } from './support/context.js';

/** Each health policy and custom status against healthy and unhealthy live objects. */
const files = loadDefinitionFiles();
type Obj = Record<string, any>;

interface WithStatus {
  spec: { schematic: { cue?: { template: string } }; status: { healthPolicy: string; customStatus: string } };
}
const definition = (folder: string, name: string) =>
  definitionNamed(files, folder, name).object as unknown as WithStatus;

/** The rendered workload as the API server would return it: generation set, the given status. */
async function live(type: string, properties: Record<string, unknown>, extra: Obj): Promise<TypedObject> {
  const { output } = await renderTemplate(
    definition('components', type).spec.schematic.cue!.template,
    properties,
    componentContext('api', type),
  );
  const object = output as Obj;
  return {
    ...object,
    metadata: { name: 'api', namespace: 'default', generation: 2, ...object.metadata, ...extra.metadata },
    spec: { ...object.spec, ...extra.spec },
    status: extra.status,
  } as unknown as TypedObject;
}

async function health(type: string, output: TypedObject) {
  return statusOf(definition('components', type).spec.status, { output, outputs: {} });
}

describe.each(['webservice', 'worker'])('%s (Deployment) health', (type) => {
  it('is healthy when every replica is ready and updated and the spec observed', async () => {
    const output = await live(
      type,
      { image: 'nginx' },
      {
        spec: { replicas: 3 },
        status: {
          observedGeneration: 2,
          replicas: 3,
          readyReplicas: 3,
          updatedReplicas: 3,
          availableReplicas: 3,
        },
      },
    );
    expect(await health(type, output)).toEqual({ isHealth: true, message: 'Ready:3/3' });
  });

  it('is unhealthy while pods are not ready, during a rollout, or before the spec is observed', async () => {
    const notReady = await live(
      type,
      { image: 'nginx' },
      {
        spec: { replicas: 3 },
        status: { observedGeneration: 2, replicas: 3, readyReplicas: 2, updatedReplicas: 3 },
      },
    );
    expect(await health(type, notReady)).toEqual({ isHealth: false, message: 'Ready:2/3' });
    const rollingOut = await live(
      type,
      { image: 'nginx' },
      {
        spec: { replicas: 2 },
        status: { observedGeneration: 2, replicas: 3, readyReplicas: 2, updatedReplicas: 1 },
      },
    );
    expect((await health(type, rollingOut)).isHealth).toBe(false);
    const stale = await live(
      type,
      { image: 'nginx' },
      {
        spec: { replicas: 1 },
        status: { observedGeneration: 1, replicas: 1, readyReplicas: 1, updatedReplicas: 1 },
      },
    );
    expect((await health(type, stale)).isHealth).toBe(false);
    const fresh = await live(type, { image: 'nginx' }, {});
    expect(await health(type, fresh)).toEqual({ isHealth: false, message: 'Ready:0/1' });
  });

  it('is healthy regardless when health checks are disabled by annotation', async () => {
    const output = await live(
      type,
      { image: 'nginx' },
      {
        metadata: { annotations: { 'app.oam.dev/disable-health-check': 'true' } },
        status: { observedGeneration: 2 },
      },
    );
    expect((await health(type, output)).isHealth).toBe(true);
  });
});

describe('statefulset health', () => {
  it('follows ready and updated replicas', async () => {
    const ready = await live(
      'statefulset',
      { image: 'db' },
      {
        spec: { replicas: 2 },
        status: {
          observedGeneration: 2,
          replicas: 2,
          readyReplicas: 2,
          updatedReplicas: 2,
          currentReplicas: 2,
        },
      },
    );
    expect(await health('statefulset', ready)).toEqual({ isHealth: true, message: 'Ready:2/2' });
    const starting = await live(
      'statefulset',
      { image: 'db' },
      {
        spec: { replicas: 2 },
        status: { observedGeneration: 2, replicas: 1, readyReplicas: 0, updatedReplicas: 1 },
      },
    );
    expect(await health('statefulset', starting)).toEqual({ isHealth: false, message: 'Ready:0/2' });
  });
});

describe('daemon health', () => {
  it('is healthy when every scheduled pod is ready and updated', async () => {
    const status = {
      observedGeneration: 2,
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      updatedNumberScheduled: 3,
      numberReady: 3,
    };
    expect(await health('daemon', await live('daemon', { image: 'agent' }, { status }))).toEqual({
      isHealth: true,
      message: 'Ready:3/3',
    });
    const rolling = { ...status, updatedNumberScheduled: 1, numberReady: 2 };
    expect(await health('daemon', await live('daemon', { image: 'agent' }, { status: rolling }))).toEqual({
      isHealth: false,
      message: 'Ready:2/3',
    });
  });
});

describe('task health', () => {
  it('is healthy once every completion succeeded', async () => {
    const done = await live('task', { image: 'busybox', count: 2 }, { status: { succeeded: 2 } });
    expect(await health('task', done)).toEqual({ isHealth: true, message: 'Active/Failed/Succeeded:0/0/2' });
    const running = await live(
      'task',
      { image: 'busybox', count: 2 },
      { status: { active: 1, failed: 1, succeeded: 1 } },
    );
    expect(await health('task', running)).toEqual({
      isHealth: false,
      message: 'Active/Failed/Succeeded:1/1/1',
    });
  });
});

describe('cron-task health', () => {
  it('is healthy while scheduled and reports the last run', async () => {
    const scheduled = await live(
      'cron-task',
      { image: 'busybox', schedule: '*/5 * * * *' },
      {
        status: { lastScheduleTime: '2025-01-01T10:05:00Z', active: [{ name: 'api-29000' }] },
      },
    );
    expect(await health('cron-task', scheduled)).toEqual({
      isHealth: true,
      message: 'Schedule: */5 * * * *, last scheduled: 2025-01-01T10:05:00Z, active jobs: 1',
    });
    const never = await live('cron-task', { image: 'busybox', schedule: '@daily' }, {});
    expect((await health('cron-task', never)).message).toBe(
      'Schedule: @daily, last scheduled: never, active jobs: 0',
    );
  });

  it('is unhealthy when suspended: it starts no jobs', async () => {
    const suspended = await live('cron-task', { image: 'busybox', schedule: '@daily', suspend: true }, {});
    expect(await health('cron-task', suspended)).toEqual({
      isHealth: false,
      message: 'Suspended, last scheduled: never',
    });
  });
});

describe('expose trait health', () => {
  const service = (type: string, status: Obj = {}) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'api' },
    spec: { type, clusterIP: '10.0.0.7', ports: [{ port: 80 }] },
    status,
  });
  async function traitHealth(svc: Obj) {
    const { spec } = definition('traits', 'expose');
    return statusOf(spec.status, { output: {} as TypedObject, outputs: { service: svc as TypedObject } });
  }

  it('is healthy at once for a ClusterIP Service', async () => {
    expect(await traitHealth(service('ClusterIP'))).toEqual({
      isHealth: true,
      message: 'ClusterIP: 10.0.0.7',
    });
  });

  it('waits for a LoadBalancer address', async () => {
    expect(await traitHealth(service('LoadBalancer'))).toEqual({
      isHealth: false,
      message: 'ExternalIP: Pending',
    });
    const ready = service('LoadBalancer', { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } });
    expect(await traitHealth(ready)).toEqual({ isHealth: true, message: 'ExternalIP: 203.0.113.9' });
  });
});

describe('gateway trait health', () => {
  const ingress = (status: Obj = {}, host: string | null = 'shop.example.com') => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'api' },
    spec: { rules: [{ ...(host ? { host } : {}), http: { paths: [] } }] },
    status,
  });
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'api' },
    spec: { clusterIP: '10.0.0.7' },
  };
  async function traitHealth(outputs: Record<string, Obj>) {
    const { spec } = definition('traits', 'gateway');
    return statusOf(spec.status, {
      output: {} as TypedObject,
      outputs: outputs as Record<string, TypedObject>,
      parameter: { http: { '/': 80 } },
    });
  }

  it("is healthy once the Ingress exists and tells where to visit it, as KubeVela's", async () => {
    expect(await traitHealth({ service, ingress: ingress() })).toEqual({
      isHealth: true,
      message: 'No loadBalancer found, visiting by using port-forward',
    });
    const ready = ingress({ loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } });
    expect(await traitHealth({ service, ingress: ready })).toEqual({
      isHealth: true,
      message: 'Visiting URL: shop.example.com, IP: 203.0.113.9',
    });
    const noHost = ingress({ loadBalancer: { ingress: [{ hostname: 'lb.example.net' }] } }, null);
    expect((await traitHealth({ 'ingress-internal': noHost })).message).toBe(
      'Host not specified, visit the cluster or load balancer in front of the cluster',
    );
  });

  it('reads only what it needs of the outputs, so applications in the same state ask the same', async () => {
    // The controller keeps evaluations by request: a policy that read whole live objects (names,
    // uids, cluster IPs) would be evaluated once per application instead of once.
    const { spec } = definition('traits', 'gateway');
    const app = (name: string, host: string) => ({
      service: {
        ...service,
        metadata: { name, uid: `${name}-svc` },
        spec: { clusterIP: `10.0.0.${name.length}` },
      },
      ingress: { ...ingress({}, host), metadata: { name, uid: `${name}-ing`, resourceVersion: '7' } },
    });
    const ask = (policy: string, outputs: Obj) => cueEngine().policyContext(policy, { outputs });
    const [a, b] = [app('shop', 'shop.example.com'), app('blog', 'blog.example.com')];
    expect(await ask(spec.status.healthPolicy, a)).toEqual(await ask(spec.status.healthPolicy, b));
    expect(await ask(spec.status.customStatus, a)).toEqual({
      outputs: {
        service: { kind: 'Service', spec: {} },
        ingress: {
          kind: 'Ingress',
          spec: { rules: [{ host: 'shop.example.com', http: { paths: [] } }] },
          status: {},
        },
      },
    });
  });
});
