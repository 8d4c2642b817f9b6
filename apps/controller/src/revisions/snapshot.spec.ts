import type { Definition } from '#api';
import { deepFreeze, hashOf, type KubeObject } from '#kube-core';
import { takeSnapshot } from './snapshot.js';

const app: KubeObject = {
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name: 'shop', namespace: 'prod', labels: { team: 'blue' }, annotations: { a: 'b' } },
  spec: { components: [{ name: 'web', type: 'webservice', properties: { image: 'nginx', port: 80 } }] },
};
const def = (kind: string, name: string, template: string): Definition =>
  deepFreeze({
    apiVersion: 'core.oam.dev/v1beta1',
    kind,
    metadata: { name, namespace: 'vela-system', resourceVersion: '3', uid: name },
    spec: { schematic: { cue: { template } } },
  }) as Definition;

describe('takeSnapshot', () => {
  const defs = [def('ComponentDefinition', 'webservice', 'a: 1'), def('TraitDefinition', 'scaler', 'b: 2')];
  const joined = {
    traits: { extra: { spec: { type: 'scaler', properties: { replicas: 2 } }, generation: 4 } },
  };

  it('hashes as hashOf of its inputs (spec, labels, annotations, definitions, joined parts)', () => {
    const s = takeSnapshot(app, defs, joined);
    const expected = hashOf({
      spec: app.spec,
      labels: app.metadata!.labels,
      annotations: app.metadata!.annotations,
      definitions: defs.map((d) => ({
        kind: d.kind,
        name: d.metadata.name,
        namespace: d.metadata.namespace,
        spec: d.spec,
      })),
      components: [],
      traits: [{ kind: 'Trait', metadata: { name: 'extra' }, spec: joined.traits.extra.spec }],
    }).slice(0, 16);
    expect(s.renderHash).toBe(expected);
  });

  it('takes each cached definition once: snapshots share its frozen stored copy, and hash the same', () => {
    const one = takeSnapshot(app, defs);
    const two = takeSnapshot(app, defs);
    expect(two.componentDefinitions!.webservice).toBe(one.componentDefinitions!.webservice);
    expect(Object.isFrozen(one.componentDefinitions!.webservice)).toBe(true);
    expect(two.renderHash).toBe(one.renderHash);
    const changed = takeSnapshot(app, [def('ComponentDefinition', 'webservice', 'a: 2'), defs[1]]);
    expect(changed.renderHash).not.toBe(one.renderHash);
  });
});
