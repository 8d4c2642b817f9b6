import { createWidgetCrd, deleteWidgetCrd, widget, type WidgetCrd } from './crd-fixture.js';
import { useTarget } from './target.js';

/**
 * How big an object may be. kube-apiserver reads a request body up to 3 MiB (413 past it, before
 * anything is decoded); etcd stores a write up to 1.5 MiB (its --max-request-bytes default), and
 * kube-apiserver passes its refusal on as a bare 500. A dry run never reaches etcd.
 */
const target = useTarget();
let ns: string;
let crd: WidgetCrd;
beforeAll(async () => {
  ns = await target().namespace('size');
  crd = await createWidgetCrd(target());
  target().defer(() => deleteWidgetCrd(target(), crd));
}, 30_000);

/** Over etcd's 1.5 MiB once stored, under the 3 MiB body limit. */
const OVER_ETCD = 1_600_000;
/** Comfortably under etcd's limit, whatever each server's encoding adds. */
const UNDER_ETCD = 1_500_000;
/** Over kube-apiserver's 3 MiB request limit. */
const OVER_BODY = 3 * 1024 * 1024 + 10;

const APPLY = 'application/apply-patch+yaml';

interface Kind {
  name: string;
  path(name?: string): string;
  object(name: string, size: number): any;
  /** A patch that makes the object `size` bytes big, and its content type. */
  patch(size: number): [string, object];
  /** The big value in a stored object. */
  bigValue(obj: any): string;
  /** An update must name the resourceVersion (custom resources); else it is unconditional. */
  updateNamesVersion: boolean;
}

const deployments: Kind = {
  name: 'a Deployment',
  path: (name) => `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ''}`,
  object: (name, size) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx', args: ['x'.repeat(size)] }] },
      },
    },
  }),
  patch: (size) => [
    'application/strategic-merge-patch+json',
    { spec: { template: { spec: { containers: [{ name: 'app', args: ['x'.repeat(size)] }] } } } },
  ],
  bigValue: (obj) => obj.spec.template.spec.containers[0].args[0],
  // Its controller writes its status meanwhile.
  updateNamesVersion: false,
};

const widgets: Kind = {
  name: 'a custom resource',
  path: (name) => crd.path(ns, name),
  object: (name, size) => widget(name, { color: 'red', free: { data: 'x'.repeat(size) } }, crd.group),
  patch: (size) => ['application/merge-patch+json', { spec: { free: { data: 'x'.repeat(size) } } }],
  bigValue: (obj) => obj.spec.free.data,
  updateNamesVersion: true,
};

const tooLargeForEtcd = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'etcdserver: request is too large',
  code: 500,
};

describe.each([deployments, widgets])('the size of %s', (kind: Kind) => {
  const slug = kind === deployments ? 'dep' : 'cr';
  const http = () => target().http;

  it('over 1.5 MiB: create, update, patch and apply (new or existing) are 500 "etcdserver: request is too large"', async () => {
    const name = `${slug}-over`;
    const answers = [
      await http().post(kind.path(), kind.object(name, OVER_ETCD)),
      await http().patch(`${kind.path(name)}?fieldManager=m`, APPLY, kind.object(name, OVER_ETCD)),
    ];
    for (const res of answers) expect([res.status, res.json()]).toEqual([500, tooLargeForEtcd]);
    expect((await http().get(kind.path(name))).status).toBe(404);

    const small = (await http().post(kind.path(), kind.object(name, 10))).json();
    const big = kind.object(name, OVER_ETCD);
    if (kind.updateNamesVersion) big.metadata.resourceVersion = small.metadata.resourceVersion;
    const [patchType, patch] = kind.patch(OVER_ETCD);
    const changes = [
      await http().put(kind.path(name), big),
      await http().patch(kind.path(name), patchType, patch),
      await http().patch(`${kind.path(name)}?fieldManager=m&force=true`, APPLY, kind.object(name, OVER_ETCD)),
    ];
    for (const res of changes) expect([res.status, res.json()]).toEqual([500, tooLargeForEtcd]);
    expect(kind.bigValue((await http().get(kind.path(name))).json())).toBe('x'.repeat(10));
  });

  it('over 1.5 MiB in a dry run is answered as it would be stored (nothing reaches etcd)', async () => {
    const res = await http().post(`${kind.path()}?dryRun=All`, kind.object(`${slug}-dry`, OVER_ETCD));
    expect(res.status).toBe(201);
    expect(kind.bigValue(res.json())).toHaveLength(OVER_ETCD);
    expect((await http().get(kind.path(`${slug}-dry`))).status).toBe(404);
  });

  it('under 1.5 MiB is stored', async () => {
    const res = await http().post(kind.path(), kind.object(`${slug}-under`, UNDER_ETCD));
    expect(res.status).toBe(201);
    expect(kind.bigValue((await http().get(kind.path(`${slug}-under`))).json())).toHaveLength(UNDER_ETCD);
  });

  it('a body over 3 MiB is 413 RequestEntityTooLarge for every write', async () => {
    const name = `${slug}-body`;
    await http().post(kind.path(), kind.object(name, 10));
    const [patchType, patch] = kind.patch(OVER_BODY);
    const answers = [
      await http().post(kind.path(), kind.object(name, OVER_BODY)),
      await http().put(kind.path(name), kind.object(name, OVER_BODY)),
      await http().patch(kind.path(name), patchType, patch),
      await http().patch(`${kind.path(name)}?fieldManager=m`, APPLY, kind.object(name, OVER_BODY)),
    ];
    for (const res of answers) {
      expect(res.status).toBe(413);
      expect(res.json()).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Request entity too large: limit is 3145728',
        reason: 'RequestEntityTooLarge',
        code: 413,
      });
    }
  });
});

describe('managedFields that make an object too big', () => {
  // 70,000 keys: about 1 MB of object, and as much again of managedFields listing each key.
  const manyKeys = () => Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`k${i}`, '']));
  const widgetOf = (name: string) => widget(name, { color: 'red', free: manyKeys() }, crd.group);

  it('are dropped by a create or update, which stores the object without them', async () => {
    const created = await target().http.post(crd.path(ns), widgetOf('many-keys'));
    expect(created.status).toBe(201);
    expect(created.json().metadata.managedFields).toBeUndefined();
    const stored = (await target().http.get(crd.path(ns, 'many-keys'))).json();
    expect(Object.keys(stored.spec.free)).toHaveLength(70_000);
    expect(stored.metadata.managedFields).toBeUndefined();
    const updated = await target().http.put(crd.path(ns, 'many-keys'), {
      ...widgetOf('many-keys'),
      metadata: { name: 'many-keys', resourceVersion: stored.metadata.resourceVersion, labels: { a: 'b' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json().metadata.managedFields).toBeUndefined();
  });

  it('refuse an apply, whose managedFields are what it is about', async () => {
    const res = await target().http.patch(
      `${crd.path(ns, 'many-keys-applied')}?fieldManager=m`,
      APPLY,
      widgetOf('many-keys-applied'),
    );
    expect([res.status, res.json()]).toEqual([500, tooLargeForEtcd]);
  });
});

describe('the size of a ConfigMap', () => {
  it('its data is capped at 1 MiB before etcd is asked: 422 naming the limit', async () => {
    const res = await target().http.post(`/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'cm-over' },
      data: { a: 'x'.repeat(1024 * 1024 + 1) },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      message: 'ConfigMap "cm-over" is invalid: []: Too long: may not be more than 1048576 bytes',
      reason: 'Invalid',
      details: {
        name: 'cm-over',
        kind: 'ConfigMap',
        causes: [
          {
            reason: 'FieldValueTooLong',
            message: 'Too long: may not be more than 1048576 bytes',
            field: '[]',
          },
        ],
      },
    });
  });

  it('annotations are capped at 256 KiB: 422 naming metadata.annotations', async () => {
    const res = await target().http.post(`/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'cm-annotated', annotations: { a: 'x'.repeat(256 * 1024 + 1) } },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      message:
        'ConfigMap "cm-annotated" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes',
      details: {
        causes: [
          {
            reason: 'FieldValueTooLong',
            message: 'Too long: may not be more than 262144 bytes',
            field: 'metadata.annotations',
          },
        ],
      },
    });
  });
});
