import { ApiError } from '../errors.js';
import { decodeBody } from './messages.js';

describe('decodeBody', () => {
  const yaml = (text: string) => decodeBody(Buffer.from(text), 'application/yaml', 'ConfigMap');

  it('reads a JSON text sent as YAML (what apply clients send) to the value YAML gives it', () => {
    const text = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { a: '1', 'b/c': 'x\ny' },
      n: 1.5e3,
    });
    expect(yaml(text)).toEqual(JSON.parse(text));
    expect(yaml(`  \n${text}`)).toEqual(JSON.parse(text));
  });

  it('reads a YAML flow mapping that is not JSON with the YAML parser', () => {
    expect(yaml('{kind: ConfigMap, data: {a: "1"}}')).toEqual({ kind: 'ConfigMap', data: { a: '1' } });
  });

  it('reads block YAML', () => {
    expect(yaml('kind: ConfigMap\ndata:\n  a: "1"\n')).toEqual({ kind: 'ConfigMap', data: { a: '1' } });
  });

  it('rejects a body that is neither, with kube’s message', () => {
    expect(() => yaml('{kind: [')).toThrow(ApiError);
    expect(() => yaml('{kind: [')).toThrow(/must be of type ConfigMap\): yaml:/);
  });
});
