import { APPLICATIONS, OAM_KINDS, oamResource, TRAIT_DEFINITIONS } from '#api';

describe('OAM kinds as REST collections', () => {
  it('are served under core.oam.dev/v1beta1, namespaced, by the plural of the kind table', () => {
    expect(APPLICATIONS).toEqual({
      group: 'core.oam.dev',
      version: 'v1beta1',
      kind: 'Application',
      plural: 'applications',
      namespaced: true,
    });
    expect(TRAIT_DEFINITIONS.plural).toBe('traitdefinitions');
    for (const k of OAM_KINDS) expect(oamResource(k.kind).plural).toBe(k.plural);
  });

  it('refuses a kind that is not OAM', () => {
    expect(() => oamResource('Deployment')).toThrow('not an OAM kind: Deployment');
  });
});
