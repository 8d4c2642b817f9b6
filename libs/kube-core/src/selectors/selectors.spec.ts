import {
  labelSelectorFromObject,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
} from './selectors.js';

const labels = { app: 'web', tier: 'front', version: '3' };
const match = (selector: string, l: Record<string, string> = labels) =>
  matchesLabels(parseLabelSelector(selector), l);

describe('label selectors', () => {
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app in (db)', false],
    ['app notin (db, cache)', true],
    ['missing notin (db)', true],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['version>2', true],
    ['version<3', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['app in (web, db),!missing', true],
    ['', true],
  ])('%s → %s', (selector, expected) => {
    expect(match(selector)).toBe(expected);
  });

  it('refuses malformed requirements with kube parse messages', () => {
    expect(() => parseLabelSelector('a in b')).toThrow(
      /unable to parse requirement: found 'b' expected: '\('/,
    );
    expect(() => parseLabelSelector('a=b=c')).toThrow(/unable to parse requirement/);
  });

  it('builds requirements from a LabelSelector object', () => {
    const reqs = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front'] },
        { key: 'gone', operator: 'DoesNotExist' },
      ],
    });
    expect(matchesLabels(reqs, labels)).toBe(true);
    expect(matchesLabels(reqs, { ...labels, gone: 'x' })).toBe(false);
  });
});

describe('field selectors', () => {
  const pod = {
    metadata: { name: 'p', namespace: 'ns' },
    status: { phase: 'Running' },
    spec: { nodeName: 'n1' },
  };
  const supported = ['metadata.name', 'metadata.namespace', 'status.phase', 'spec.nodeName'];

  it('matches =, == and != on nested fields', () => {
    expect(matchesFields(parseFieldSelector('status.phase=Running,metadata.name==p', supported), pod)).toBe(
      true,
    );
    expect(matchesFields(parseFieldSelector('spec.nodeName!=n1', supported), pod)).toBe(false);
    expect(matchesFields(parseFieldSelector('metadata.namespace!=other', supported), pod)).toBe(true);
  });

  it('refuses fields the resource does not index, naming the supported ones', () => {
    expect(() => parseFieldSelector('spec.foo=x', ['metadata.name', 'metadata.namespace'])).toThrow(
      '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});
