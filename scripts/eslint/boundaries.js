// ESLint rule: the monorepo's boundaries. Code in libs/<a> or apps/<a> imports another unit only
// where the layer table (layers.js) allows it, whether by its '#alias' or by a relative path; and
// only through its entry point ('#<lib>', its index.ts), never by a relative path into its files
// nor by a '#<lib>/...' subpath.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { isTest, LAYERS } from './layers.js';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** package.json's "imports": '#kube-core' → './libs/kube-core/src/index.ts', … */
const aliases = Object.entries(JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).imports).map(
  ([alias, target]) => ({ alias, path: resolve(root, target.types) }),
);
/** '#kube-core' → 'libs/kube-core', '#api-server' → 'apps/api'. */
const aliasUnit = new Map(aliases.map(({ alias, path }) => [alias, unitOf(path)]));
/** 'libs/renderer' → '#renderer': the alias of a unit's entry point (its index.ts). */
const unitAlias = new Map(
  aliases
    .filter(({ path }) => path.endsWith(`${sep}index.ts`))
    .map(({ alias, path }) => [unitOf(path), alias]),
);

/** 'libs/runtime', 'apps/cli', or undefined for anything else (test/, bench/, scripts/). */
function unitOf(path) {
  const parts = relative(root, path).split(sep);
  return (parts[0] === 'libs' || parts[0] === 'apps') && parts[1] ? `${parts[0]}/${parts[1]}` : undefined;
}

const kindOf = (unit) => (unit.startsWith('libs/') ? 'lib' : 'app');

/** Why `from` may not import `to`, or undefined when the layer table allows it. */
function refusal(from, to, test, spec) {
  if (to === from) return undefined;
  const allowed = LAYERS[from];
  if (!allowed) return `${from} is not in the layer table (scripts/eslint/layers.js): add it there`;
  if (allowed.includes(to) || (test && to.startsWith('libs/'))) return undefined;
  if (kindOf(from) === 'lib' && kindOf(to) === 'app')
    return `a lib never imports an app: ${from} imports ${to} ('${spec}')`;
  if (kindOf(from) === 'app' && kindOf(to) === 'app')
    return `an app never imports another app: ${from} imports ${to} ('${spec}')`;
  return `${from} may not import ${to} ('${spec}'): the layer table (scripts/eslint/layers.js) lets it import ${allowed.join(', ') || 'nothing'}`;
}

export default {
  meta: {
    type: 'problem',
    docs: {
      description:
        'imports follow the layer table (scripts/eslint/layers.js); other units are reached through their index.ts',
    },
    schema: [],
  },
  create(context) {
    const from = unitOf(context.filename);
    if (!from) return {};
    const test = isTest(relative(root, context.filename).split(sep).join('/'));
    const check = (node) => {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string') return;
      const report = (message) => context.report({ node, message });
      if (spec.startsWith('#')) {
        const alias = spec.split('/')[0];
        const to = aliasUnit.get(alias);
        const refused = to && refusal(from, to, test, spec);
        if (refused) return report(refused);
        if (spec !== alias)
          report(`'${spec}' reaches into a lib's internals: import '${alias}' (its index.ts)`);
        return;
      }
      if (!spec.startsWith('.')) return;
      const to = unitOf(resolve(dirname(context.filename), spec));
      if (!to || to === from) return;
      const refused = refusal(from, to, test, spec);
      if (refused) return report(refused);
      if (to.startsWith('libs/')) {
        report(
          `import ${to} through '${unitAlias.get(to) ?? `#${to.slice(5)}`}' (its index.ts), not '${spec}'`,
        );
      } else {
        report(`${from} imports another app's internals: '${spec}'`);
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
