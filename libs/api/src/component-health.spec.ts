import { componentHealth } from './component-health.js';

describe('componentHealth', () => {
  it('joins the spec’s components and traits with the reported health, in spec order', () => {
    const tree = componentHealth({
      spec: {
        components: [
          { name: 'web', type: 'webservice', traits: [{ type: 'scaler' }, { type: 'gateway' }] },
          { name: 'db', componentRef: 'shared-db' },
        ],
      },
      status: {
        services: [
          { name: 'db', healthy: false, message: 'not ready' },
          { name: 'web', healthy: true, traits: [{ type: 'gateway', healthy: false, message: 'no host' }] },
        ],
      },
    } as never);
    expect(tree).toEqual([
      {
        name: 'web',
        type: 'webservice',
        healthy: true,
        message: undefined,
        traits: [
          { type: 'scaler', healthy: undefined, message: undefined },
          { type: 'gateway', healthy: false, message: 'no host' },
        ],
      },
      { name: 'db', type: 'componentRef shared-db', healthy: false, message: 'not ready', traits: [] },
    ]);
  });

  it('before the controller’s first status: every health unknown', () => {
    expect(componentHealth({ spec: { components: [{ name: 'a', type: 't' }] } } as never)).toEqual([
      { name: 'a', type: 't', healthy: undefined, message: undefined, traits: [] },
    ]);
  });
});
