import type { Application } from '#api';
import { type KubeObject } from '#kube-core';
import { applicationsUsing, definitionIndexFunc } from './definition-index.js';

const app = (namespace: string, name: string): KubeObject => ({
  metadata: { namespace, name },
  spec: {
    components: [{ name: 'a', type: 'webservice', traits: [{ type: 'gateway' }, { type: 'gateway' }] }],
  },
});

describe('the definition index', () => {
  it('indexes an Application by each definition it uses, once', () => {
    expect(definitionIndexFunc(app('ns', 'x') as Application)).toEqual([
      'ComponentDefinition/webservice',
      'TraitDefinition/gateway',
    ]);
  });

  it('maps a system definition to every user, a namespaced one to users in its namespace', () => {
    const users = [app('a', 'one'), app('b', 'two')];
    const map = applicationsUsing(() => users, 'vela-system');
    const def = (namespace: string): KubeObject => ({
      kind: 'TraitDefinition',
      metadata: { namespace, name: 'gateway' },
    });
    expect(map(def('vela-system'))).toEqual([
      { namespace: 'a', name: 'one' },
      { namespace: 'b', name: 'two' },
    ]);
    expect(map(def('b'))).toEqual([{ namespace: 'b', name: 'two' }]);
  });
});
