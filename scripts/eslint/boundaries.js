// ESLint rule: the monorepo's boundaries. Code in libs/<a> or apps/<a> reaches
// another lib only through its entry point ('#<lib>', its index.ts), never by
// a relative path into its files; libs never import apps; and '#<lib>/...'
// subpaths (another lib's internals) are refused.
import { dirname, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** 'libs/runtime', 'apps/cli', or undefined for anything else (test/, bench/, scripts/). */
function unitOf(path) {
  const parts = relative(root, path).split(sep);
  return (parts[0] === 'libs' || parts[0] === 'apps') && parts[1] ? `${parts[0]}/${parts[1]}` : undefined;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'libs are imported through their index.ts; libs never import apps' },
    schema: [],
  },
  create(context) {
    const from = unitOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string') return;
      if (/^#[^/]+\//.test(spec)) {
        context.report({
          node,
          message: `'${spec}' reaches into a lib's internals: import '${spec.split('/')[0]}' (its index.ts)`,
        });
        return;
      }
      if (!spec.startsWith('.')) return;
      const to = unitOf(resolve(dirname(context.filename), spec));
      if (!to || to === from) return;
      if (from.startsWith('libs/') && to.startsWith('apps/')) {
        context.report({ node, message: `a lib never imports an app: ${from} imports ${to} ('${spec}')` });
      } else if (to.startsWith('libs/')) {
        context.report({
          node,
          message: `import ${to} through '#${to.slice(5)}' (its index.ts), not '${spec}'`,
        });
      } else {
        context.report({ node, message: `${from} imports another app's internals: '${spec}'` });
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
