// The lint rule that keeps libs apart fails real violations (and only those).
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'oam/boundaries').map((m) => m.message);
}

describe('lint: lib boundaries', () => {
  it('refuses a lib importing an app', async () => {
    expect(
      await problems('libs/runtime/src/x.ts', "import { main } from '../../../apps/cli/src/program.js';\n"),
    ).toEqual([
      "a lib never imports an app: libs/runtime imports apps/cli ('../../../apps/cli/src/program.js')",
    ]);
  });

  it("refuses a relative path into another lib's files, and '#lib/...' subpaths", async () => {
    expect(
      await problems(
        'apps/cli/src/x.ts',
        "export { Renderer } from '../../../libs/renderer/src/render/renderer.js';\n",
      ),
    ).toEqual([
      "import libs/renderer through '#renderer' (its index.ts), not '../../../libs/renderer/src/render/renderer.js'",
    ]);
    expect(await problems('libs/api/src/x.ts', "import { x } from '#runtime/src/util/object.js';\n")).toEqual(
      ["'#runtime/src/util/object.js' reaches into a lib's internals: import '#runtime' (its index.ts)"],
    );
  });

  it("allows a lib's own files and other libs' entry points", async () => {
    expect(
      await problems(
        'libs/runtime/src/x.ts',
        "import { a } from './util/object.js';\nimport { realClock } from '#kube-core';\n",
      ),
    ).toEqual([]);
  });
});
