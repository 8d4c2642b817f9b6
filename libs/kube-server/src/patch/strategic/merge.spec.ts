import { ApiError } from '../../errors.js';
import { applyPatch } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON objects the patch cases build, patch and walk at any depth
type Obj = Record<string, any>;

const deployments = { group: 'apps', version: 'v1', kind: 'Deployment' };
const pods = { group: '', version: 'v1', kind: 'Pod' };
const smp = (live: Obj, patch: unknown, gvk = deployments) =>
  applyPatch('strategic', live, patch, gvk) as Obj;

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

/** The patch-demo Deployment of the `kubectl patch` task page. */
const patchDemo = (podSpec: Obj): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'patch-demo' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'nginx' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: podSpec },
  },
});
const demoContainer = { name: 'patch-demo-ctr', image: 'nginx' };
const demoToleration = { effect: 'NoSchedule', key: 'dedicated', value: 'test-team' };

describe('strategic merge patch (kubectl patch task examples)', () => {
  it('merges containers by name, the patched one first', () => {
    const live = patchDemo({ containers: [demoContainer], tolerations: [demoToleration] });
    const out = smp(live, {
      spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] } } },
    });
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'patch-demo-ctr-2', image: 'redis' },
      demoContainer,
    ]);
  });

  it('replaces tolerations, a list without a patch strategy', () => {
    const live = patchDemo({ containers: [demoContainer], tolerations: [demoToleration] });
    const toleration = { effect: 'NoSchedule', key: 'disktype', value: 'ssd' };
    const out = smp(live, { spec: { template: { spec: { tolerations: [toleration] } } } });
    expect(out.spec.template.spec.tolerations).toEqual([toleration]);
  });

  it('clears the other strategy members with $retainKeys', () => {
    const live = patchDemo({ containers: [demoContainer] });
    const out = smp(live, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
  });
});

describe('strategic merge patch (directives of the SMP design doc)', () => {
  const pod = (spec: Obj, metadata: Obj = {}): Obj => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', ...metadata },
    spec,
  });
  const live = pod(
    {
      containers: [
        { name: 'nginx', image: 'nginx:1', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] },
        { name: 'log', image: 'fluentbit' },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
    },
    { finalizers: ['a', 'b'], labels: { app: 'x', tier: 'fe' } },
  );

  it.each<[string, Obj, (out: Obj) => unknown, unknown]>([
    [
      'merges nested lists by their keys',
      {
        spec: {
          containers: [
            { name: 'nginx', env: [{ name: 'B', value: '2' }], ports: [{ containerPort: 80, name: 'http' }] },
          ],
        },
      },
      (o) => o.spec.containers[0],
      {
        name: 'nginx',
        image: 'nginx:1',
        ports: [{ containerPort: 80, name: 'http' }],
        env: [
          { name: 'B', value: '2' },
          { name: 'A', value: '1' },
        ],
      },
    ],
    [
      'deletes a list item with $patch: delete',
      { spec: { containers: [{ name: 'log', $patch: 'delete' }] } },
      (o) => o.spec.containers.map((c: Obj) => c.name),
      ['nginx'],
    ],
    [
      'replaces a whole list with $patch: replace',
      { spec: { containers: [{ name: 'solo', image: 's' }, { $patch: 'replace' }] } },
      (o) => o.spec.containers,
      [{ name: 'solo', image: 's' }],
    ],
    [
      'replaces a map with $patch: replace',
      { metadata: { labels: { $patch: 'replace', only: 'this' } } },
      (o) => o.metadata.labels,
      { only: 'this' },
    ],
    [
      'empties a map with $patch: delete',
      { metadata: { labels: { $patch: 'delete' } } },
      (o) => o.metadata.labels,
      {},
    ],
    [
      'deletes a field with null',
      { metadata: { labels: { tier: null } } },
      (o) => o.metadata.labels,
      { app: 'x' },
    ],
    [
      'ignores a null for a missing field',
      { metadata: { annotations: null } },
      (o) => 'annotations' in o.metadata,
      false,
    ],
    [
      'merges primitive lists with a merge strategy as sets',
      { metadata: { finalizers: ['c', 'a'] } },
      (o) => o.metadata.finalizers,
      ['c', 'a', 'b'],
    ],
    [
      'deletes from a primitive list',
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
      (o) => o.metadata.finalizers,
      ['b'],
    ],
    [
      'orders a list with $setElementOrder',
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'log' }, { name: 'nginx' }],
          containers: [{ name: 'log', image: 'fluentbit:2' }],
        },
      },
      (o) => o.spec.containers.map((c: Obj) => `${c.name}=${c.image}`),
      ['log=fluentbit:2', 'nginx=nginx:1'],
    ],
    [
      'drops directives inside new items',
      {
        spec: {
          containers: [
            {
              name: 'new',
              image: 'n',
              env: [
                { name: 'X', value: '1' },
                { name: 'Y', $patch: 'delete' },
              ],
            },
          ],
        },
      },
      (o) => o.spec.containers[0],
      { name: 'new', image: 'n', env: [{ name: 'X', value: '1' }] },
    ],
    ['treats a null patch as no change', null as unknown as Obj, (o) => o, live],
  ])('%s', (_name, patch, pick, expected) => {
    const input = structuredClone(live);
    expect(pick(smp(input, patch, pods))).toEqual(expected);
    expect(input).toEqual(live);
  });

  it.each<[string, unknown, number, string]>([
    ['a list patch', [1], 400, 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['a malformed $retainKeys', { spec: { $retainKeys: 'type' } }, 400, 'invalid patch format of retainKeys'],
    [
      'a patch outside $retainKeys',
      { spec: { $retainKeys: ['a'], b: 1 } },
      422,
      'the server rejected our request due to an error in our request',
    ],
    [
      'a malformed primitive deletion',
      { metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } },
      400,
      'invalid patch format of primitive list',
    ],
    [
      'a malformed $setElementOrder',
      { spec: { '$setElementOrder/containers': 'x' } },
      400,
      'invalid patch format of setElementOrder list',
    ],
    [
      'lists of lists',
      { spec: { containers: [[1]] } },
      422,
      'the server rejected our request due to an error in our request',
    ],
    [
      'an item without its merge key',
      { spec: { containers: [{ image: 'x' }] } },
      500,
      'map: map[image:x] does not contain declared merge key: name',
    ],
    [
      'an unknown $patch',
      { metadata: { labels: { $patch: 'bogus' } } },
      500,
      'unknown patch type: bogus in map: map[$patch:bogus]',
    ],
  ])('rejects %s', (_name, patch, code, message) => {
    const err = thrown(() => smp(live, patch, pods));
    expect([err.code, err.message]).toEqual([code, message]);
  });

  it('is refused for custom resources with the 415 kube gives', () => {
    const err = thrown(() =>
      smp(
        { apiVersion: 'core.oam.dev/v1beta1', kind: 'Application' },
        {},
        { group: 'core.oam.dev', version: 'v1beta1', kind: 'Application' },
      ),
    );
    expect(err.code).toBe(415);
    expect(err.reason).toBe('UnsupportedMediaType');
    expect(err.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });
});
