/**
 * Field declarations in a CUE template's top-level `parameter: { ... }` block
 * (and in `#Definitions` the parameters use) that lack a `// +usage=` comment
 * directly above them (other `// +` markers may sit in between).
 */
export function fieldsWithoutUsage(template: string): string[] {
  const lines = template.split('\n');
  const missing: string[] = [];
  let depth = 0;
  let inSchema = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (depth === 0) {
      inSchema = /^(parameter|#[A-Za-z]\w*)\s*:/.test(trimmed);
      // `parameter: [string]: string` declares the whole schema on one line.
      if (/^parameter\s*:/.test(trimmed) && !trimmed.endsWith('{') && !hasUsageAbove(lines, i)) {
        missing.push(`line ${i + 1}: ${trimmed}`);
      }
    }
    const declaresField = /^("[^"]+"|[A-Za-z_][\w-]*|\[string\])\??\s*:/.test(trimmed);
    if (inSchema && depth > 0 && declaresField && !hasUsageAbove(lines, i)) {
      missing.push(`line ${i + 1}: ${trimmed}`);
    }
    depth += count(line, '{') + count(line, '[') - count(line, '}') - count(line, ']');
  }
  return missing;
}

function hasUsageAbove(lines: string[], index: number): boolean {
  for (let j = index - 1; j >= 0; j--) {
    const t = lines[j].trim();
    if (t.startsWith('// +usage=') && t.length > '// +usage='.length) return true;
    if (!t.startsWith('// +')) return false;
  }
  return false;
}

function count(line: string, ch: string): number {
  // Brackets inside strings and comments do not nest.
  const code = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\/\/.*$/, '');
  return code.split(ch).length - 1;
}
