import { nextStatus, type Observation } from './next-status.js';

const base: Observation = { generation: 1, renderErrors: [], applyProblems: [], unsupported: [] };
const healthy = [{ name: 'api', healthy: true, message: 'Ready:1/1' }];
const unhealthy = [{ name: 'api', healthy: false, message: 'Ready:0/1' }];
const revision = { name: 'shop-v1', revision: 1, revisionHash: 'h' };

describe('nextStatus', () => {
  it('is running with every condition true when rendered, applied and healthy', () => {
    const s = nextStatus(undefined, { ...base, revision, applied: [], services: healthy }, 't0');
    expect(s.status).toBe('running');
    expect(s.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['Rendered', 'True'],
      ['Applied', 'True'],
      ['Healthy', 'True'],
      ['Ready', 'True'],
    ]);
    expect(s.latestRevision).toEqual(revision);
  });

  it('keeps lastTransitionTime while a condition keeps its status', () => {
    const first = nextStatus(undefined, { ...base, revision, applied: [], services: healthy }, 't0');
    const again = nextStatus(first, { ...base, revision, applied: [], services: healthy }, 't1');
    expect(again).toEqual(first);
  });

  it('rolls out as runningWorkflow, and is unhealthy when it breaks after being ready', () => {
    const rolling = nextStatus(undefined, { ...base, revision, applied: [], services: unhealthy }, 't0');
    expect(rolling.status).toBe('runningWorkflow');
    const ready = nextStatus(rolling, { ...base, revision, applied: [], services: healthy }, 't1');
    const broken = nextStatus(ready, { ...base, revision, applied: [], services: unhealthy }, 't2');
    expect(broken.status).toBe('unhealthy');
    expect(broken.conditions?.find((c) => c.type === 'Healthy')).toMatchObject({
      status: 'False',
      message: 'api: Ready:0/1',
      lastTransitionTime: 't2',
    });
  });

  it('on a render error keeps the last good services, resources and revision', () => {
    const good = nextStatus(
      undefined,
      { ...base, revision, applied: [{ apiVersion: 'v1', kind: 'Service', name: 'api' }], services: healthy },
      't0',
    );
    const bad = nextStatus(
      good,
      { ...base, generation: 2, renderErrors: ['properties.port: expected integer'] },
      't1',
    );
    expect(bad.status).toBe('running');
    expect(bad.services).toEqual(good.services);
    expect(bad.appliedResources).toEqual(good.appliedResources);
    expect(bad.latestRevision).toEqual(revision);
    expect(bad.conditions?.find((c) => c.type === 'Rendered')).toMatchObject({
      status: 'False',
      reason: 'RenderFailed',
      observedGeneration: 2,
    });
    expect(bad.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    expect(bad.conditions?.find((c) => c.type === 'Healthy')?.status).toBe('True'); // the running version is
  });

  it('says FieldNotPersisted, naming the field, when the writes of an object do not stick', () => {
    const problem =
      'Deployment "prod/api": spec.replicas does not persist (3 writes did not stick); not written until t1';
    const s = nextStatus(
      undefined,
      {
        ...base,
        revision,
        applied: [],
        services: healthy,
        applyProblems: [problem],
        applyReason: 'FieldNotPersisted',
      },
      't0',
    );
    expect(s.conditions?.find((c) => c.type === 'Applied')).toMatchObject({
      status: 'False',
      reason: 'FieldNotPersisted',
      message: problem,
    });
  });
});
