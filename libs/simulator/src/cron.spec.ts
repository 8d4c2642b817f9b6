import { mostRecent, nextAfter, parseCron } from './cron.js';
import { computeHash, fnv32a, safeEncodeString } from './hash.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('cron schedules (robfig/cron standard parser)', () => {
  it('finds the next time for fields, ranges, steps, lists and names', () => {
    expect(iso(nextAfter(parseCron('*/15 * * * *'), at('2024-05-01T10:07:30Z')))).toBe(
      '2024-05-01T10:15:00.000Z',
    );
    expect(iso(nextAfter(parseCron('0 9-17/4 * * mon-fri'), at('2024-05-03T17:30:00Z')))).toBe(
      '2024-05-06T09:00:00.000Z',
    );
    expect(iso(nextAfter(parseCron('30 2 1,15 * *'), at('2024-02-15T03:00:00Z')))).toBe(
      '2024-03-01T02:30:00.000Z',
    );
    expect(iso(nextAfter(parseCron('0 0 * dec sun'), at('2024-01-01T00:00:00Z')))).toBe(
      '2024-12-01T00:00:00.000Z',
    );
    expect(iso(nextAfter(parseCron('@hourly'), at('2024-05-01T10:00:00Z')))).toBe('2024-05-01T11:00:00.000Z');
    expect(iso(nextAfter(parseCron('@every 90s'), at('2024-05-01T10:00:00Z')))).toBe(
      '2024-05-01T10:01:30.000Z',
    );
  });

  it('ORs day-of-month and day-of-week when both are restricted', () => {
    // The 13th, or any Friday: 2024-09-06 is a Friday before the 13th.
    expect(iso(nextAfter(parseCron('0 0 13 * 5'), at('2024-09-01T00:00:00Z')))).toBe(
      '2024-09-06T00:00:00.000Z',
    );
  });

  it('computes in a time zone', () => {
    // 09:00 in New York (EDT, UTC-4) is 13:00 UTC.
    expect(iso(nextAfter(parseCron('0 9 * * *'), at('2024-07-01T00:00:00Z'), 'America/New_York'))).toBe(
      '2024-07-01T13:00:00.000Z',
    );
  });

  it('reports the most recent missed time', () => {
    const s = parseCron('*/10 * * * *');
    expect(mostRecent(s, at('2024-05-01T10:00:00Z'), at('2024-05-01T10:35:00Z'))).toEqual({
      time: at('2024-05-01T10:30:00Z'),
      missed: 2,
    });
    expect(mostRecent(s, at('2024-05-01T10:00:00Z'), at('2024-05-01T10:05:00Z'))).toBeUndefined();
  });

  it('rejects what the real parser rejects', () => {
    expect(() => parseCron('* * * *')).toThrow(/exactly 5 fields/);
    expect(() => parseCron('61 * * * *')).toThrow(/out of range/);
    expect(() => parseCron('@sometimes')).toThrow(/unrecognized descriptor/);
  });
});

describe('template hashes', () => {
  it('is FNV-1a, safe-encoded like rand.SafeEncodeString', () => {
    expect(fnv32a(new TextEncoder().encode(''))).toBe(0x811c9dc5);
    expect(fnv32a(new TextEncoder().encode('a'))).toBe(0xe40c292c);
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
    const h = computeHash({ spec: { containers: [{ image: 'nginx' }] } });
    expect(h).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(computeHash({ spec: { containers: [{ image: 'nginx' }] } }, 1)).not.toBe(h);
  });
});
