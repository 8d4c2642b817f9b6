import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRenderer, renderSources, type RendererHandle } from '#renderer';
import type { Definition } from '#api';
import { loadBuiltinDefinitions, projectRoot } from '#definitions';
import { readInputs } from '../../apps/cli/src/io/read-inputs.js';
import { formatObjects } from '../../apps/cli/src/output/print-objects.js';
import { ensureBuilt } from '../support/build.js';

// Handlebars templates render in worker threads that run the compiled engine from dist/.
beforeAll(() => ensureBuilt(projectRoot()), 240_000);

/**
 * Every example renders, and renders exactly as its golden file says.
 * After an intended change: `UPDATE_GOLDEN=1 npm test -- test/render` and review the diff.
 */
const root = projectRoot();
const examples = readdirSync(join(root, 'examples'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

let handle: RendererHandle;
let builtins: Definition[];

beforeAll(async () => {
  handle = createRenderer();
  builtins = await loadBuiltinDefinitions(root);
});
afterAll(() => handle.close());

describe('examples', () => {
  it('there are examples to render', () => {
    expect(examples).toEqual(
      expect.arrayContaining(['hello', 'split-roles', 'multi-component', 'handlebars']),
    );
  });

  it.each(examples)('%s renders as its golden file', async (name) => {
    const files = await readInputs([join(root, 'examples', name)]);
    const result = await renderSources(files, handle.renderer, { builtins });
    expect(result.errors.map((e) => e.message)).toEqual([]);
    const text = formatObjects(
      result.apps.flatMap((a) => a.objects.map((o) => o.object)),
      'yaml',
    );
    const golden = join(root, 'test', 'render', 'golden', `${name}.yaml`);
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(dirname(golden), { recursive: true });
      writeFileSync(golden, text);
    }
    expect(
      existsSync(golden) ? readFileSync(golden, 'utf8') : `missing ${golden}: run with UPDATE_GOLDEN=1`,
    ).toBe(text);
  });
});
