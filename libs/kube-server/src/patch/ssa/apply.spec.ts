import { ApiError } from '../../errors.js';
import { serverSideApply } from '../index.js';

const deployments = { group: 'apps', version: 'v1', kind: 'Deployment' };
const configMaps = { group: '', version: 'v1', kind: 'ConfigMap' };
const T1 = '2026-01-01T00:00:00Z';
const T2 = '2026-01-01T00:01:00Z';
const T3 = '2026-01-01T00:02:00Z';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON objects the patch cases build, patch and walk at any depth
type Obj = Record<string, any>;

function deployment(spec: Obj, metadata: Obj = {}): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', ...metadata },
    spec,
  };
}

function apply(
  live: Obj | undefined,
  applied: Obj,
  manager: string,
  opts: { force?: boolean; now?: string; subresource?: string } = {},
): Obj {
  return serverSideApply({
    live,
    applied,
    manager,
    force: opts.force ?? false,
    gvk: applied.kind === 'ConfigMap' ? configMaps : deployments,
    now: opts.now ?? T1,
    subresource: opts.subresource,
  }) as Obj;
}

function entry(obj: Obj, manager: string): Obj | undefined {
  return (obj.metadata.managedFields as Obj[]).find((e) => e.manager === manager);
}

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

const nginx = { name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }] };
const template = (containers: Obj[]) => ({ metadata: { labels: { app: 'web' } }, spec: { containers } });

describe('serverSideApply', () => {
  it('creates the object and records the applier with the FieldsV1 encoding', () => {
    const created = apply(
      undefined,
      deployment({ replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template([nginx]) }),
      'oam',
    );
    expect(created.spec.replicas).toBe(2);
    expect(created.metadata.managedFields).toEqual([
      {
        manager: 'oam',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: T1,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"nginx"}': {
                    'f:image': {},
                    'f:name': {},
                    'f:ports': {
                      'k:{"containerPort":80,"protocol":"TCP"}': { 'f:containerPort': {}, '.': {} },
                    },
                    '.': {},
                  },
                },
              },
            },
          },
        },
      },
    ]);
  });

  it('shares a field two managers apply with the same value, without conflict', () => {
    const first = apply(undefined, deployment({ replicas: 3 }), 'alice');
    const both = apply(first, deployment({ replicas: 3 }), 'bob', { now: T2 });
    expect(entry(both, 'alice')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(entry(both, 'bob')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('refuses a different value for a field another manager applied, naming field and manager', () => {
    const first = apply(undefined, deployment({ replicas: 3 }), 'alice');
    const err = thrown(() => apply(first, deployment({ replicas: 5 }), 'bob'));
    expect(err.code).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    expect(err.details.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' },
    ]);
  });

  it('words conflicts with an Update manager as kube does, and lists several per manager', () => {
    const live = deployment(
      { replicas: 1, paused: false },
      {
        managedFields: [
          {
            manager: 'kubectl-client-side-apply',
            operation: 'Update',
            apiVersion: 'apps/v1',
            time: T1,
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:paused': {} } },
          },
        ],
      },
    );
    const one = thrown(() => apply(live, deployment({ replicas: 4 }), 'kubectl'));
    expect(one.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    const two = thrown(() => apply(live, deployment({ replicas: 4, paused: true }), 'kubectl'));
    expect(two.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using apps/v1:\n- .spec.paused\n- .spec.replicas',
    );
  });

  it('moves ownership to the applier with force', () => {
    const first = apply(undefined, deployment({ replicas: 3, paused: false }), 'alice');
    const forced = apply(first, deployment({ replicas: 5 }), 'bob', { force: true, now: T2 });
    expect(forced.spec.replicas).toBe(5);
    expect(entry(forced, 'alice')?.fieldsV1).toEqual({ 'f:spec': { 'f:paused': {} } });
    expect(entry(forced, 'bob')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('removes a field the manager stops applying when nobody else owns it', () => {
    const first = apply(undefined, deployment({ replicas: 3, paused: true }), 'oam');
    const second = apply(first, deployment({ paused: true }), 'oam', { now: T2 });
    expect(second.spec).toEqual({ paused: true });
    expect(entry(second, 'oam')?.fieldsV1).toEqual({ 'f:spec': { 'f:paused': {} } });
  });

  it('keeps a dropped field another manager owns, and only drops the ownership', () => {
    const first = apply(undefined, deployment({ replicas: 3, paused: true }), 'oam');
    const shared = apply(first, deployment({ replicas: 3 }), 'hpa', { now: T2 });
    const dropped = apply(shared, deployment({ paused: true }), 'oam', { now: T3 });
    expect(dropped.spec).toEqual({ replicas: 3, paused: true });
    expect(entry(dropped, 'oam')?.fieldsV1).toEqual({ 'f:spec': { 'f:paused': {} } });
    expect(entry(dropped, 'hpa')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('transfers ownership the documented way: stop applying a field after another manager took it', () => {
    const first = apply(undefined, deployment({ replicas: 3, paused: false }), 'oam');
    const taken = apply(first, deployment({ replicas: 3 }), 'handover', { now: T2 });
    const released = apply(taken, deployment({ paused: false }), 'oam', { now: T3 });
    expect(released.spec).toEqual({ replicas: 3, paused: false });
    expect(entry(released, 'oam')?.fieldsV1).toEqual({ 'f:spec': { 'f:paused': {} } });
    expect(entry(released, 'handover')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('merges associative list items by key and owns them per manager', () => {
    const first = apply(undefined, deployment({ template: template([nginx]) }), 'app-team');
    const sidecar = { name: 'proxy', image: 'envoy:1' };
    const both = apply(first, deployment({ template: { spec: { containers: [sidecar] } } }), 'mesh', {
      now: T2,
    });
    expect(both.spec.template.spec.containers.map((c: Obj) => c.name)).toEqual(['nginx', 'proxy']);
    expect(entry(both, 'mesh')?.fieldsV1).toEqual({
      'f:spec': {
        'f:template': {
          'f:spec': { 'f:containers': { 'k:{"name":"proxy"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
    const appOnly = apply(
      both,
      deployment({ template: template([{ ...nginx, image: 'nginx:1.26' }]) }),
      'app-team',
      { now: T3 },
    );
    expect(appOnly.spec.template.spec.containers).toEqual([
      { ...nginx, image: 'nginx:1.26' },
      { name: 'proxy', image: 'envoy:1' },
    ]);
    const conflict = thrown(() =>
      apply(
        appOnly,
        deployment({ template: { spec: { containers: [{ name: 'proxy', image: 'envoy:2' }] } } }),
        'app-team',
      ),
    );
    expect(conflict.message).toBe(
      'Apply failed with 1 conflict: conflict with "mesh": .spec.template.spec.containers[name="proxy"].image',
    );
  });

  it('removes a list item the applier stops applying', () => {
    const two = apply(
      undefined,
      deployment({ template: template([nginx, { name: 'log', image: 'fluentbit' }]) }),
      'oam',
    );
    const one = apply(two, deployment({ template: template([nginx]) }), 'oam', { now: T2 });
    expect(one.spec.template.spec.containers).toEqual([nginx]);
  });

  it('replaces atomic lists and atomic maps as a whole', () => {
    const first = apply(
      undefined,
      deployment({
        selector: { matchLabels: { app: 'web', tier: 'fe' } },
        template: template([{ ...nginx, args: ['-a', '-b'] }]),
      }),
      'oam',
    );
    const next = apply(
      first,
      deployment({
        selector: { matchLabels: { app: 'web' } },
        template: template([{ ...nginx, args: ['-c'] }]),
      }),
      'oam',
      {
        now: T2,
      },
    );
    expect(next.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(next.spec.template.spec.containers[0].args).toEqual(['-c']);
  });

  it('is a no-op, time included, when the same configuration is applied again', () => {
    const applied = deployment({ replicas: 2, template: template([nginx]) });
    const first = apply(undefined, applied, 'oam');
    expect(apply(first, applied, 'oam', { now: T3 })).toEqual(first);
  });

  it('keeps status out of the main resource set and spec out of the status subresource set', () => {
    const withStatus = { ...deployment({ replicas: 1 }), status: { replicas: 1 } };
    const created = apply(undefined, withStatus, 'oam');
    expect(entry(created, 'oam')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    const status = apply(created, withStatus, 'controller', { subresource: 'status', now: T2 });
    expect(entry(status, 'controller')).toEqual({
      manager: 'controller',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      time: T2,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:replicas': {} } },
      subresource: 'status',
    });
  });

  it('owns labels and data of a ConfigMap as the SSA documentation shows', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'test-cm', namespace: 'default', labels: { 'test-label': 'test' } },
      data: { key: 'some value' },
    };
    const created = apply(undefined, cm, 'kubectl');
    expect(entry(created, 'kubectl')?.fieldsV1).toEqual({
      'f:data': { 'f:key': {} },
      'f:metadata': { 'f:labels': { 'f:test-label': {} } },
    });
  });

  it.each([
    [
      'a missing fieldManager',
      () => apply(undefined, deployment({}), ''),
      422,
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    ],
    [
      'a wrong kind',
      () => apply(undefined, { ...deployment({}), kind: 'StatefulSet' }, 'm'),
      400,
      'invalid object type: apps/v1, Kind=StatefulSet',
    ],
    [
      'managedFields in the patch',
      () => apply(undefined, deployment({}, { managedFields: [] }), 'm'),
      400,
      'metadata.managedFields must be nil',
    ],
    [
      'a list item without its key',
      () => apply(undefined, deployment({ template: template([{ image: 'x' }]) }), 'm'),
      500,
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
    [
      'duplicate list keys',
      () => apply(undefined, deployment({ template: template([nginx, nginx]) }), 'm'),
      500,
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="nginx"]',
    ],
  ])('rejects %s', (_name, run, code, message) => {
    const err = thrown(run);
    expect([err.code, err.message]).toEqual([code, message]);
  });

  it('never mutates its inputs', () => {
    const live = apply(undefined, deployment({ replicas: 1, template: template([nginx]) }), 'a');
    const applied = deployment({ replicas: 2, template: template([{ name: 'x', image: 'y' }]) });
    const [liveCopy, appliedCopy] = [structuredClone(live), structuredClone(applied)];
    apply(live, applied, 'b', { force: true });
    expect([live, applied]).toEqual([liveCopy, appliedCopy]);
  });
});
