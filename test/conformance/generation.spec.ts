import { useTarget } from './target.js';

/**
 * metadata.generation: only kinds whose registry strategy tracks it (workloads, Ingress, CRDs,
 * custom resources, ...) get generation 1 on create and a bump on each spec change; a deletion
 * held by finalizers bumps it too (store.markAsDeleting). ConfigMaps, Secrets and Services have none.
 */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('generation');
});

const MERGE = 'application/merge-patch+json';

describe('metadata.generation', () => {
  it.each([
    ['configmaps', { metadata: { name: 'cm' }, data: { a: '1' } }, { data: { a: '2' } }],
    ['secrets', { metadata: { name: 's' }, data: { a: 'MQ==' } }, { data: { a: 'Mg==' } }],
    [
      'services',
      { metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }], selector: { app: 'x' } } },
      { spec: { selector: { app: 'y' } } },
    ],
  ])('%s have none, before or after an update', async (plural, body, patch) => {
    const { http } = target();
    const path = `/api/v1/namespaces/${ns}/${plural}`;
    const created = await http.post(path, body);
    expect(created.status).toBe(201);
    expect(created.json().metadata.generation).toBeUndefined();
    const name = (body as { metadata: { name: string } }).metadata.name;
    const patched = await http.patch(`${path}/${name}`, MERGE, patch);
    expect(patched.status).toBe(200);
    expect(patched.json().metadata.generation).toBeUndefined();
  });

  it('a Deployment starts at 1 and counts spec changes only', async () => {
    const { http } = target();
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const labels = { app: 'g' };
    const created = await http.post(path, {
      metadata: { name: 'd' },
      spec: {
        replicas: 0,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } },
      },
    });
    expect(created.json().metadata.generation).toBe(1);
    const relabeled = await http.patch(`${path}/d`, MERGE, { metadata: { labels: { l: 'v' } } });
    expect(relabeled.json().metadata.generation).toBe(1);
    const scaled = await http.patch(`${path}/d`, MERGE, { spec: { replicas: 1 } });
    expect(scaled.json().metadata.generation).toBe(2);
  });

  it('a deletion held by a finalizer bumps a tracked generation, and adds none elsewhere', async () => {
    const { http } = target();
    const finalizers = ['example.com/hold'];
    const cmPath = `/api/v1/namespaces/${ns}/configmaps`;
    expect((await http.post(cmPath, { metadata: { name: 'held', finalizers } })).status).toBe(201);
    const cm = await http.delete(`${cmPath}/held`);
    expect(cm.status).toBe(200);
    expect(cm.json().metadata.deletionTimestamp).toBeDefined();
    expect(cm.json().metadata.generation).toBeUndefined();

    const depPath = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const labels = { app: 'held' };
    const created = await http.post(depPath, {
      metadata: { name: 'held', finalizers },
      spec: {
        replicas: 0,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } },
      },
    });
    expect(created.json().metadata.generation).toBe(1);
    const deleting = await http.delete(`${depPath}/held`);
    expect(deleting.status).toBe(200);
    expect(deleting.json().metadata.generation).toBe(2);
    // A second delete does not bump it again.
    expect((await http.delete(`${depPath}/held`)).json().metadata.generation).toBe(2);

    for (const path of [`${cmPath}/held`, `${depPath}/held`]) {
      const res = await http.patch(path, MERGE, { metadata: { finalizers: null } });
      expect(res.status).toBe(200);
    }
  });
});
