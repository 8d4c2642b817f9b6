import { distance } from 'fastest-levenshtein';

/**
 * The candidate closest to `name` by edit distance (case-insensitive), when it
 * is close enough to be a plausible typo: no edits for names of one or two
 * letters (only a case difference), one for three letters, two up to eight
 * (a swapped pair of letters is two edits), three beyond. Ties go to the
 * earlier candidate.
 */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const d = distance(wanted, candidate.toLowerCase());
    const allowed = allowedEdits(Math.max(name.length, candidate.length));
    if (d <= allowed && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function allowedEdits(length: number): number {
  if (length <= 2) return 0;
  if (length === 3) return 1;
  return length <= 8 ? 2 : 3;
}
