import {
  invalidStatusMessage,
  strictDecodingMessage,
  unknownFieldWarning,
  validateBuiltin,
} from './index.js';
import { badValue, goRepr, invalid, tooLong, tooMany } from './field-errors.js';

describe('kube message formatting', () => {
  it('prints bad values the way field.Error.ErrorBody does', () => {
    expect(badValue('a"b')).toBe('"a\\"b"');
    expect(badValue(3)).toBe('3');
    expect(badValue(false)).toBe('false');
    expect(badValue(null)).toBe('"null"');
    expect(goRepr({ b: '2', a: '1' }, true)).toBe('map[string]string{"a":"1", "b":"2"}');
    expect(goRepr({ x: [1, null] })).toBe(
      'map[string]interface {}{"x":[]interface {}{1, interface {}(nil)}}',
    );
    expect(invalid('spec.x', 'v', '').message).toBe('Invalid value: "v"');
    expect(tooLong('metadata.annotations', 262144).message).toBe(
      'Too long: may not be more than 262144 bytes',
    );
    expect(tooMany('spec.tags', 3, 2).message).toBe('Too many: 3: must have at most 2 items');
  });

  it('builds the message of a 422 Invalid status like errors.NewInvalid', () => {
    const causes = validateBuiltin(
      { group: '', version: 'v1', kind: 'Service' },
      { metadata: { name: 's' }, spec: {} },
    );
    expect(invalidStatusMessage('Service', '', 's', causes)).toBe(
      'Service "s" is invalid: spec.ports: Required value',
    );
    const two = [invalid('spec.a', 1, 'bad'), invalid('spec.b', 'x', 'worse')];
    expect(invalidStatusMessage('Deployment', 'apps', 'web', two)).toBe(
      'Deployment.apps "web" is invalid: [spec.a: Invalid value: 1: bad, spec.b: Invalid value: "x": worse]',
    );
  });

  it('builds the strict decoding message and the Warn-mode warning', () => {
    expect(strictDecodingMessage(['spec.foo', 'spec.containers[0].bar'])).toBe(
      'strict decoding error: unknown field "spec.foo", unknown field "spec.containers[0].bar"',
    );
    expect(strictDecodingMessage(['spec.foo'], { kind: 'Deployment', version: 'v1' })).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"',
    );
    expect(unknownFieldWarning('spec.foo')).toBe('unknown field "spec.foo"');
  });
});
