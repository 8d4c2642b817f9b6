import type { HealthPolicy, LiveState } from '#renderer';

/**
 * What a health policy (CUE) can observe of its request, found in its text,
 * so a request carries only that (`cutFor`): the cache key of an evaluation then stops
 * changing when something the policy never reads changes (a Deployment's
 * resourceVersion, its conditions' timestamps; the workload, for gateway's
 * policies, which read only `context.outputs`), equal states of different
 * applications share one verdict, and less is copied to the CUE worker.
 *
 * Found by reading the text, not parsing it, and always on the safe side: a
 * `context` that is not followed by a selector (`context` passed whole,
 * aliased, interpolated) keeps everything; a selector chain keeps the whole
 * value at its end (a computed index or anything unusual ends the chain
 * early, which keeps more); only a chain compared with `_|_` right away
 * (`if context.output.status != _|_`) is read for its existence alone, and
 * a struct there is kept as `{}`, which exists as well. Text in comments or
 * strings can only make it keep more.
 */

/** The part of one value a policy reads: all of it, or some fields, or only whether it exists. */
interface Reads {
  whole: boolean;
  fields: Map<string, Reads>;
}

export interface PolicyReads {
  /** Undefined: the policy may read all of `context`. */
  context?: Reads;
  /** Whether the policy mentions `parameter` at all. */
  parameter: boolean;
}

const IDENT = '[A-Za-z_$#][\\w$#]*';
const SELECTOR = new RegExp(`^(?:\\.(${IDENT})|\\[\\s*"((?:[^"\\\\\\n]|\\\\.)*)"\\s*\\])`);
const EXISTENCE_TEST = /^\s*[!=]=\s*_\|_/;
/** What may stand before an operand whose existence test is a whole condition (`if`, `&&`, `(` ...). */
const CONDITION_START = /(?:^|[({,:]|&&|\|\||\bif)[ \t]*$/;
const mentions = (name: string) => new RegExp(`(?<![\\w$#.])${name}(?![\\w$#])`, 'g');
const CONTEXT = mentions('context');
const PARAMETER = mentions('parameter');

const node = (): Reads => ({ whole: false, fields: new Map() });

export function policyReads(source: string): PolicyReads {
  const parameter = PARAMETER.test(source);
  PARAMETER.lastIndex = 0;
  const root = node();
  for (const m of source.matchAll(CONTEXT)) {
    let at = m.index + m[0].length;
    let reads = root;
    let steps = 0;
    for (;;) {
      const s = SELECTOR.exec(source.slice(at, at + 300));
      const name = s ? (s[1] ?? stringLabel(s[2])) : undefined;
      if (!s || name === undefined) break;
      let next = reads.fields.get(name);
      if (!next) reads.fields.set(name, (next = node()));
      reads = next;
      at += s[0].length;
      steps++;
    }
    if (steps === 0) return { parameter }; // `context` itself: all of it
    const existenceOnly =
      EXISTENCE_TEST.test(source.slice(at, at + 20)) && CONDITION_START.test(source.slice(0, m.index));
    if (!existenceOnly) reads.whole = true;
  }
  return { context: root, parameter };
}

/** A quoted index as a field name; undefined when it is computed (`["\\(x)"]`) or unusual. */
function stringLabel(quoted: string): string | undefined {
  if (quoted.includes('\\')) return undefined;
  return quoted;
}

/** `value` reduced to what `reads` observes (see the module comment). */
export function pruned(value: unknown, reads: Reads): unknown {
  if (reads.whole || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of reads.fields)
    if (Object.hasOwn(value, name)) out[name] = pruned(value[name], sub);
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * `live` as `policy` (its health policy and custom status together) can see
 * it: the context (render context, live workload and outputs) cut to what
 * the policy reads, and its parameters only if it mentions them. The verdict
 * is the one the whole state gives. Policies are analysed once each.
 */
export function cutFor(policy: HealthPolicy, live: LiveState): LiveState {
  const reads = readsOf(policy);
  const parameter = reads.parameter ? live.parameter : {};
  if (!reads.context) return { ...live, parameter };
  const { output, outputs, ...context } = pruned(
    { ...live.context, output: live.output, outputs: live.outputs ?? {} },
    reads.context,
  ) as Record<string, unknown>;
  return {
    // evaluateHealth puts these back under `context`; what the policy does not read may be anything.
    output: (output ?? {}) as LiveState['output'],
    outputs: (outputs ?? {}) as LiveState['outputs'],
    parameter,
    context: context as LiveState['context'],
  };
}

const analysed = new Map<string, PolicyReads>();

function readsOf(policy: HealthPolicy): PolicyReads {
  const text = `${policy.healthPolicy ?? ''}\n${policy.customStatus ?? ''}`;
  let reads = analysed.get(text);
  if (!reads) {
    if (analysed.size >= 1000) analysed.clear(); // a handful of definitions' policies in practice
    analysed.set(text, (reads = policyReads(text)));
  }
  return reads;
}
