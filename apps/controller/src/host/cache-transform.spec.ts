import type { KubeObject } from '#kube-core';
import { controllerCacheTransform } from './cache-transform.js';

/** A JSON document the assertions walk into. */
interface Json {
  [key: string]: Json;
}

const revision = (app: string, template: string): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'ApplicationRevision',
  metadata: {
    name: `${app}-v1`,
    namespace: 'prod',
    managedFields: [{ manager: 'oam-controller' }],
  } as KubeObject['metadata'],
  spec: {
    revision: 1,
    application: { metadata: { name: app }, spec: { components: [] } },
    componentDefinitions: { webservice: { kind: 'ComponentDefinition', spec: { template } } },
    traitDefinitions: { scaler: { kind: 'TraitDefinition', spec: { template: 'replicas' } } },
  },
});

describe('controllerCacheTransform', () => {
  it('keeps equal stored definitions of different revisions once, and drops managedFields', () => {
    const transform = controllerCacheTransform();
    const a = transform(revision('a', 'web: 1'));
    const b = transform(revision('b', 'web: 1'));
    const c = transform(revision('c', 'web: 2'));
    const defs = (r: KubeObject) => (r.spec as Json).componentDefinitions.webservice;
    expect(defs(b)).toBe(defs(a));
    expect((b.spec as Json).traitDefinitions.scaler).toBe((a.spec as Json).traitDefinitions.scaler);
    expect(defs(c)).not.toBe(defs(a));
    expect(defs(c)).toEqual({ kind: 'ComponentDefinition', spec: { template: 'web: 2' } });
    expect((b.spec as Json).application.metadata.name).toBe('b');
    expect(a.metadata?.managedFields).toBeUndefined();
  });

  it('leaves other kinds as they are', () => {
    const transform = controllerCacheTransform();
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } };
    expect(transform(cm)).toBe(cm);
  });
});
