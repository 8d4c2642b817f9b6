import fc from 'fast-check';
import { RenderError } from '../errors.js';
import { addPatchMarker, applyPatch, markEachList, PATCH_STRATEGY } from './index.js';

const deployment = () => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', labels: { app: 'api' } },
  spec: {
    replicas: 1,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
    template: {
      spec: {
        containers: [
          {
            name: 'api',
            image: 'nginx:1',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
          },
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
      },
    },
  },
});

const CONTAINERS = 'spec.template.spec.containers';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON objects the patch cases build, patch and walk at any depth
type Obj = Record<string, any>;
const podSpec = (patch: Obj) => ({ spec: { template: { spec: patch } } });
const containersOf = (o: object): Obj[] => (o as Obj).spec.template.spec.containers;
const thrown = (f: () => unknown): RenderError => {
  try {
    f();
  } catch (e) {
    if (e instanceof RenderError) return e;
    throw e;
  }
  throw new Error('expected an error');
};

describe('applyPatch: unification (KubeVela StrategyUnify without markers)', () => {
  it('merges maps recursively and adds what the workload does not have', () => {
    const out = applyPatch(
      deployment(),
      { metadata: { labels: { tier: 'web', app: 'api' } }, spec: { paused: false } },
      {},
    ) as Obj;
    expect(out.metadata).toEqual({ name: 'api', labels: { app: 'api', tier: 'web' } });
    expect(out.spec.paused).toBe(false);
    expect(out.spec.replicas).toBe(1);
  });

  it('rejects a different scalar, naming the trait, the field and both values', () => {
    const err = thrown(() =>
      applyPatch(deployment(), { spec: { replicas: 3 } }, {}, { where: { subject: 'traits[0] (scaler)' } }),
    );
    expect(err.location).toMatchObject({ subject: 'traits[0] (scaler)', path: 'patch.spec.replicas' });
    expect(err.message).toMatch(
      /^traits\[0\] \(scaler\): patch\.spec\.replicas: conflicting values 1 \(workload\) and 3 \(patch\)/,
    );
  });

  it('rejects a value of another kind (a map where the workload has a string)', () => {
    const err = thrown(() => applyPatch(deployment(), { metadata: { name: { x: 1 } } }, {}));
    expect(err.message).toMatch(/patch\.metadata\.name: conflicting values "api" \(workload\) and a map/);
  });

  it('unifies lists without a patch key item by item (a storage-style volumeMounts patch)', () => {
    // KubeVela's storage trait: containers: [{volumeMounts: [...]}, ...] with no name.
    const patch = podSpec({ containers: [{ volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] }] });
    const [container] = containersOf(applyPatch(deployment(), patch, {}));
    expect(container).toMatchObject({ name: 'api', image: 'nginx:1' });
    expect(container.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
  });

  it('keeps the items past the end of a shorter patch list and appends those past the workload list', () => {
    const base = { args: ['a', 'b', 'c'] };
    expect(applyPatch(base, { args: ['a'] }, {})).toEqual({ args: ['a', 'b', 'c'] });
    expect(applyPatch(base, { args: ['a', 'b', 'c', 'd'] }, {})).toEqual({ args: ['a', 'b', 'c', 'd'] });
    expect(thrown(() => applyPatch(base, { args: ['x'] }, {})).message).toMatch(
      /patch\.args\[0\]: conflicting values "a" \(workload\) and "x" \(patch\)/,
    );
  });

  it('conflicts on items in a different order when there is no patch key (KubeVela TestPatch case 2)', () => {
    const base = { containers: [{ name: 'x1' }, { name: 'x2' }] };
    const err = thrown(() => applyPatch(base, { containers: [{ name: 'x2' }, { name: 'x1' }] }, {}));
    expect(err.message).toMatch(
      /patch\.containers\[0\]\.name: conflicting values "x1" \(workload\) and "x2"/,
    );
  });

  it('accepts null where the workload has null, and rejects it anywhere else', () => {
    expect(applyPatch({ a: null }, { a: null }, {})).toEqual({ a: null });
    expect(thrown(() => applyPatch({ a: 'x' }, { a: null }, {})).message).toMatch(
      /"x" \(workload\) and null/,
    );
  });
});

describe('applyPatch: +patchKey', () => {
  const keyed = (key = 'name') => ({ containers: key });
  const base = () => ({ containers: [{ name: 'x1' }, { name: 'x2' }] });

  it('lines items up by key and keeps the workload order (TestPatch case 4)', () => {
    expect(applyPatch(base(), { containers: [{ name: 'x2', image: 'i' }, { name: 'x1' }] }, keyed())).toEqual(
      {
        containers: [{ name: 'x1' }, { name: 'x2', image: 'i' }],
      },
    );
  });

  it('appends new items in the patch order (TestPatch case 6)', () => {
    const patch = { containers: [{ name: 'x4' }, { name: 'x3' }, { name: 'x1' }] };
    expect(applyPatch(base(), patch, keyed())).toEqual({
      containers: [{ name: 'x1' }, { name: 'x2' }, { name: 'x4' }, { name: 'x3' }],
    });
  });

  it('unifies by index when no patch item has the key (TestPatch case 7, KubeVela resource trait)', () => {
    expect(applyPatch(base(), { containers: [{ noname: 'x3' }] }, keyed())).toEqual({
      containers: [{ name: 'x1', noname: 'x3' }, { name: 'x2' }],
    });
  });

  it('drops patch items without the key when others have it (TestPatch case 8)', () => {
    expect(applyPatch(base(), { containers: [{ noname: 'x3' }, { name: 'x1' }] }, keyed())).toEqual({
      containers: [{ name: 'x1' }, { name: 'x2' }],
    });
  });

  it('skips workload items without the key, as KubeVela does (TestPatch case 5)', () => {
    const out = applyPatch(
      { containers: [{ namex: 'x1' }] },
      { containers: [{ name: 'x2' }, { name: 'x1' }] },
      keyed(),
    );
    expect(out).toEqual({ containers: [{ namex: 'x1', name: 'x2' }, { name: 'x1' }] });
  });

  it('passes the key down to lists below the marked one (env inside keyed containers)', () => {
    const patch = podSpec({
      containers: [
        {
          name: 'api',
          env: [
            { name: 'B', value: '2' },
            { name: 'C', value: '3' },
          ],
        },
      ],
    });
    const [container] = containersOf(applyPatch(deployment(), patch, { [CONTAINERS]: 'name' }));
    expect(container.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
      { name: 'C', value: '3' },
    ]);
  });

  it('lets a nested marker override the inherited key (ports by containerPort)', () => {
    const patch = podSpec({
      containers: [{ name: 'api', ports: [{ containerPort: 9090, name: 'metrics' }, { containerPort: 80 }] }],
    });
    const keys = { [CONTAINERS]: 'name', [`${CONTAINERS}[].ports`]: 'containerPort' };
    expect(containersOf(applyPatch(deployment(), patch, keys))[0].ports).toEqual([
      { containerPort: 80, protocol: 'TCP' },
      { containerPort: 9090, name: 'metrics' },
    ]);
  });

  it('merges a sidecar by name and leaves the component container alone', () => {
    const patch = podSpec({
      containers: [
        { name: 'log', image: 'fluentd' },
        { name: 'api', resources: { limits: { cpu: '1' } } },
      ],
    });
    const containers = containersOf(applyPatch(deployment(), patch, { [CONTAINERS]: 'name' }));
    expect(containers.map((c) => c.name)).toEqual(['api', 'log']);
    expect(containers[0]).toMatchObject({ image: 'nginx:1', resources: { limits: { cpu: '1' } } });
  });

  it('supports dotted and several keys (TestPatch envFrom cases)', () => {
    const base = {
      envFrom: [{ secretRef: { name: 'nginx-rds' } }, { configMapRef: { name: 'nginx-rds' } }],
    };
    const patch = {
      envFrom: [{ secretRef: { name: 'nginx-redis' } }, { configMapRef: { name: 'nginx-redis' } }],
    };
    expect(applyPatch(base, patch, { envFrom: 'secretRef.name,configMapRef.name' })).toEqual({
      envFrom: [...base.envFrom, ...patch.envFrom],
    });
  });

  it('adds a keyed list the workload does not have, as written', () => {
    const patch = podSpec({ tolerations: [{ key: 'k', operator: 'Exists' }] });
    const out = applyPatch(deployment(), patch, { 'spec.template.spec.tolerations': 'key' }) as Obj;
    expect(out.spec.template.spec.tolerations).toEqual([{ key: 'k', operator: 'Exists' }]);
  });
});

describe('applyPatch: +patchStrategy', () => {
  it('retainKeys on a field replaces its value (TestStrategyPatch case 1: the marker is on `type`)', () => {
    const out = applyPatch(
      deployment(),
      { spec: { strategy: { type: 'Recreate' } } },
      { 'spec.strategy.type': PATCH_STRATEGY.retainKeys },
    ) as Obj;
    expect(out.spec.strategy).toEqual({ type: 'Recreate', rollingUpdate: { maxSurge: 1 } });
    const replaced = applyPatch(
      deployment(),
      { spec: { strategy: { type: 'Recreate' } } },
      { 'spec.strategy': PATCH_STRATEGY.retainKeys },
    ) as Obj;
    expect(replaced.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('retainKeys lets a scalar change (KubeVela scaler)', () => {
    const out = applyPatch(
      deployment(),
      { spec: { replicas: 3 } },
      { 'spec.replicas': PATCH_STRATEGY.retainKeys },
    );
    expect((out as Obj).spec.replicas).toBe(3);
  });

  it('retainKeys on a keyed list replaces the matched items (TestStrategyPatch case 4)', () => {
    const keys = {};
    addPatchMarker(keys, 'volumes', 'Strategy', 'retainKeys');
    addPatchMarker(keys, 'volumes', 'Key', 'name');
    const base = {
      volumes: [
        { name: 'empty-volume', emptyDir: {} },
        { name: 'test-volume', cinder: { volumeID: 'x' } },
      ],
    };
    const patch = { volumes: [{ name: 'test-volume', configMap: { name: 'conf-name' } }] };
    expect(applyPatch(base, patch, keys)).toEqual({
      volumes: [
        { name: 'empty-volume', emptyDir: {} },
        { name: 'test-volume', configMap: { name: 'conf-name' } },
      ],
    });
  });

  it('replace swaps a list wholesale, even a keyed one', () => {
    const keys = {};
    addPatchMarker(keys, CONTAINERS, 'Key', 'name');
    addPatchMarker(keys, CONTAINERS, 'Strategy', 'replace');
    expect(containersOf(applyPatch(deployment(), podSpec({ containers: [{ name: 'only' }] }), keys))).toEqual(
      [{ name: 'only' }],
    );
  });

  it("applies KubeVela's resource trait: keyless items by index, retainKeys on requests/limits", () => {
    const base = podSpec({
      containers: [
        { name: 'c', image: 'busybox', resources: { requests: { cpu: '100m' }, limits: { cpu: '100m' } } },
      ],
    });
    const keys = {};
    addPatchMarker(keys, CONTAINERS, 'Key', 'name');
    addPatchMarker(keys, `${CONTAINERS}[].resources.requests`, 'Strategy', 'retainKeys');
    addPatchMarker(keys, `${CONTAINERS}[].resources.limits`, 'Strategy', 'retainKeys');
    const content = { cpu: '500m', memory: '1Gi' };
    const out = applyPatch(
      base,
      podSpec({ containers: [{ resources: { requests: content, limits: content } }] }),
      keys,
    );
    expect(containersOf(out)).toEqual([
      { name: 'c', image: 'busybox', resources: { requests: content, limits: content } },
    ]);
  });

  it('`[...X]` (+each) unifies X with every item (the older KubeVela resource trait)', () => {
    const base = podSpec({ containers: [{ name: 'a' }, { name: 'b' }] });
    const keys = {};
    markEachList(keys, CONTAINERS);
    const limits = { resources: { limits: { cpu: '1' } } };
    expect(containersOf(applyPatch(base, podSpec({ containers: [limits] }), keys))).toEqual([
      { name: 'a', ...limits },
      { name: 'b', ...limits },
    ]);
    // Not yet rewritten by the engine: `[]`, a constraint on nothing. Never `containers: []`.
    expect(containersOf(applyPatch(base, podSpec({ containers: [] }), keys))).toEqual([
      { name: 'a' },
      { name: 'b' },
    ]);
    // No list in the workload: CUE gives an empty list.
    expect(
      (applyPatch({}, podSpec({ containers: [limits] }), keys) as Obj).spec.template.spec.containers,
    ).toEqual([]);
  });

  it('jsonMergePatch on `patch`: null deletes, values overwrite, lists are replaced', () => {
    const out = applyPatch(
      deployment(),
      {
        metadata: { labels: { app: null, tier: 'web' } },
        spec: { replicas: 2, template: { spec: { volumes: [] } } },
      },
      { '': PATCH_STRATEGY.jsonMergePatch },
    ) as Obj;
    expect(out.metadata.labels).toEqual({ tier: 'web' });
    expect(out.spec.replicas).toBe(2);
    expect(out.spec.template.spec.volumes).toEqual([]);
    expect(out.spec.template.spec.containers).toHaveLength(1);
  });

  it('jsonPatch on `patch`: RFC 6902 operations, failing ones named', () => {
    const operations = [
      { op: 'test', path: '/spec/replicas', value: 1 },
      { op: 'replace', path: '/spec/replicas', value: 4 },
      { op: 'add', path: '/spec/template/spec/containers/0/args', value: ['-v'] },
      { op: 'remove', path: '/spec/template/spec/volumes/0' },
      { op: 'copy', from: '/metadata/labels', path: '/metadata/annotations' },
      { op: 'move', from: '/metadata/annotations', path: '/spec/template/metadata' },
      { op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'log' } },
    ];
    const out = applyPatch(deployment(), { operations }, { '': PATCH_STRATEGY.jsonPatch }) as Obj;
    expect(out.spec.replicas).toBe(4);
    expect(out.spec.template.spec.containers.map((c: Obj) => c.name)).toEqual(['api', 'log']);
    expect(out.spec.template.spec.containers[0].args).toEqual(['-v']);
    expect(out.spec.template.spec.volumes).toEqual([]);
    expect(out.spec.template.metadata).toEqual({ app: 'api' });
    expect(out.metadata.annotations).toBeUndefined();
    const err = thrown(() =>
      applyPatch(
        deployment(),
        { operations: [{ op: 'remove', path: '/spec/nope' }] },
        { '': PATCH_STRATEGY.jsonPatch },
      ),
    );
    expect(err.message).toMatch(/operations\[0\] \(remove \/spec\/nope\): path not found/);
  });

  it('ignores markers it does not know, and strategies other than the JSON ones on `patch` itself', () => {
    const keys = {};
    expect(addPatchMarker(keys, 'x', 'Strategy', 'open')).toBe(false);
    addPatchMarker(keys, '', 'Strategy', 'retainKeys');
    expect(() => applyPatch(deployment(), { spec: { replicas: 2 } }, keys)).toThrow(/conflicting values/);
  });
});

describe('applyPatch: purity', () => {
  it('never mutates its inputs and shares no structure with them', () => {
    const target = deployment();
    const patch = podSpec({ containers: [{ name: 'api', image: 'nginx:1', args: ['x'] }] });
    const before = JSON.stringify([target, patch]);
    const out = applyPatch(target, patch, { [CONTAINERS]: 'name' }) as Obj;
    expect(JSON.stringify([target, patch])).toBe(before);
    out.metadata.labels.changed = 'yes';
    out.spec.template.spec.volumes.push({});
    out.spec.template.spec.containers[0].args.push('y');
    expect(JSON.stringify([target, patch])).toBe(before);
  });

  it('is deterministic and idempotent, and a patch that succeeds is contained in the result (property)', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer({ min: 0, max: 2 }), fc.boolean(), tie('map')),
      map: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 3 }),
    }));
    fc.assert(
      fc.property(json.map, json.map, (target, patch) => {
        let once: object;
        try {
          once = applyPatch(target as object, patch as object, {});
        } catch (e) {
          expect(e).toBeInstanceOf(RenderError);
          return;
        }
        expect(applyPatch(target as object, patch as object, {})).toEqual(once);
        expect(applyPatch(once, patch as object, {})).toEqual(once);
        expect(applyPatch(patch as object, once, {})).toEqual(once);
      }),
    );
  });
});
