import { type KubeObject } from '#kube-core';
import { ownershipConflict } from './ownership.js';

const app: KubeObject = { metadata: { name: 'shop', namespace: 'team', uid: 'u1' } };
const live = (metadata: KubeObject['metadata']): KubeObject => ({
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'team', ...metadata },
});

describe('ownershipConflict', () => {
  it('allows objects this application controls or labelled as its own', () => {
    expect(
      ownershipConflict(
        live({
          ownerReferences: [
            { apiVersion: 'x', kind: 'Application', name: 'shop', uid: 'u1', controller: true },
          ],
        }),
        app,
      ),
    ).toBeUndefined();
    expect(
      ownershipConflict(
        live({ labels: { 'app.oam.dev/name': 'shop', 'app.oam.dev/namespace': 'team' } }),
        app,
      ),
    ).toBeUndefined();
  });

  it('refuses objects another controller owns, or that someone else made', () => {
    expect(
      ownershipConflict(
        live({
          ownerReferences: [
            { apiVersion: 'x', kind: 'Application', name: 'other', uid: 'u2', controller: true },
          ],
        }),
        app,
      ),
    ).toBe('Deployment "team/api" exists and is controlled by Application "other"; not taken over');
    expect(ownershipConflict(live({}), app)).toContain('was not created by this application');
  });
});
