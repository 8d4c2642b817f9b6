/**
 * The small JSONPath subset CRD additionalPrinterColumns use: `.a.b`, `.a[0]`,
 * `.a[*].b`, `.a[?(@.type=="Ready")].status`, `['key.with.dots']`.
 */
type Step =
  { field: string } | { index: number } | { all: true } | { filter: { path: string[]; value: string } };

export function parseJsonPath(expr: string): Step[] {
  const text = expr
    .trim()
    .replace(/^\{(.*)\}$/, '$1')
    .replace(/^\$/, '');
  const steps: Step[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '.') {
      const m = /^\.([^.[\]]+)/.exec(text.slice(i));
      if (!m) throw new Error(`invalid JSONPath ${expr}: expected a field name at ${i}`);
      steps.push({ field: m[1] });
      i += m[0].length;
    } else if (text[i] === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) throw new Error(`invalid JSONPath ${expr}: unclosed [`);
      const inner = text.slice(i + 1, end).trim();
      const filter = /^\?\(@\.([\w.-]+)\s*==\s*["']([^"']*)["']\)$/.exec(inner);
      if (inner === '*') steps.push({ all: true });
      else if (/^-?\d+$/.test(inner)) steps.push({ index: Number(inner) });
      else if (filter) steps.push({ filter: { path: filter[1].split('.'), value: filter[2] } });
      else if (/^['"].*['"]$/.test(inner)) steps.push({ field: inner.slice(1, -1) });
      else throw new Error(`invalid JSONPath ${expr}: unsupported [${inner}]`);
      i = end + 1;
    } else throw new Error(`invalid JSONPath ${expr}: unexpected '${text[i]}' at ${i}`);
  }
  return steps;
}

function get(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>(
    (cur, key) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined),
    value,
  );
}

/** Every value the path selects (empty when nothing matches). */
export function evaluateJsonPath(obj: unknown, expr: string): unknown[] {
  let current: unknown[] = [obj];
  for (const step of parseJsonPath(expr)) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('field' in step) {
        const v = get(value, [step.field]);
        if (v !== undefined) next.push(v);
      } else if ('index' in step) {
        if (Array.isArray(value)) {
          const v = value[step.index < 0 ? value.length + step.index : step.index];
          if (v !== undefined) next.push(v);
        }
      } else if ('all' in step) {
        if (Array.isArray(value)) next.push(...value);
        else if (value && typeof value === 'object') next.push(...Object.values(value));
      } else if (Array.isArray(value)) {
        next.push(...value.filter((item) => String(get(item, step.filter.path)) === step.filter.value));
      }
    }
    current = next;
  }
  return current;
}
