// The lint rule that keeps libs and apps apart fails real violations (and only those): the layer
// table of scripts/eslint/layers.js, by '#alias' and by relative path, and entry points only.
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { LAYERS } from '../../scripts/eslint/layers.js';

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
    expect(
      await problems('libs/renderer/src/x.ts', "import { startController } from '#controller';\n"),
    ).toEqual(["a lib never imports an app: libs/renderer imports apps/controller ('#controller')"]);
    // Not even from a test: a lib's tests may use other libs, never an app.
    expect(await problems('libs/api/src/x.spec.ts', "import { startApi } from '#api-server';\n")).toEqual([
      "a lib never imports an app: libs/api imports apps/api ('#api-server')",
    ]);
  });

  it('refuses an app importing another app, by alias or by path', async () => {
    expect(
      await problems('apps/api/src/x.ts', "import { schemaConfigMapName } from '#controller';\n"),
    ).toEqual(["an app never imports another app: apps/api imports apps/controller ('#controller')"]);
    expect(
      await problems('apps/controller/src/x.ts', "import type { ApiOptions } from '#api-server';\n"),
    ).toEqual(["an app never imports another app: apps/controller imports apps/api ('#api-server')"]);
    expect(
      await problems('apps/api/src/x.ts', "import { FINALIZER } from '../../controller/src/index.js';\n"),
    ).toEqual([
      "an app never imports another app: apps/api imports apps/controller ('../../controller/src/index.js')",
    ]);
    expect(
      await problems('apps/web/src/x.ts', "import { routes } from '../../api/src/http/routes.js';\n"),
    ).toEqual([
      "an app never imports another app: apps/web imports apps/api ('../../api/src/http/routes.js')",
    ]);
  });

  it('refuses a lower lib importing a higher one', async () => {
    expect(await problems('libs/kube-core/src/x.ts', "import { Manager } from '#runtime';\n")).toEqual([
      "libs/kube-core may not import libs/runtime ('#runtime'): the layer table (scripts/eslint/layers.js) lets it import nothing",
    ]);
    expect(
      await problems(
        'libs/runtime/src/x.ts',
        "import { startServer } from '../../kube-server/src/index.js';\n",
      ),
    ).toEqual([
      "libs/runtime may not import libs/kube-server ('../../kube-server/src/index.js'): the layer table (scripts/eslint/layers.js) lets it import libs/kube-core",
    ]);
    expect(await problems('libs/api/src/x.ts', "export { Renderer } from '#renderer';\n")).toEqual([
      "libs/api may not import libs/renderer ('#renderer'): the layer table (scripts/eslint/layers.js) lets it import libs/kube-core",
    ]);
    expect(await problems('libs/renderer/src/x.ts', "const d = await import('#definitions');\n")).toEqual([
      "libs/renderer may not import libs/definitions ('#definitions'): the layer table (scripts/eslint/layers.js) lets it import libs/kube-core, libs/api",
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
    expect(
      await problems('libs/api/src/x.ts', "import { x } from '#kube-core/src/util/object.js';\n"),
    ).toEqual([
      "'#kube-core/src/util/object.js' reaches into a lib's internals: import '#kube-core' (its index.ts)",
    ]);
    expect(
      await problems(
        'apps/cli/src/x.ts',
        "import { x } from '../../controller/src/reconcile/finalizer.js';\n",
      ),
    ).toEqual(["apps/cli imports another app's internals: '../../controller/src/reconcile/finalizer.js'"]);
  });

  it("allows a lib's own files, the libs below it, and the CLI hosting the controller and the REST API", async () => {
    expect(
      await problems(
        'libs/runtime/src/x.ts',
        "import { a } from './util/object.js';\nimport { realClock } from '#kube-core';\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'libs/definitions/src/x.ts',
        "import { parseSources } from '#renderer';\nimport type { Definition } from '#api';\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'apps/cli/src/x.ts',
        "import { startController } from '#controller';\nconst api = await import('#api-server');\n",
      ),
    ).toEqual([]);
    expect(await problems('apps/api/src/x.ts', "import { SCHEMA_KEY } from '#api';\n")).toEqual([]);
  });

  it('keeps the API server free of the workload simulator, which its callers register', async () => {
    expect(
      await problems('libs/kube-server/src/x.ts', "import { workloadSimulator } from '#simulator';\n"),
    ).toEqual([
      "libs/kube-server may not import libs/simulator ('#simulator'): the layer table (scripts/eslint/layers.js) lets it import libs/kube-core, libs/runtime",
    ]);
    expect(
      await problems('libs/simulator/src/x.ts', "import type { ServerController } from '#kube-server';\n"),
    ).toEqual([]);
    expect(await problems('apps/cli/src/x.ts', "import { workloadSimulator } from '#simulator';\n")).toEqual(
      [],
    );
  });

  it("allows a lib's tests to use a higher lib as a fixture", async () => {
    expect(
      await problems('libs/runtime/test/harness.ts', "import { startServer } from '#kube-server';\n"),
    ).toEqual([]);
    expect(
      await problems('libs/renderer/src/health/x.spec.ts', "import { projectRoot } from '#definitions';\n"),
    ).toEqual([]);
  });

  it('has a row for every lib and app; kube-core at the bottom; no lib above an app', () => {
    const units = ['libs', 'apps'].flatMap((d) =>
      readdirSync(d, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => `${d}/${e.name}`),
    );
    expect(Object.keys(LAYERS).sort()).toEqual(units.sort());
    expect(LAYERS['libs/kube-core']).toEqual([]);
    for (const [unit, allowed] of Object.entries(LAYERS)) {
      if (unit.startsWith('libs/'))
        expect({ unit, apps: allowed.filter((u) => u.startsWith('apps/')) }).toEqual({ unit, apps: [] });
    }
  });
});
