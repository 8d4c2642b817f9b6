import type { Definition } from '#api';
import type { KubeObject } from '#kube-core';
import { changeSummary } from './change-summary.js';
import { takeSnapshot } from './snapshot.js';

const app = (image: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name: 'shop', namespace: 'prod', uid: 'u1', resourceVersion: '7', ...extra },
  spec: { components: [{ name: 'web', type: 'webservice', properties: { image, port: 80 } }] },
});
const def = (template: string): Definition =>
  ({
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'ComponentDefinition',
    metadata: { name: 'webservice', namespace: 'vela-system', resourceVersion: '3' },
    spec: { schematic: { cue: { template } } },
  }) as Definition;

describe('changeSummary', () => {
  it('names the first revision', () => {
    expect(changeSummary(undefined, takeSnapshot(app('nginx:1.25'), [def('a')]))).toBe('first revision');
  });

  it('names a changed field with its old and new value', () => {
    const before = takeSnapshot(app('nginx:1.25'), [def('a')]);
    const after = takeSnapshot(app('nginx:1.27'), [def('a')]);
    expect(changeSummary(before, after)).toBe('components[0].properties.image: nginx:1.25 → nginx:1.27');
  });

  it('names a changed definition, labels and annotations', () => {
    const before = takeSnapshot(app('nginx'), [def('a')]);
    expect(changeSummary(before, takeSnapshot(app('nginx'), [def('b')]))).toBe(
      'definition webservice changed',
    );
    const labelled = takeSnapshot(app('nginx', { labels: { team: 'blue' } }), [def('a')]);
    expect(changeSummary(before, labelled)).toBe('labels.team added: blue');
    const annotated = takeSnapshot(app('nginx', { annotations: { 'example.com/x': 'y' } }), [def('a')]);
    expect(changeSummary(before, annotated)).toBe('annotations."example.com/x" added: y');
  });

  it('names added and removed parts without dumping them', () => {
    const one = takeSnapshot(app('nginx'), [def('a')]);
    const two = app('nginx');
    (two.spec as { components: unknown[] }).components.push({
      name: 'db',
      type: 'webservice',
      properties: { image: 'pg' },
    });
    expect(changeSummary(one, takeSnapshot(two, [def('a')]))).toBe('components[1] added');
    expect(changeSummary(takeSnapshot(two, [def('a')]), one)).toBe('components[1] removed');
  });

  it('names three changes and counts the rest, and shortens long values', () => {
    const a = app('x');
    const b = app('y'.repeat(60), { labels: { a: '1', b: '2', c: '3' } });
    const summary = changeSummary(takeSnapshot(a, [def('a')]), takeSnapshot(b, [def('b')]));
    expect(summary).toBe(
      `components[0].properties.image: x → ${'y'.repeat(39)}…; labels.a added: 1; labels.b added: 2; and 2 more`,
    );
  });

  it('ignores what is not an input: server bookkeeping, kubectl’s last-applied, the rollback request', () => {
    const a = takeSnapshot(app('nginx'), [def('a')]);
    const b = takeSnapshot(
      app('nginx', {
        resourceVersion: '99',
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{}',
          'app.oam.dev/rollback-to-revision': '1',
        },
      }),
      [{ ...def('a'), metadata: { ...def('a').metadata, resourceVersion: '4' } } as Definition],
    );
    expect(b.renderHash).toBe(a.renderHash);
    expect(changeSummary(a, b)).toBe('no change in the inputs');
  });
});
