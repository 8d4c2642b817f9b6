import type { RenderedObject } from '#renderer';
import type { ResourceKind } from '#runtime';
import { deepFreeze, type KubeObject } from '#kube-core';
import { buildIntent, intentFor } from './intent.js';

const app: KubeObject = {
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name: 'shop', namespace: 'team', uid: 'u1' },
};
const DEPLOYMENTS: ResourceKind = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
};
const NAMESPACES: ResourceKind = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};

const rendered = (object: KubeObject, omitOnApply: string[][] = []): RenderedObject =>
  ({ object, component: 'api', role: 'workload', omitOnApply }) as unknown as RenderedObject;

describe('buildIntent', () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'team' },
    spec: { replicas: 3 },
  };

  it('owns objects in the application’s namespace and hashes the intent', () => {
    const intent = buildIntent(rendered(deployment), DEPLOYMENTS, app, false);
    expect(intent.owned).toBe(true);
    expect(intent.object.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'core.oam.dev/v1beta1',
        kind: 'Application',
        name: 'shop',
        uid: 'u1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(intent.object.metadata?.annotations?.['app.oam.dev/applied-hash']).toMatch(/^[0-9a-f]{16}$/);
    expect(buildIntent(rendered(deployment), DEPLOYMENTS, app, false).object).toEqual(intent.object);
  });

  it('seeds handed-over fields on creation and leaves them out once the object exists', () => {
    const omit = [['spec', 'replicas']];
    expect(
      (buildIntent(rendered(deployment, omit), DEPLOYMENTS, app, false).object.spec as { replicas?: number })
        .replicas,
    ).toBe(3);
    const existing = buildIntent(rendered(deployment, omit), DEPLOYMENTS, app, true);
    expect((existing.object.spec as { replicas?: number }).replicas).toBeUndefined();
    expect(existing.object.metadata?.annotations?.['app.oam.dev/handed-over-fields']).toBe('spec.replicas');
  });

  it('gives cluster-scoped and other-namespace objects no ownerReference', () => {
    const ns = buildIntent(
      rendered({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'x', namespace: 'team', ownerReferences: [{} as never] },
      }),
      NAMESPACES,
      app,
      false,
    );
    expect(ns.owned).toBe(false);
    expect(ns.object.metadata?.namespace).toBeUndefined();
    expect(ns.object.metadata?.ownerReferences).toBeUndefined();
    const elsewhere = buildIntent(
      rendered({ ...deployment, metadata: { name: 'api', namespace: 'other' } }),
      DEPLOYMENTS,
      app,
      false,
    );
    expect(elsewhere.owned).toBe(false);
  });
});

describe('intentFor', () => {
  const deployment = () => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'team' },
    spec: { replicas: 3 },
  });

  it('keeps the intent of a frozen rendered object while the owner and the live object’s existence are the same', () => {
    const r = deepFreeze(rendered(deployment(), [['spec', 'replicas']]));
    const first = intentFor(r, DEPLOYMENTS, app, false);
    expect(first).toEqual(buildIntent(r, DEPLOYMENTS, app, false));
    expect(Object.isFrozen(first.object)).toBe(true);
    expect(intentFor(r, DEPLOYMENTS, { ...app }, false)).toBe(first);
    const existing = intentFor(r, DEPLOYMENTS, app, true);
    expect(existing).toEqual(buildIntent(r, DEPLOYMENTS, app, true));
    const otherOwner = intentFor(r, DEPLOYMENTS, { ...app, metadata: { ...app.metadata, uid: 'u2' } }, true);
    expect(otherOwner.object.metadata?.ownerReferences?.[0].uid).toBe('u2');
    expect(Object.isFrozen(DEPLOYMENTS)).toBe(false);
  });

  it('keeps one intent whether the object exists when it hands no field over', () => {
    const r = deepFreeze(rendered(deployment()));
    const created = intentFor(r, DEPLOYMENTS, app, false);
    expect(intentFor(r, DEPLOYMENTS, app, true)).toBe(created);
    expect(created).toEqual(buildIntent(r, DEPLOYMENTS, app, true));
  });

  it('builds anew for a rendered object that is not frozen', () => {
    const r = rendered(deployment());
    const first = intentFor(r, DEPLOYMENTS, app, false);
    expect(intentFor(r, DEPLOYMENTS, app, false)).not.toBe(first);
    expect(Object.isFrozen(first.object)).toBe(false);
  });
});
