import { backtrackingRisk } from './regexp-engine.js';
import { check, lines } from './testing.js';

const withPattern = (pattern: string) => ({
  type: 'object',
  properties: { v: { type: 'string', pattern } },
});

describe('validateProperties: patterns', () => {
  it('checks a catastrophic-backtracking pattern in linear time', () => {
    // JavaScript's engine would backtrack for hours at 40 characters (Jest's time limit fails it);
    // RE2 answers at once. How fast exactly is the bench's business, not this test's.
    const result = check({ v: `${'a'.repeat(40)}!` }, {}, withPattern('^(a+)+$'));
    expect(lines(result.issues)).toEqual([
      `error: properties.v: expected a string matching ^(a+)+$, got "${'a'.repeat(40)}!"`,
    ]);
    expect(check({ v: 'aaaa' }, {}, withPattern('^(a+)+$')).issues).toEqual([]);
  });

  it("reads patterns as CUE's =~ does (RE2 syntax, such as inline flags)", () => {
    expect(check({ v: 'ABC' }, {}, withPattern('(?i)^abc$')).issues).toEqual([]);
    expect(check({ v: '8Gi' }, {}, withPattern('^[0-9]+(\\.[0-9]+)?(Ei|Pi|Ti|Gi|Mi|Ki)?$')).issues).toEqual(
      [],
    );
  });

  it('refuses a pattern RE2 cannot run in linear time as a definition error', () => {
    expect(() => check({ v: 'aa' }, {}, withPattern('^(a)\\1$'))).toThrow(
      /definition error: the parameter schema is not a valid JSON Schema: .*no backreferences or lookaround/,
    );
  });
});

describe('backtrackingRisk (the fallback without RE2)', () => {
  it('flags nested repetition and backreferences', () => {
    expect(backtrackingRisk('^(a+)+$')).toMatch(/exponential/);
    expect(backtrackingRisk('^(a|aa)*$')).toMatch(/exponential/);
    expect(backtrackingRisk('^(?:x{2,})*$')).toMatch(/exponential/);
    expect(backtrackingRisk('(a)\\1')).toMatch(/backreferences/);
  });

  it('lets ordinary patterns through', () => {
    expect(backtrackingRisk('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')).toBeUndefined();
    expect(backtrackingRisk('^[0-9]+(\\.[0-9]+)?(E|P|T|G|M|K|Ei|Pi|Ti|Gi|Mi|Ki)?$')).toBeUndefined();
    expect(backtrackingRisk('^[(+*]{1}$')).toBeUndefined();
  });
});
