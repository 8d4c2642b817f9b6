import { OAM_KINDS, kindInfo, ApplicationSchema } from '#api';

describe('OAM kinds', () => {
  it('lists each kind once with a schema', () => {
    const names = OAM_KINDS.map((k) => k.kind);
    expect(new Set(names).size).toBe(names.length);
    expect(kindInfo('Application')?.plural).toBe('applications');
  });

  it('rejects an application component with neither type nor componentRef', () => {
    const r = ApplicationSchema.safeParse({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'a' },
      spec: { components: [{ name: 'x' }] },
    });
    expect(r.success).toBe(false);
  });
});
