import { loadBuiltinDefinitions } from './load-builtins.js';

const names = (defs: { kind: string; metadata: { name?: string } }[]) =>
  defs.map((d) => `${d.kind}/${d.metadata.name}`).sort();

describe('loadBuiltinDefinitions', () => {
  it('loads only the definitions asked for, when each is found by its file name', async () => {
    const some = await loadBuiltinDefinitions(undefined, { components: ['webservice'], traits: ['hpa'] });
    expect(names(some)).toEqual(['ComponentDefinition/webservice', 'TraitDefinition/hpa']);
  });

  it('loads every built-in when one asked for is not found that way (an unknown type lists them all)', async () => {
    const all = await loadBuiltinDefinitions();
    const asked = await loadBuiltinDefinitions(undefined, { components: ['webservice'], traits: ['nope'] });
    expect(names(asked)).toEqual(names(all));
    // A trait named like a component file is not that component.
    const mixed = await loadBuiltinDefinitions(undefined, { components: [], traits: ['webservice'] });
    expect(names(mixed)).toEqual(names(all));
  });
});
