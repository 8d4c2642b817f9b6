import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { unifiedHunks } from './unified-hunks.js';

describe('unified hunks', () => {
  it('equal texts have no hunks, also when only the final newline differs', () => {
    expect(unifiedHunks('a\nb\n', 'a\nb\n')).toEqual([]);
    expect(unifiedHunks('a\nb', 'a\nb\n')).toEqual([]);
    expect(unifiedHunks('', '')).toEqual([]);
  });

  it('a new object is all additions, a removed one all removals', () => {
    expect(unifiedHunks('', 'a\nb\n')).toEqual(['@@ -0,0 +1,2 @@', '+a', '+b']);
    expect(unifiedHunks('a\nb\n', '')).toEqual(['@@ -1,2 +0,0 @@', '-a', '-b']);
  });

  it('one changed line with three lines of context, as diff -u', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n');
    const after = before.replace('5', 'five');
    expect(unifiedHunks(before, after)).toEqual([
      '@@ -2,7 +2,7 @@',
      ' 2',
      ' 3',
      ' 4',
      '-5',
      '+five',
      ' 6',
      ' 7',
      ' 8',
    ]);
  });

  it('the hunks, as a patch, turn the old text into the new one (any texts)', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 30 })
      .map((l) => (l.length ? `${l.join('\n')}\n` : ''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const hunks = unifiedHunks(before, after);
        if (before === after) return expect(hunks).toEqual([]);
        const patch = ['--- before', '+++ after', ...hunks, ''].join('\n');
        expect(applyPatch(before, patch)).toBe(after);
      }),
    );
  });

  const hasDiff = spawnSync('diff', ['--version']).status === 0;
  (hasDiff ? it : it.skip)('hunks are the ones GNU diff -u prints', () => {
    const dir = mkdtempSync(join(tmpdir(), 'unified-hunks-'));
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n';
    const after = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nm\nn\n';
    writeFileSync(join(dir, 'a'), before);
    writeFileSync(join(dir, 'b'), after);
    const gnu = spawnSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
    const expected = gnu.stdout.split('\n').slice(2).filter(Boolean);
    expect(unifiedHunks(before, after)).toEqual(expected);
  });
});
