import type { AppliedResource } from '#api';
import type { KubeObject } from '#kube-core';
import { inputsOf, Settled, type Reads } from './settled.js';

const owner = (rv: string): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name: 'shop', namespace: 'prod', uid: 'u1', resourceVersion: rv },
  status: {
    appliedResources: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'prod', name: 'web' }],
  },
});
const definition = (rv: string | null) => ({
  kind: 'ComponentDefinition',
  metadata: { name: 'webservice', namespace: 'vela-system', ...(rv ? { resourceVersion: rv } : {}) },
});
const input = (rv = '7', defRv: string | null = '3', generation = 1): Reads =>
  ({
    owner: owner(rv),
    resolved: { spec: {}, errors: [], warnings: [], definitions: [definition(defRv)] },
    comparable: true,
    revisionInputs: { traits: { extra: { spec: {}, generation } } },
  }) as unknown as Reads;
const at = (rv: string | undefined) => async (_r: AppliedResource) => rv;

describe('inputsOf', () => {
  it('is equal for equal reads, and differs when the owner, a definition, a joined part or a live object moved', async () => {
    const base = await inputsOf(input(), at('40'));
    expect(await inputsOf(input(), at('40'))).toBe(base);
    for (const other of [
      await inputsOf(input('8'), at('40')),
      await inputsOf(input('7', '4'), at('40')),
      await inputsOf(input('7', '3', 2), at('40')),
      await inputsOf(input(), at('41')),
      await inputsOf(input(), at('absent')),
    ])
      expect(other).not.toBe(base);
  });

  it('is undefined when something read has no version (never skipped): a stored definition, an unreadable object', async () => {
    expect(await inputsOf(input('7', null), at('40'))).toBeUndefined();
    expect(await inputsOf(input(), at(undefined))).toBeUndefined();
    const rollback = { ...input(), comparable: false };
    expect(await inputsOf(rollback, at('40'))).toBeUndefined();
  });
});

describe('Settled', () => {
  it('matches only what was remembered for the key, never an undefined read', () => {
    const s = new Settled();
    s.remember('a', 'x');
    expect(s.is('a', 'x')).toBe(true);
    expect(s.is('a', 'y')).toBe(false);
    expect(s.is('a', undefined)).toBe(false);
    s.forget('a');
    expect(s.is('a', 'x')).toBe(false);
  });
});
