import { ApiError } from '../errors.js';
import { applyPatch, patchKindFromContentType } from './index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON objects the patch cases build, patch and walk at any depth
type Obj = Record<string, any>;
const gvk = { group: 'apps', version: 'v1', kind: 'Deployment' };
const live: Obj = {
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'a', image: 'x' }] } } },
};

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('JSON patch (RFC 6902)', () => {
  it.each<[string, unknown[], (o: Obj) => unknown, unknown]>([
    [
      'replace (kubectl patch --type=json docs)',
      [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'new-image' }],
      (o) => o.spec.template.spec.containers[0].image,
      'new-image',
    ],
    [
      'add to the end of a list',
      [{ op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'b' } }],
      (o) => o.spec.template.spec.containers.length,
      2,
    ],
    [
      'add a key with an escaped name',
      [{ op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'w' }],
      (o) => o.metadata.labels['app.kubernetes.io/name'],
      'w',
    ],
    ['remove', [{ op: 'remove', path: '/metadata/labels/app' }], (o) => o.metadata.labels, {}],
    [
      'move',
      [{ op: 'move', from: '/metadata/labels/app', path: '/metadata/labels/name' }],
      (o) => o.metadata.labels,
      { name: 'web' },
    ],
    [
      'copy',
      [{ op: 'copy', from: '/spec/replicas', path: '/spec/minReadySeconds' }],
      (o) => o.spec.minReadySeconds,
      2,
    ],
    [
      'a passing test, then replace',
      [
        { op: 'test', path: '/spec/replicas', value: 2 },
        { op: 'replace', path: '/spec/replicas', value: 3 },
      ],
      (o) => o.spec.replicas,
      3,
    ],
  ])('%s', (_name, patch, pick, expected) => {
    const input = structuredClone(live);
    expect(pick(applyPatch('json', input, patch, gvk) as Obj)).toEqual(expected);
    expect(input).toEqual(live);
  });

  it.each<[string, unknown, number, string, string | undefined]>([
    [
      'a failed test',
      [{ op: 'test', path: '/spec/replicas', value: 5 }],
      422,
      'testing value /spec/replicas failed: test failed',
      '/spec/replicas',
    ],
    [
      'replacing a missing key',
      [{ op: 'replace', path: '/spec/paused', value: true }],
      422,
      'replace operation does not apply: doc is missing key: /spec/paused: missing value',
      '/spec/paused',
    ],
    [
      'removing a missing key',
      [{ op: 'remove', path: '/spec/paused' }],
      422,
      'Unable to remove nonexistent key: paused: missing value',
      '/spec/paused',
    ],
    [
      'adding under a missing parent',
      [{ op: 'add', path: '/status/x', value: 1 }],
      422,
      'add operation does not apply: doc is missing path: "/status/x": missing value',
      '/status/x',
    ],
    [
      'an index out of range',
      [{ op: 'replace', path: '/spec/template/spec/containers/3', value: {} }],
      422,
      'Unable to access invalid index: 3: invalid index referenced',
      '/spec/template/spec/containers/3',
    ],
    ['an unknown op', [{ op: 'frobnicate', path: '/spec' }], 422, 'Unexpected kind: frobnicate', '/spec'],
  ])('answers %s with the generic 422 and names the operation', (_name, patch, code, detail, field) => {
    const err = thrown(() => applyPatch('json', live, patch, gvk));
    expect(err.code).toBe(code);
    expect(err.reason).toBe('Invalid');
    expect(err.message).toBe('the server rejected our request due to an error in our request');
    expect(err.details.causes?.[0].message).toContain(detail);
    expect(err.details.causes?.[0].field).toBe(field);
  });

  it.each<[string, unknown, number, string]>([
    [
      'an object body',
      { op: 'add' },
      400,
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ],
    [
      'a non-object operation',
      ['add'],
      400,
      'json: cannot unmarshal string into Go value of type jsonpatch.Operation (operation 0)',
    ],
    [
      'too many operations',
      Array.from({ length: 10001 }, () => ({ op: 'test', path: '/spec' })),
      413,
      'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    ],
  ])('refuses %s before applying', (_name, patch, code, message) => {
    const err = thrown(() => applyPatch('json', live, patch, gvk));
    expect([err.code, err.message]).toEqual([code, message]);
  });
});

describe('JSON merge patch (RFC 7386)', () => {
  it('merges maps, replaces lists and deletes with null (kubectl patch --type=merge docs)', () => {
    const out = applyPatch(
      'merge',
      live,
      {
        metadata: { labels: { app: null, tier: 'fe' } },
        spec: { template: { spec: { containers: [{ name: 'c' }] } } },
      },
      gvk,
    ) as Obj;
    expect(out.metadata.labels).toEqual({ tier: 'fe' });
    expect(out.spec.template.spec.containers).toEqual([{ name: 'c' }]);
    expect(out.spec.replicas).toBe(2);
  });

  it.each<[string, unknown, number, string]>([
    ['null', null, 400, 'Invalid JSON Patch'],
    ['a scalar', 5, 400, 'Invalid JSON Patch'],
    [
      'a list',
      [1],
      422,
      ' "" is invalid: patch: Invalid value: "[1]": cannot unmarshal array into Go value of type map[string]interface {}',
    ],
  ])('refuses %s as kube does', (_name, patch, code, message) => {
    const err = thrown(() => applyPatch('merge', live, patch, gvk));
    expect([err.code, err.message]).toEqual([code, message]);
  });
});

describe('patchKindFromContentType', () => {
  it.each([
    ['application/json-patch+json', 'json'],
    ['application/merge-patch+json; charset=utf-8', 'merge'],
    ['Application/Strategic-Merge-Patch+JSON', 'strategic'],
    ['application/apply-patch+yaml', 'apply'],
    ['application/apply-patch+cbor', undefined],
    ['application/json', undefined],
  ])('%s → %s', (contentType, kind) => {
    expect(patchKindFromContentType(contentType)).toBe(kind);
  });
});
