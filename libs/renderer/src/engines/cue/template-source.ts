import type { RenderContext } from '../engine.js';
import { scanFields, type FieldDeclaration } from './cue-fields.js';
import { isLabelAt, tokenizeDeep } from './cue-lexer.js';
import { eachLists } from './patch-keys.js';

/**
 * The CUE sources we hand to the evaluator, built from a definition's
 * template text. KubeVela reads `output`, `outputs` and `patch` out of the
 * evaluated template and ignores its helper fields (`mountsArray`,
 * `exposePorts`, ...), which may well be incomplete. cue-wasm can only export
 * a whole file, so helpers become hidden fields (`_mountsArray`) with a `let`
 * alias under their old name: every reference still resolves, nothing
 * incomplete is exported. Only text is appended or prefixed, so the imports
 * stay first and line numbers stay those of the template.
 */
export class TemplateSource {
  private readonly decls: FieldDeclaration[];
  private readonly opens: string[][];
  /** Identifiers used as references (not as labels): CUE rejects a `let` nobody reads. */
  private readonly referenced: Set<string>;
  /**
   * The text evaluated: `text` with the three dots of each `[...X]` list in
   * `patch` blanked out (see `eachLists`), so CUE exports `[X]` rather than `[]`
   * and applyPatch applies X to every item of the workload's list. Same length,
   * same lines.
   */
  private readonly evaluated: string;

  constructor(readonly text: string) {
    let evaluated = text;
    for (const { start } of eachLists(text))
      evaluated = evaluated.slice(0, start) + '   ' + evaluated.slice(start + 3);
    this.evaluated = evaluated;
    const scanned = scanFields(text);
    this.decls = scanned.declarations;
    this.opens = scanned.openStructs;
    this.referenced = new Set(
      tokenizeDeep(text).flatMap((tokens) =>
        tokens
          // `context.outputs` selects a field: it does not read a top-level `outputs`.
          .filter((t, i) => t.kind === 'ident' && !isLabelAt(tokens, i) && tokens[i - 1]?.text !== '.')
          .map((t) => t.text),
      ),
    );
  }

  /** Field declarations with their paths and comments, for patch keys and usage text. */
  get declarations(): readonly FieldDeclaration[] {
    return this.decls;
  }

  /** Paths of the struct literals that end in `...` (open structs), e.g. `["parameter", "objects", "[]"]`. */
  get openStructs(): readonly string[][] {
    return this.opens;
  }

  /** The names of the template's top-level regular fields, in order of first appearance. */
  topLevelFields(): string[] {
    const names = this.decls.filter((d) => d.topLevel && isRegular(d)).map((d) => d.label.text);
    return [...new Set(names)];
  }

  /** Evaluation source: `parameter` and the wanted results exported, `context` given. */
  forEvaluation(
    parameter: Record<string, unknown>,
    context: RenderContext | Record<string, unknown>,
    exported: readonly string[] = ['output', 'outputs', 'patch', 'parameter'],
  ): string {
    const keep = new Set(exported);
    const { text, aliases } = this.hide(
      this.evaluated,
      (name) => !keep.has(name),
      undefined,
      this.declareFirst('parameter'),
    );
    return [
      text,
      ...aliases,
      `parameter: ${JSON.stringify(parameter)}`,
      ...this.contextDeclaration(JSON.stringify(context)),
      '',
    ].join('\n');
  }

  /**
   * OpenAPI export source: CUE's generator only exports definitions, so
   * `parameter` becomes `#parameter` (aliased back for the template's own
   * references) and every other field is hidden.
   */
  forSchema(): string {
    const { text, aliases } = this.hide(this.text, (name) => name !== 'parameter', 'parameter');
    return [text, ...aliases, ...this.contextDeclaration('_'), ''].join('\n');
  }

  /** `context` as a hidden field (never exported), aliased only if the template reads it. */
  private contextDeclaration(value: string): string[] {
    return this.referenced.has('context') ? [`_context: ${value}`, 'let context = _context'] : [];
  }

  /**
   * CUE reports the first failing field in declaration order. Declaring
   * `parameter` before everything else makes a bad parameter value show up
   * as such, not as a conflict deep in `output`. Same line: line numbers stay.
   */
  private declareFirst(name: string): { at: number; prefix: string }[] {
    const first = this.decls.find((d) => d.topLevel);
    return first ? [{ at: first.label.start, prefix: `${name}: _, ` }] : [];
  }

  private hide(
    source: string,
    shouldHide: (name: string) => boolean,
    asDefinition?: string,
    extraEdits: { at: number; prefix: string }[] = [],
  ): { text: string; aliases: string[] } {
    const edits: { at: number; prefix: string }[] = [];
    const aliases = new Map<string, string>();
    for (const d of this.decls) {
      if (!d.topLevel || !isRegular(d)) continue;
      const name = d.label.text;
      if (name === asDefinition) {
        edits.push({ at: d.label.start, prefix: '#' });
        if (this.referenced.has(name)) aliases.set(name, `let ${name} = #${name}`);
      } else if (shouldHide(name)) {
        edits.push({ at: d.label.start, prefix: '_' });
        if (this.referenced.has(name)) aliases.set(name, `let ${name} = _${name}`);
      }
    }
    let text = source;
    // Ties apply in array order, each prefix landing before the previous one: renames first.
    for (const e of [...edits, ...extraEdits].sort((a, b) => b.at - a.at))
      text = text.slice(0, e.at) + e.prefix + text.slice(e.at);
    return { text, aliases: [...aliases.values()] };
  }
}

/** A plain identifier label: not a definition (`#X`), hidden (`_x`) or quoted field. */
function isRegular(d: FieldDeclaration): boolean {
  return d.label.kind === 'ident' && !/^[_#]/.test(d.label.text) && d.label.text !== 'context';
}
