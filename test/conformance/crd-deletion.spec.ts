import { createWidgetCrd, deleteWidgetCrd, widget } from './crd-fixture.js';
import { eventually, useTarget } from './target.js';

/**
 * Deleting a CRD: it goes Terminating with the customresourcecleanup finalizer, its custom
 * resources are deleted (their finalizers honoured), and only then is the CRD removed.
 */
const target = useTarget();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const MERGE = 'application/merge-patch+json';

describe('CRD deletion', () => {
  it('waits for its custom resources and their finalizers', async () => {
    const { http } = target();
    const ns = await target().namespace('crd-del');
    const crd = await createWidgetCrd(target());
    target().defer(() => deleteWidgetCrd(target(), crd));
    const held = { ...widget('held', { color: 'red' }, crd.group) };
    held.metadata.finalizers = ['example.com/hold'];
    expect((await http.post(crd.path(ns), held)).status).toBe(201);
    expect((await http.post(crd.path(ns), widget('free', { color: 'blue' }, crd.group))).status).toBe(201);

    const deleted = await http.delete(`${CRDS}/${crd.crdName}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json().metadata.deletionTimestamp).toBeDefined();
    expect(deleted.json().metadata.finalizers).toContain('customresourcecleanup.apiextensions.k8s.io');

    // The free widget goes, the held one is marked and stays; the CRD stays Terminating.
    await eventually(async () => {
      const res = await http.get(crd.path(ns, 'free'));
      return res.status === 404 ? true : undefined;
    }, 'the widget without finalizers to be deleted');
    const marked = await eventually(async () => {
      const w = (await http.get(crd.path(ns, 'held'))).json();
      return w.metadata?.deletionTimestamp ? w : undefined;
    }, 'the held widget to be marked for deletion');
    expect(marked.metadata.finalizers).toEqual(['example.com/hold']);
    const terminating = (await http.get(`${CRDS}/${crd.crdName}`)).json();
    expect(terminating.status.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'Terminating', status: 'True' })]),
    );
    // No new custom resources while terminating.
    const refused = await http.post(crd.path(ns), widget('late', { color: 'red' }, crd.group));
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({
      reason: 'Forbidden',
      message: `widgets.${crd.group} "late" is forbidden: create not allowed while custom resource definition is terminating`,
      details: { name: 'late', group: crd.group, kind: 'widgets' },
    });

    // Releasing the finalizer lets the widget and then the CRD go.
    expect((await http.patch(crd.path(ns, 'held'), MERGE, { metadata: { finalizers: null } })).status).toBe(
      200,
    );
    await eventually(
      async () => ((await http.get(`${CRDS}/${crd.crdName}`)).status === 404 ? true : undefined),
      'the CRD to be removed',
      30_000,
    );
  }, 60_000);
});
