import { revisionsToDelete } from './history-cap.js';

const revs = (...ns: number[]) => ns.map((n) => ({ name: `a-v${n}`, revision: n }));

describe('revisionsToDelete', () => {
  it('deletes the oldest beyond the limit', () => {
    expect(revisionsToDelete(revs(3, 1, 2, 4, 5), 3, new Set(['a-v5']))).toEqual(['a-v1', 'a-v2']);
  });

  it('deletes nothing within the limit', () => {
    expect(revisionsToDelete(revs(1, 2), 3, new Set(['a-v2']))).toEqual([]);
  });

  it('never deletes the live revision, even when it is the oldest (after a rollback by hand)', () => {
    expect(revisionsToDelete(revs(1, 2, 3, 4), 2, new Set(['a-v1']))).toEqual(['a-v2', 'a-v3']);
  });

  it('keeps one with a limit below 1', () => {
    expect(revisionsToDelete(revs(1, 2, 3), 0, new Set(['a-v3']))).toEqual(['a-v1', 'a-v2']);
  });
});
