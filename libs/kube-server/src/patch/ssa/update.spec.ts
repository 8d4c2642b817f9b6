import { serverSideApply, updateManagedFields } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON objects the patch cases build, patch and walk at any depth
type Obj = Record<string, any>;

const configMaps = { group: '', version: 'v1', kind: 'ConfigMap' };
const deployments = { group: 'apps', version: 'v1', kind: 'Deployment' };
const widgets = { group: 'example.com', version: 'v1', kind: 'Widget' };
const T1 = '2026-01-01T00:00:00Z';
const T2 = '2026-01-01T00:01:00Z';

const configMap = (data: Obj, extra: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'default', uid: 'u1', resourceVersion: '7', ...extra },
  data,
});

function update(
  before: Obj | undefined,
  after: Obj,
  manager: string,
  now = T1,
  subresource?: string,
  gvk = configMaps,
): Obj[] {
  return updateManagedFields({ before, after, manager, operation: 'Update', gvk, now, subresource }) as Obj[];
}

const withFields = (obj: Obj, managedFields: Obj[]): Obj => ({
  ...obj,
  metadata: { ...obj.metadata, managedFields },
});

describe('updateManagedFields', () => {
  it('gives a create every field it set, marking maps it created with "."', () => {
    const created = configMap({ key: 'v' }, { labels: { app: 'web' } });
    expect(update(undefined, created, 'kubectl-create')).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:data': { '.': {}, 'f:key': {} },
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        },
      },
    ]);
  });

  it('marks the spec of a created custom resource as owned, as kube does for unstructured objects', () => {
    const widget = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 1 },
    };
    expect(update(undefined, widget, 'kubectl-create', T1, undefined, widgets)[0].fieldsV1).toEqual({
      'f:spec': { '.': {}, 'f:size': {} },
    });
  });

  it('moves a changed field from its applier to the updating manager (kubectl edit)', () => {
    const gvk = deployments;
    const applied = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2, paused: false },
    };
    const live = serverSideApply({
      live: undefined,
      applied,
      manager: 'oam',
      force: false,
      gvk,
      now: T1,
    }) as Obj;
    const edited = { ...live, spec: { replicas: 5, paused: false } };
    const fields = update(live, edited, 'kubectl-edit', T2, undefined, gvk);
    expect(fields.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['oam', 'Apply', { 'f:spec': { 'f:paused': {} } }],
      ['kubectl-edit', 'Update', { 'f:spec': { 'f:replicas': {} } }],
    ]);
  });

  it('drops removed fields from every manager and drops managers left with nothing', () => {
    const live = withFields(
      configMap({ a: '1', b: '2' }),
      update(undefined, configMap({ a: '1', b: '2' }), 'creator'),
    );
    const fields = update(live, configMap({ a: '1' }), 'editor', T2);
    expect(fields).toEqual([
      {
        manager: 'creator',
        operation: 'Update',
        apiVersion: 'v1',
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
      },
    ]);
  });

  it('merges successive updates of one manager and refreshes its time; a no-op changes nothing', () => {
    const first = withFields(configMap({ a: '1' }), update(undefined, configMap({ a: '1' }), 'ctl'));
    const second = update(first, configMap({ a: '1', b: '2' }), 'ctl', T2);
    expect(second).toEqual([
      {
        manager: 'ctl',
        operation: 'Update',
        apiVersion: 'v1',
        time: T2,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } },
      },
    ]);
    expect(update(first, configMap({ a: '1' }), 'ctl', T2)).toEqual(first.metadata.managedFields);
  });

  it('records status writes with their subresource and ignores the rest of the object there', () => {
    const gvk = deployments;
    const created = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 1 },
    };
    const live = withFields(created, update(undefined, created, 'creator', T1, undefined, gvk));
    const after = { ...created, spec: { replicas: 9 }, status: { readyReplicas: 1 } };
    const written = update(live, after, 'kube-controller-manager', T2, 'status', gvk);
    expect(written.filter((e) => e.manager === 'kube-controller-manager')).toEqual([
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: T2,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:readyReplicas': {} } },
        subresource: 'status',
      },
    ]);
  });

  it('honours managedFields sent by the client, and resets them when it sends [] (the object is then unmanaged)', () => {
    const live = withFields(configMap({ a: '1' }), update(undefined, configMap({ a: '1' }), 'creator'));
    const sent = [
      {
        manager: 'someone',
        operation: 'Update',
        apiVersion: 'v1',
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
      },
    ];
    expect(update(live, withFields(configMap({ a: '1' }), sent), 'ctl', T2)).toEqual(sent);
    expect(update(live, withFields(configMap({ a: '1', b: '2' }), []), 'ctl', T2)).toEqual([]);
  });

  it('leaves an existing object nobody manages unmanaged (skipNonApplied); a create is managed', () => {
    expect(update(configMap({ a: '1' }), configMap({ a: '1', b: '2' }), 'ctl', T2)).toEqual([]);
    expect(update(undefined, configMap({ a: '1' }), 'ctl', T2)).toHaveLength(1);
  });

  it('keeps at most ten Update managers, folding the oldest into ancient-changes', () => {
    let live = withFields(configMap({}), update(undefined, configMap({}), 'creator'));
    for (let i = 0; i < 12; i++) {
      const next = configMap({ ...live.data, [`k${i}`]: 'v' });
      live = withFields(
        next,
        update(live, next, `writer-${i}`, `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`),
      );
    }
    const managers = (live.metadata.managedFields as Obj[]).map((e) => e.manager);
    expect(managers).toHaveLength(10);
    expect(managers[0]).toBe('ancient-changes');
    expect(managers).not.toContain('writer-0');
    expect(managers).toContain('writer-11');
    expect(Object.keys(live.metadata.managedFields[0].fieldsV1['f:data'])).toEqual(
      expect.arrayContaining(['f:k0', 'f:k1', 'f:k2']),
    );
  });
});
