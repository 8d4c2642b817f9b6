import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCrds } from '#api';
import { generatedFiles } from '../../scripts/generated-files.js';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

describe('generated CRDs and editor schema', () => {
  it.each(generatedFiles().map(([path, content]) => [path, content]))(
    '%s matches the zod schemas (run `npm run gen:crds` after changing libs/api)',
    (path, content) => {
      expect(readFileSync(join(root, path), 'utf8')).toBe(content);
    },
  );

  it('every CRD schema is structural: each node has a type or preserves unknown fields', () => {
    const untyped: string[] = [];
    const walk = (node: Record<string, unknown>, path: string) => {
      if (!node.type && !node['x-kubernetes-preserve-unknown-fields']) untyped.push(path);
      if (node.properties && node.additionalProperties)
        untyped.push(`${path} (properties beside additionalProperties)`);
      for (const [k, v] of Object.entries((node.properties as Record<string, Record<string, unknown>>) ?? {}))
        walk(v, `${path}.${k}`);
      if (node.items) walk(node.items as Record<string, unknown>, `${path}[]`);
      if (typeof node.additionalProperties === 'object')
        walk(node.additionalProperties as Record<string, unknown>, `${path}{}`);
    };
    for (const crd of generateCrds()) {
      const version = (crd.spec as { versions: { schema: { openAPIV3Schema: Record<string, unknown> } }[] })
        .versions[0];
      walk(version.schema.openAPIV3Schema, (crd.metadata as { name: string }).name);
    }
    expect(untyped).toEqual([]);
  });
});
