import { eventually, useTarget } from './target.js';

/** Deletion: finalizers, propagation policies over ownerReferences, namespaces. */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('del');
});

const cm = (name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
const MERGE = 'application/merge-patch+json';

async function create(name: string, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await target().http.post(cm(), { metadata: { name, ...extra } });
  if (res.status !== 201) throw new Error(`create configmap ${name}: ${res.status} ${res.text}`);
  return res.json();
}

const gone = (path: string, what: string, timeoutMs = 20_000) =>
  eventually(
    async () => ((await target().http.get(path)).status === 404 ? true : undefined),
    `${what} to be deleted`,
    timeoutMs,
  );

function ownedBy(owner: any, blockOwnerDeletion = false): Record<string, unknown> {
  return {
    ownerReferences: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: owner.metadata.name,
        uid: owner.metadata.uid,
        blockOwnerDeletion,
      },
    ],
  };
}

describe('finalizers', () => {
  it('delete marks deletionTimestamp and keeps the object until its finalizers are removed', async () => {
    const http = target().http;
    await create('held', { finalizers: ['conformance.example.com/hold'] });
    const del = await http.delete(cm('held'));
    expect(del.status).toBe(200);
    expect(del.json()).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'held' } });
    const marked = (await http.get(cm('held'))).json();
    expect(marked.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(marked.metadata.finalizers).toEqual(['conformance.example.com/hold']);
    const more = await http.patch(cm('held'), MERGE, {
      metadata: { finalizers: ['conformance.example.com/hold', 'another/one'] },
    });
    expect(more.status).toBe(422);
    expect(more.json().message).toContain('no new finalizers can be added if the object is being deleted');
    const released = await http.patch(cm('held'), MERGE, { metadata: { finalizers: null } });
    expect(released.status).toBe(200);
    await gone(cm('held'), 'configmap held');
  });
});

describe('propagationPolicy', () => {
  it('Background deletes the owner at once and its dependents after', async () => {
    const owner = await create('bg-owner');
    await create('bg-child-1', ownedBy(owner));
    await create('bg-child-2', ownedBy(owner));
    const res = await target().http.delete(cm('bg-owner'), { propagationPolicy: 'Background' });
    expect(res.status).toBe(200);
    expect((await target().http.get(cm('bg-owner'))).status).toBe(404);
    await gone(cm('bg-child-1'), 'dependent bg-child-1');
    await gone(cm('bg-child-2'), 'dependent bg-child-2');
  });

  it('Foreground keeps the owner (foregroundDeletion finalizer) until blocking dependents are gone', async () => {
    const http = target().http;
    const owner = await create('fg-owner');
    await create('fg-child', { ...ownedBy(owner, true), finalizers: ['conformance.example.com/hold'] });
    // A garbage collector that has not seen the dependent yet would finish the owner at once. It takes
    // in a resource's changes in order: once it has collected a dependent created after fg-child (whose
    // owner never existed), fg-child is in its graph.
    await create('fg-sentinel', {
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          name: 'fg-never-there',
          uid: '00000000-0000-4000-8000-000000000001',
        },
      ],
    });
    await gone(cm('fg-sentinel'), 'a later dependent, collected by the garbage collector');
    const res = await http.delete(cm('fg-owner'), { propagationPolicy: 'Foreground' });
    expect(res.status).toBe(200);
    expect(res.json().metadata.finalizers).toEqual(['foregroundDeletion']);
    const marked = (await http.get(cm('fg-owner'))).json();
    expect(marked.metadata.finalizers).toContain('foregroundDeletion');
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    // The child is being deleted but holds on; the owner must wait for it.
    const child = await eventually(async () => {
      const c = (await http.get(cm('fg-child'))).json();
      return c.metadata.deletionTimestamp ? c : undefined;
    }, 'dependent fg-child to be marked for deletion');
    expect(child.metadata.finalizers).toEqual(['conformance.example.com/hold']);
    expect((await http.get(cm('fg-owner'))).status).toBe(200);
    await http.patch(cm('fg-child'), MERGE, { metadata: { finalizers: null } });
    await gone(cm('fg-child'), 'dependent fg-child');
    await gone(cm('fg-owner'), 'owner fg-owner');
  });

  it('Orphan deletes the owner and leaves dependents without the ownerReference', async () => {
    const http = target().http;
    const owner = await create('or-owner');
    await create('or-child', ownedBy(owner));
    const res = await http.delete(cm('or-owner'), { propagationPolicy: 'Orphan' });
    expect(res.status).toBe(200);
    await gone(cm('or-owner'), 'owner or-owner');
    const child = await eventually<any>(async () => {
      const res = await http.get(cm('or-child'));
      if (res.status !== 200) throw new Error(`orphaned dependent or-child: ${res.status} ${res.text}`);
      return res.json().metadata.ownerReferences ? undefined : res.json();
    }, 'or-child to lose its ownerReference');
    expect(child.metadata.deletionTimestamp).toBeUndefined();
  });

  it('dependents of an owner that no longer exists are collected', async () => {
    await create('dangling', {
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          name: 'never-there',
          uid: '00000000-0000-4000-8000-000000000000',
        },
      ],
    });
    await gone(cm('dangling'), 'configmap whose owner does not exist');
  });
});

describe('namespaces', () => {
  it('a namespaced object in a namespace that does not exist is 404 NotFound for the namespace', async () => {
    const missing = target().unique('missing');
    const res = await target().http.post(`/api/v1/namespaces/${missing}/configmaps`, {
      metadata: { name: 'x' },
    });
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({
      reason: 'NotFound',
      message: `namespaces "${missing}" not found`,
      details: { name: missing, kind: 'namespaces' },
    });
  });

  it('deleting a namespace terminates it, refuses new content, and removes everything in it', async () => {
    const http = target().http;
    const doomed = await target().namespace('doomed');
    await http.post(`/api/v1/namespaces/${doomed}/configmaps`, { metadata: { name: 'inside' } });
    await http.post(`/api/v1/namespaces/${doomed}/secrets`, {
      metadata: { name: 'held', finalizers: ['conformance.example.com/hold'] },
    });
    const del = await http.delete(`/api/v1/namespaces/${doomed}`);
    expect(del.status).toBe(200);
    const terminating = (await http.get(`/api/v1/namespaces/${doomed}`)).json();
    expect(terminating.status.phase).toBe('Terminating');
    expect(terminating.metadata.deletionTimestamp).toBeDefined();
    const refused = await http.post(`/api/v1/namespaces/${doomed}/configmaps`, {
      metadata: { name: 'late' },
    });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({
      reason: 'Forbidden',
      message: `configmaps "late" is forbidden: unable to create new content in namespace ${doomed} because it is being terminated`,
      details: {
        name: 'late',
        kind: 'configmaps',
        causes: [{ reason: 'NamespaceTerminating', field: 'metadata.namespace' }],
      },
    });
    await gone(`/api/v1/namespaces/${doomed}/configmaps/inside`, 'configmap in the terminating namespace');
    // The namespace waits for the finalizer of what is inside it.
    expect((await http.get(`/api/v1/namespaces/${doomed}`)).status).toBe(200);
    await http.patch(`/api/v1/namespaces/${doomed}/secrets/held`, MERGE, { metadata: { finalizers: null } });
    await gone(`/api/v1/namespaces/${doomed}`, `namespace ${doomed}`, 30_000);
  }, 40_000);
});
