import { formatDuration } from '../output/age.js';
import { parseDuration, parseQuantity } from './target-options.js';

describe('durations', () => {
  it.each([
    ['5m', 300_000],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['45', 45_000],
  ])('parses %s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 'soon', '5 m', '5x', '-3'])('refuses %j', (text) =>
    expect(() => parseDuration(text)).toThrow(/duration/),
  );

  it.each([
    [3000, '3s'],
    [300_000, '5m'],
    [150_000, '2m30s'],
    [3 * 3_600_000, '3h'],
    [5 * 86_400_000, '5d'],
  ])('formats %d ms as %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('quantities', () => {
  it.each([
    ['512Mi', 512 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['500M', 500e6],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['1048576', 1048576],
  ])('parses %s', (text, bytes) => expect(parseQuantity(text)).toBe(bytes));

  it.each(['', 'lots', '512 Mi', '512mi', '-1Gi', '0'])('refuses %j', (text) =>
    expect(() => parseQuantity(text)).toThrow(/quantity/),
  );
});
