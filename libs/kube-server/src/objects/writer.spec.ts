import { type StoredObject } from '#kube-core';
import { tempObjectService } from './testing.js';
import { ObjectService } from './service.js';

/** A JSON document the assertions walk into. */
interface Json {
  [key: string]: Json;
}

/**
 * Writes share what they keep of the stored object instead of copying it: the stored object
 * (frozen) must come out of every write as it went in, and the write's result must be what a
 * copy would have given.
 */
describe('ObjectWriter: writes that share the stored object', () => {
  let objects: ObjectService;
  let close: () => Promise<void>;
  const deployments = () => objects.info('apps', 'v1', 'deployments');
  const pods = () => objects.info('', 'v1', 'pods');

  beforeEach(() => {
    ({ objects, close } = tempObjectService('kube-writer-'));
  });
  afterEach(() => close());

  const deployment = (extra: Record<string, unknown> = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
      },
      ...extra,
    },
  });

  it('an update of /status keeps the stored spec and leaves the stored object as it was', () => {
    const stored = objects.create(deployments(), 'default', deployment(), { manager: 'creator' });
    const before = structuredClone(stored);
    const warnings: string[] = [];
    const updated = objects.update(
      deployments(),
      'default',
      'web',
      { ...stored, spec: { replicas: 5 }, status: { replicas: 1, bogus: true } },
      { manager: 'status-writer', warnings },
      'status',
    ).object;
    expect(stored).toEqual(before);
    expect(updated.spec).toEqual(stored.spec);
    expect(updated.status).toEqual({ replicas: 1 });
    expect(warnings).toEqual(['unknown field "status.bogus"']);
    const entries = (obj: StoredObject) => obj.metadata.managedFields as Array<Record<string, unknown>>;
    expect(entries(updated).map((e) => [e.manager, e.subresource, e.fieldsV1])).toEqual([
      ['creator', undefined, entries(stored)[0].fieldsV1],
      ['status-writer', 'status', { 'f:status': { 'f:replicas': {} } }],
    ]);
  });

  it('an update of /status drops an unknown field the stored spec has, without changing the stored object', () => {
    // State an older server stored (its apply let unknown fields through) can hold one.
    const created = objects.create(deployments(), 'default', deployment(), { manager: 'creator' });
    const applied = objects.core.store.put('apps/deployments', {
      ...structuredClone(created),
      spec: { ...structuredClone(created.spec as object), bogus: 1 },
    });
    const before = structuredClone(applied);
    const warnings: string[] = [];
    const updated = objects.update(
      deployments(),
      'default',
      'web',
      { ...applied, status: { replicas: 1 } },
      { manager: 'status-writer', warnings },
      'status',
    ).object;
    expect(applied).toEqual(before);
    expect(warnings).toEqual(['unknown field "spec.bogus"']);
    expect((updated.spec as Record<string, unknown>).bogus).toBeUndefined();
    expect(updated.status).toEqual({ replicas: 1 });
  });

  it('defaults the status a /status update sends, not the caller’s object', () => {
    const pod = objects.create(
      pods(),
      'default',
      { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } },
      { manager: 'creator' },
    );
    const status = { podIP: '10.0.0.1' };
    const updated = objects.update(
      pods(),
      'default',
      'p',
      { ...pod, status },
      { manager: 'kubelet', internal: true },
      'status',
    ).object;
    expect(status).toEqual({ podIP: '10.0.0.1' });
    expect(updated.status).toEqual({ podIP: '10.0.0.1', phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('an in-process update shares what it kept of the stored object and copies what it changed', () => {
    const stored = objects.create(deployments(), 'default', deployment(), {
      manager: 'creator',
    }) as StoredObject & {
      spec: Json;
    };
    const before = structuredClone(stored);
    const template = stored.spec.template as { spec: Record<string, unknown> };
    const container = { name: 'c', image: 'nginx:2' };
    const body = {
      ...stored,
      spec: {
        ...stored.spec,
        template: { ...template, spec: { ...template.spec, containers: [container] } },
      },
    };
    const updated = objects.update(deployments(), 'default', 'web', body, { manager: 'sim', internal: true })
      .object as StoredObject & { spec: Json };
    expect(stored).toEqual(before);
    expect(container).toEqual({ name: 'c', image: 'nginx:2' });
    expect(updated.spec.selector).toBe(stored.spec.selector);
    expect(updated.spec.template.spec.containers).toEqual([
      {
        name: 'c',
        image: 'nginx:2',
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ]);
    expect(updated.metadata.generation).toBe(2);
    // The image moved to the writer; the defaults it did not send are the same values, still the creator's.
    const entries = updated.metadata.managedFields as Json[];
    expect(entries.map((e) => e.manager)).toEqual(['creator', 'sim']);
    const image = {
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { 'f:image': {} } } } } },
    };
    expect(entries[1].fieldsV1).toEqual(image);
    const created = entries[0].fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"c"}'];
    expect(Object.keys(created)).toEqual([
      'f:imagePullPolicy',
      'f:name',
      'f:terminationMessagePath',
      'f:terminationMessagePolicy',
      '.',
    ]);
  });

  it('an update of the main resource keeps the stored status', () => {
    const created = objects.create(deployments(), 'default', deployment(), { manager: 'creator' });
    const withStatus = objects.update(
      deployments(),
      'default',
      'web',
      { ...created, status: { replicas: 1 } },
      { manager: 'status-writer' },
      'status',
    ).object;
    const body: StoredObject = structuredClone(withStatus);
    body.metadata.labels = { tier: 'front' };
    body.status = { replicas: 9 };
    const updated = objects.update(deployments(), 'default', 'web', body, { manager: 'labeller' }).object;
    expect(updated.status).toEqual({ replicas: 1 });
    expect(updated.metadata.labels).toEqual({ tier: 'front' });
    expect(updated.metadata.generation).toBe(1);
  });
});
