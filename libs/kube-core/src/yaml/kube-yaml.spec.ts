import { parse } from 'yaml';
import { toKubeYaml } from './kube-yaml.js';

describe('toKubeYaml', () => {
  // Strings a YAML 1.1 reader (kubectl, client-go) would take for booleans, numbers or dates.
  const ambiguous = {
    a: 'yes',
    b: 'no',
    c: 'on',
    d: 'Off',
    e: 'y',
    f: 'N',
    g: '1:20',
    h: '0777',
    i: '2001-12-14',
  };
  const value = {
    metadata: { labels: ambiguous, annotations: { plain: 'text', number: '42', truth: 'true' } },
    spec: { replicas: 3, paused: false, ratio: 1.5, nothing: null, list: ['yes', 1, true] },
  };

  it('writes YAML that a YAML 1.1 reader and a YAML 1.2 reader both read back unchanged', () => {
    const text = toKubeYaml(value);
    expect(parse(text, { version: '1.1' })).toEqual(value);
    expect(parse(text)).toEqual(value);
  });

  it('quotes the strings YAML 1.1 would read otherwise, and only as needed', () => {
    const text = toKubeYaml(value);
    expect(text).toContain('a: "yes"');
    expect(text).toContain('f: "N"');
    expect(text).toContain('plain: text');
    expect(text).toContain('replicas: 3');
    expect(text).not.toMatch(/%YAML/);
  });

  it('sorts keys when asked', () => {
    expect(toKubeYaml({ b: 1, a: 2 }, { sortKeys: true })).toBe('a: 2\nb: 1\n');
    expect(toKubeYaml({ b: 1, a: 2 })).toBe('b: 1\na: 2\n');
  });
});
