import { createRenderer, type RendererHandle } from '../create.js';
import { renderSources } from '../pipeline.js';
import { DEFAULT_CLUSTER } from './context.js';

/** The Renderer through the dry-run pipeline: files in, objects or located errors out. */
let handle: RendererHandle;
beforeAll(() => {
  handle = createRenderer({ poolSize: 1, timeoutMs: 3000 });
});
afterAll(() => handle.close());

const definition = (kind: string, name: string, template: string) =>
  `apiVersion: core.oam.dev/v1beta1
kind: ${kind}
metadata:
  name: ${name}
spec:
  schematic:
    cue:
      template: |
${template
  .split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}
---
`;

const CONFIGMAP = definition(
  'ComponentDefinition',
  'cm',
  `parameter: {
	name: string
	size: *1 | int
}
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: {name: parameter.name, size: "\\(parameter.size)"}
}`,
);

const render = (text: string, strict = false) =>
  renderSources([{ path: 'app.yaml', text }], handle.renderer, { builtins: [], strict });

describe('Renderer', () => {
  it("gives templates KubeVela's numeric clusterVersion (its gateway and hpa compare minor < 19)", async () => {
    const ingress = definition(
      'ComponentDefinition',
      'ing',
      `output: {
	if context.clusterVersion.minor < 19 {
		apiVersion: "networking.k8s.io/v1beta1"
	}
	if context.clusterVersion.minor >= 19 {
		apiVersion: "networking.k8s.io/v1"
	}
	kind: "Ingress"
	metadata: annotations: version: "\\(context.clusterVersion.major).\\(context.clusterVersion.minor) \\(context.clusterVersion.gitVersion)"
}`,
    );
    const result = await render(
      `${ingress}apiVersion: core.oam.dev/v1beta1\nkind: Component\nmetadata: {name: web}\nspec: {type: ing}\n`,
    );
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.apps[0].objects[0].object).toMatchObject({
      apiVersion: 'networking.k8s.io/v1',
      metadata: { annotations: { version: '1.37 v1.37.2' } },
    });
    expect(DEFAULT_CLUSTER.version).toEqual({
      major: 1,
      minor: 37,
      gitVersion: 'v1.37.2',
      platform: 'linux/amd64',
    });
    expect(result.apps[0].components[0].context).toMatchObject({ name: 'web', appName: 'web' });
  });

  it('reports warnings together with errors', async () => {
    const app = `${CONFIGMAP}apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop}
spec:
  components:
    - name: a
      type: cm
      properties: {name: a, sise: 2}
    - name: b
      type: cm
      properties: {name: 5}
`;
    const result = await render(app);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'app.yaml:26: Application "shop", components[0] "a" (cm): properties.sise: unknown field (did you mean "size"?)',
    ]);
    expect(result.errors.map((e) => e.message)).toEqual([
      'app.yaml:29: Application "shop", components[1] "b" (cm): properties.name: expected string, got 5',
    ]);
  });

  it('points a missing required property at `properties:`', async () => {
    const app = `${CONFIGMAP}apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop}
spec:
  components:
    - name: a
      type: cm
      properties:
        size: 2
`;
    const result = await render(app);
    expect(result.errors.map((e) => e.message)).toEqual([
      'app.yaml:26: Application "shop", components[0] "a" (cm): properties.name: required (expected string)',
    ]);
  });

  it('locates definition errors: file, line, object, component, and the template line', async () => {
    const broken = definition(
      'ComponentDefinition',
      'broken',
      `output: {
	apiVersion: "v1"
	data: x: parameter.x +
}
parameter: x: string`,
    );
    const result = await render(
      `${broken}apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n    - name: c\n      type: broken\n      properties: {x: a}\n`,
    );
    expect(result.errors.map((e) => e.message)).toEqual([
      `app.yaml:20: Application "shop", components[0] "c" (broken): definition error: ComponentDefinition "broken", template line 4: expected operand, found '}' (and 1 more error)`,
    ]);
  });

  it('locates a timeout while exporting the parameter schema', async () => {
    const loop = definition(
      'ComponentDefinition',
      'loopy',
      `import "list"
#big: [ for i in list.Range(0, 50000000, 1) { "x\\(i)" } ]
parameter: n: len(#big)
output: {apiVersion: "v1", kind: "ConfigMap"}`,
    );
    const result = await render(
      `${loop}apiVersion: core.oam.dev/v1beta1\nkind: Component\nmetadata: {name: l}\nspec: {type: loopy}\n`,
    );
    expect(result.errors.map((e) => e.message)).toEqual([
      'app.yaml:14: Component "l" (loopy): ComponentDefinition "loopy": evaluation did not finish within 3000 ms (the template may never terminate)',
    ]);
  }, 20_000);

  it('locates a trait patch that cannot be applied at the trait', async () => {
    const bump = definition('TraitDefinition', 'bump', `patch: data: name: "other"`);
    const result = await render(
      `${CONFIGMAP}${bump}apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n    - name: c\n      type: cm\n      properties: {name: a}\n      traits:\n        - type: bump\n`,
    );
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0].message).toMatch(
      /^app\.yaml:38: Application "shop", components\[0\] "c" \(cm\), traits\[0\] \(bump\): .*conflicting values/,
    );
  });

  it('evaluates a template once for every application with what it reads of context the same', async () => {
    const size = definition(
      'TraitDefinition',
      'size',
      `parameter: n: int\npatch: data: count: "\\(parameter.n)"`,
    );
    const named = definition('TraitDefinition', 'named', `patch: data: app: context.appName`);
    const app = (name: string) =>
      `apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: ${name}}\nspec:\n  components:\n    - name: c\n      type: cm\n      properties: {name: once}\n      traits:\n        - {type: size, properties: {n: 2}}\n        - {type: named}\n---\n`;
    const { cache } = handle.renderer;
    const before = cache.misses;
    const result = await render(`${CONFIGMAP}${size}${named}${app('shop')}${app('blog')}`);
    expect(result.errors).toEqual([]);
    expect(result.apps.map((a) => a.objects[0].object.data)).toEqual([
      { name: 'once', size: '1', count: '2', app: 'shop' },
      { name: 'once', size: '1', count: '2', app: 'blog' },
    ]);
    // cm and size read no context: one evaluation each for both apps; named reads appName: two.
    expect(cache.misses - before).toBe(4);
  });
});
