/**
 * Label and field selectors (k8s.io/apimachinery/pkg/labels and fields): the
 * `?labelSelector=` / `?fieldSelector=` strings and metav1.LabelSelector objects,
 * parsed into requirements and matched against labels and objects.
 */

/** A selector that does not parse; the message is kube-apiserver's. */
export class SelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}

/** metav1.LabelSelector, as in workload specs. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** One label requirement, as in k8s.io/apimachinery/pkg/labels. */
export interface LabelRequirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!exists' | 'gt' | 'lt';
  values: string[];
}

const badSelector = (message: string) => new SelectorError(`unable to parse requirement: ${message}`);

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

export function parseLabelSelector(text: string | undefined): LabelRequirement[] {
  if (!text || !text.trim()) return [];
  return splitTopLevel(text).map(parseRequirement);
}

function parseRequirement(part: string): LabelRequirement {
  const setMatch = /^([^\s!=<>(),]+)\s+(in|notin)\s*(.*)$/.exec(part);
  if (setMatch) {
    const [, key, op, rest] = setMatch;
    const list = /^\((.*)\)$/.exec(rest.trim());
    if (!list) throw badSelector(`found '${rest.trim() || 'EOF'}' expected: '('`);
    const values = list[1].split(',').map((v) => v.trim());
    return { key, op: op as 'in' | 'notin', values: values.filter((v) => v.length > 0) };
  }
  const opMatch = /^([^\s!=<>(),]+)\s*(==|!=|=|>|<)\s*([^\s!=<>(),]*)$/.exec(part);
  if (opMatch) {
    const [, key, op, value] = opMatch;
    if (op === '!=') return { key, op: 'notin', values: [value] };
    if (op === '>' || op === '<') {
      if (!/^-?\d+$/.test(value)) throw badSelector(`for 'gt', 'lt' operators, the value must be an integer`);
      return { key, op: op === '>' ? 'gt' : 'lt', values: [value] };
    }
    return { key, op: 'in', values: [value] };
  }
  const exists = /^(!?)\s*([^\s!=<>(),]+)$/.exec(part);
  if (exists) return { key: exists[2], op: exists[1] ? '!exists' : 'exists', values: [] };
  throw badSelector(`found '${part}', expected: in, notin, =, ==, !=, gt, lt`);
}

export function matchesLabels(
  requirements: LabelRequirement[],
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  return requirements.every((req) => {
    const has = Object.prototype.hasOwnProperty.call(l, req.key);
    switch (req.op) {
      case 'exists':
        return has;
      case '!exists':
        return !has;
      case 'in':
        return has && req.values.includes(l[req.key]);
      case 'notin':
        return !has || !req.values.includes(l[req.key]);
      case 'gt':
        return has && Number(l[req.key]) > Number(req.values[0]);
      case 'lt':
        return has && Number(l[req.key]) < Number(req.values[0]);
    }
  });
}

/** A selector from a LabelSelector object ({matchLabels, matchExpressions}) as used in specs. */
export function labelSelectorFromObject(selector: LabelSelector): LabelRequirement[] {
  const reqs: LabelRequirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, v]) => ({
    key,
    op: 'in',
    values: [v],
  }));
  for (const e of selector.matchExpressions ?? []) {
    const op = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!exists' }[e.operator];
    if (!op) throw new SelectorError(`"${e.operator}" is not a valid label selector operator`);
    reqs.push({ key: e.key, op: op as LabelRequirement['op'], values: e.values ?? [] });
  }
  return reqs;
}

/**
 * Whether `labels` satisfy a metav1.LabelSelector (LabelSelectorAsSelector(...).Matches):
 * no selector matches nothing, an empty one everything, an unknown operator nothing.
 * Tolerates unvalidated input (validation calls it before the object is known good).
 */
export function labelSelectorMatches(selector: LabelSelector | undefined, labels: unknown): boolean {
  if (!selector) return false;
  const have = asMap(labels);
  for (const [key, value] of Object.entries(asMap(selector.matchLabels))) {
    if (have[key] !== value) return false;
  }
  const expressions: unknown[] = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  return expressions.every((raw) => {
    const expr = asMap(raw);
    const present = typeof expr.key === 'string' && Object.hasOwn(have, expr.key);
    const values: unknown[] = Array.isArray(expr.values) ? expr.values : [];
    const value = present ? have[expr.key as string] : undefined;
    switch (expr.operator) {
      case 'In':
        return present && values.includes(value);
      case 'NotIn':
        return !present || !values.includes(value);
      case 'Exists':
        return present;
      case 'DoesNotExist':
        return !present;
      default:
        return false;
    }
  });
}

const asMap = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

export interface FieldRequirement {
  field: string;
  equal: boolean;
  value: string;
}

export function parseFieldSelector(text: string | undefined, supported: string[]): FieldRequirement[] {
  if (!text || !text.trim()) return [];
  return splitTopLevel(text).map((part) => {
    const m = /^([^=!]+?)\s*(==|!=|=)\s*(.*)$/.exec(part);
    if (!m) throw new SelectorError(`invalid selector: '${text}'; can't understand '${part}'`);
    const [, field, op, value] = m;
    if (!supported.includes(field)) {
      const list = supported.map((f) => `"${f}"`).join(', ');
      throw new SelectorError(`"${field}" is not a known field selector: only ${list}`);
    }
    return { field, equal: op !== '!=', value };
  });
}

/** Reads a dotted field path (metadata.name, involvedObject.kind) from an object as a string. */
export function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  return String(cur);
}

export function matchesFields(requirements: FieldRequirement[], obj: unknown): boolean {
  return requirements.every((req) => (fieldValue(obj, req.field) === req.value) === req.equal);
}
