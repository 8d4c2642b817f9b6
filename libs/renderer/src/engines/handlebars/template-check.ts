/** A construct the engine refuses, with where it is. */
export interface TemplateProblem {
  message: string;
  line: number;
  column: number;
}

interface Node {
  type: string;
  loc?: { start: { line: number; column: number } };
  escaped?: boolean;
  body?: Node[];
  program?: Node;
  inverse?: Node;
}

const FORBIDDEN: Record<string, string> = {
  PartialStatement: 'partials ({{> name}}) are not available in definitions',
  PartialBlockStatement: 'partials ({{#> name}}) are not available in definitions',
  Decorator: 'decorators ({{* name}}) are not available in definitions',
  DecoratorBlock: 'decorators ({{#* name}}) are not available in definitions',
};

const UNESCAPED =
  '{{{value}}} and {{& value}} insert text unquoted, which would let a value change the YAML structure; ' +
  'use {{value}} (YAML-safe), {{json value}} or {{yaml value indent=N}}';

/**
 * The first construct of a parsed template that the engine does not run:
 * unescaped insertions (they bypass YAML-safe quoting), partials and
 * decorators (no way to register them, and partials could recurse).
 */
export function firstProblem(program: Node): TemplateProblem | undefined {
  const stack: Node[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const start = node.loc?.start ?? { line: 1, column: 0 };
    const forbidden = FORBIDDEN[node.type];
    if (forbidden) return { message: forbidden, ...start };
    if (node.type === 'MustacheStatement' && node.escaped === false) return { message: UNESCAPED, ...start };
    for (const child of [node.program, node.inverse]) if (child) stack.push(child);
    if (node.body) stack.push(...[...node.body].reverse());
  }
  return undefined;
}
