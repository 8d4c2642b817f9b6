/** One line of a diff: kept (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/**
 * The shortest edit between two texts' lines (longest common subsequence).
 * Quadratic, which is fine for one object's YAML (hundreds of lines); the
 * npm `diff` package would be the dependency to take for anything larger.
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], one row per line of a.
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] });
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i][j + 1] > lcs[i + 1][j])) {
      out.push({ op: '+', text: b[j++] });
    } else {
      out.push({ op: '-', text: a[i++] });
    }
  }
  return out;
}

/**
 * `diff -u` hunks (`@@ -l,s +l,s @@` then the lines) with `context` unchanged
 * lines around each change; empty when the texts are equal.
 */
export function unifiedHunks(lines: DiffLine[], context = 3): string[] {
  const changed = lines.map((l, k) => (l.op === ' ' ? -1 : k)).filter((k) => k >= 0);
  if (changed.length === 0) return [];
  // Group changes whose context windows touch.
  const groups: [number, number][] = [];
  for (const k of changed) {
    const last = groups.at(-1);
    if (last && k - last[1] <= 2 * context) last[1] = k;
    else groups.push([k, k]);
  }
  // Line numbers (1-based) in each text at every index of `lines`.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let p = 1;
  for (const l of lines) {
    oldAt.push(o);
    newAt.push(p);
    if (l.op !== '+') o++;
    if (l.op !== '-') p++;
  }
  const out: string[] = [];
  for (const [first, last] of groups) {
    const start = Math.max(0, first - context);
    const end = Math.min(lines.length - 1, last + context);
    const slice = lines.slice(start, end + 1);
    const oldCount = slice.filter((l) => l.op !== '+').length;
    const newCount = slice.filter((l) => l.op !== '-').length;
    const oldStart = oldCount === 0 ? oldAt[start] - 1 : oldAt[start];
    const newStart = newCount === 0 ? newAt[start] - 1 : newAt[start];
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const l of slice) out.push(`${l.op}${l.text}`);
  }
  return out;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
