import { FieldSet } from './set.js';

const fields = {
  'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
  'f:spec': {
    'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
    'f:replicas': {},
  },
};

describe('FieldSet', () => {
  it('encodes FieldsV1 in structured-merge-diff order, "." last', () => {
    const set = FieldSet.fromFieldsV1({ 'f:b': {}, 'k:{"name":"x"}': {}, 'f:a': { 'f:y': {}, '.': {} } });
    expect(JSON.stringify(set.toFieldsV1())).toBe(
      '{"f:a":{"f:y":{},".":{}},"f:b":{},"k:{\\"name\\":\\"x\\"}":{}}',
    );
  });

  it('gives back the JSON it made when a set decoded from it is encoded unchanged', () => {
    const json = FieldSet.fromFieldsV1(fields).toFieldsV1();
    expect(json).toEqual(fields);
    expect(Object.isFrozen(json)).toBe(true);
    const again = FieldSet.fromFieldsV1(json);
    expect(again.toFieldsV1()).toBe(json);
    expect(again.difference(FieldSet.fromFieldsV1({ 'f:status': {} })).toFieldsV1()).toBe(json);
    expect(again.union(FieldSet.fromFieldsV1({ 'f:spec': { 'f:replicas': {} } })).toFieldsV1()).toBe(json);
  });

  it('encodes a changed set anew, sharing nothing it did not change', () => {
    const json = FieldSet.fromFieldsV1(fields).toFieldsV1();
    const grown = FieldSet.fromFieldsV1(json).union(FieldSet.fromFieldsV1({ 'f:spec': { 'f:paused': {} } }));
    const out = grown.toFieldsV1();
    expect(out).toEqual({ ...fields, 'f:spec': { ...fields['f:spec'], 'f:paused': {} } });
    expect(out['f:metadata']).toBe(json['f:metadata']);
    const shrunk = FieldSet.fromFieldsV1(json).difference(
      FieldSet.fromFieldsV1({ 'f:spec': { 'f:replicas': {} } }),
    );
    expect(shrunk.toFieldsV1()).toEqual({
      'f:metadata': fields['f:metadata'],
      'f:spec': { 'f:containers': fields['f:spec']['f:containers'] },
    });
  });

  it('re-encodes JSON it did not make (a client may send keys in any order)', () => {
    const sent = { 'f:spec': { 'f:replicas': {} }, 'f:metadata': { 'f:labels': { 'f:app': {}, '.': {} } } };
    const json = FieldSet.fromFieldsV1(sent).toFieldsV1();
    expect(json).not.toBe(sent);
    expect(Object.keys(json)).toEqual(['f:metadata', 'f:spec']);
    expect(Object.keys(json['f:metadata'] as object)).toEqual(['f:labels']);
    expect(Object.keys((json['f:metadata'] as Record<string, object>)['f:labels'])).toEqual(['f:app', '.']);
  });
});
