import { applyJsonPatch, JsonPatchError } from './json-patch.js';
import { createMergePatch, mergePatch } from './merge-patch.js';

const doc = { spec: { replicas: 2, ports: [80] }, metadata: { labels: { app: 'web' } } };

function failure(operations: unknown[]): JsonPatchError {
  let error: unknown;
  try {
    applyJsonPatch(doc, operations);
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(JsonPatchError);
  return error as JsonPatchError;
}

describe('JSON patch (RFC 6902, Kubernetes semantics)', () => {
  it('applies operations in order on a copy', () => {
    const out = applyJsonPatch(doc, [
      { op: 'add', path: '/spec/ports/-', value: 443 },
      { op: 'move', from: '/metadata/labels/app', path: '/metadata/labels/name' },
      { op: 'test', path: '/spec/paused', value: null },
    ]);
    expect(out).toEqual({ spec: { replicas: 2, ports: [80, 443] }, metadata: { labels: { name: 'web' } } });
    expect(doc.spec.ports).toEqual([80]);
  });

  it.each<[unknown[], string, number, string]>([
    [
      [{ op: 'remove', path: '/spec/paused' }],
      'path-not-found',
      0,
      'Unable to remove nonexistent key: paused',
    ],
    [
      [
        { op: 'test', path: '/spec/replicas', value: 2 },
        { op: 'replace', path: '/spec/ports/01', value: 1 },
      ],
      'invalid-index',
      1,
      'invalid index',
    ],
    [[{ op: 'move', from: '/spec', path: '/spec/x' }], 'move-into-child', 0, 'into its own child'],
    [[{ op: 'copy', path: '/x' }], 'missing-from', 0, 'failed to decode path'],
    [[{ op: 'frob', path: '' }], 'unknown-op', 0, 'Unexpected kind: frob'],
  ])('names why operation %# does not apply', (operations, code, index, message) => {
    const err = failure(operations);
    expect([err.code, err.index]).toEqual([code, index]);
    expect(err.message).toContain(message);
  });
});

describe('merge patch (RFC 7386)', () => {
  it('merges maps, deletes on null, replaces lists, shares nothing with its inputs', () => {
    const out = mergePatch(doc, { spec: { ports: [8080], replicas: null } }) as typeof doc;
    expect(out).toEqual({ spec: { ports: [8080] }, metadata: { labels: { app: 'web' } } });
    expect(out.metadata).not.toBe(doc.metadata);
  });

  it('creates the patch that turns one value into another', () => {
    const to = { spec: { replicas: 3, ports: [80] }, metadata: {} };
    expect(mergePatch(doc, createMergePatch(doc, to))).toEqual(to);
  });
});
