import { FakeClock } from '#kube-core';
import { createRenderer, type RendererHandle } from '../create.js';
import { renderSources } from '../pipeline.js';

// Templates as a hostile tenant writes them, rendered through the dry-run pipeline: each must
// fail with an error naming the component, the definition and the limit, and leave the
// renderer working (a new worker takes the next evaluation).

const cueDefinition = (name: string, template: string) => `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
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

const app = (type: string, properties = '{}') => `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: shop
spec:
  components:
    - name: api
      type: ${type}
      properties: ${properties}
`;

const QUICK = cueDefinition(
  'quick',
  `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: context.name}`,
);

// CPU-bound with little memory: a comprehension over a long range that keeps nothing.
const SPIN = cueDefinition(
  'spin',
  `import "list"
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: n: "\\(len([for i in list.Range(0, 100000000, 1) if i < 0 {i}]))"
}`,
);

// Allocates without bound: fifty million fields.
const BOMB = cueDefinition(
  'bomb',
  `import "list"
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: {for i in list.Range(0, 50000000, 1) {"k\\(i)": "v"}}
}`,
);

const render = (handle: RendererHandle, text: string) =>
  renderSources([{ path: 'app.yaml', text }], handle.renderer, { builtins: [] });

describe('containment: limits per evaluation, through the renderer', () => {
  let handle: RendererHandle;
  afterEach(() => handle.close());

  it('stops a CPU-bound CUE template by its CPU time, naming the component and the limit', async () => {
    handle = createRenderer({ poolSize: 1, cpuLimitMs: 300, timeoutMs: 600_000 });
    const { errors } = await render(handle, SPIN + app('spin'));
    expect(errors.map((e) => e.message)).toEqual([
      'app.yaml:22: Application "shop", components[0] "api" (spin): ComponentDefinition "spin": cpu time limit 300ms exceeded',
    ]);
    expect(errors[0].source).toBe('timeout');
  });

  it('stops a CUE template at its memory cap, and a new worker takes the next render', async () => {
    handle = createRenderer({
      poolSize: 1,
      memoryLimitBytes: 64 * 2 ** 20,
      cpuLimitMs: 600_000,
      timeoutMs: 600_000,
    });
    expect((await render(handle, QUICK + app('quick'))).errors).toEqual([]);
    const { errors } = await render(handle, BOMB + app('bomb'));
    expect(errors.map((e) => e.message)).toEqual([
      'app.yaml:22: Application "shop", components[0] "api" (bomb): ComponentDefinition "bomb": memory limit 64Mi exceeded',
    ]);
    expect(handle.stats.cue.replaced).toBe(1);
    const after = await render(handle, QUICK + app('quick').replace('name: api', 'name: after'));
    expect(after.errors).toEqual([]);
    expect(after.apps[0].objects[0].object.metadata?.name).toBe('after');
  });
});

describe('containment: the same input is not evaluated again hot', () => {
  let handle: RendererHandle;
  afterEach(() => handle.close());

  it('answers a limit failure from memory, 1 min then doubling, and a changed input afresh', async () => {
    const clock = new FakeClock();
    handle = createRenderer({ poolSize: 1, cpuLimitMs: 300, timeoutMs: 600_000, clock });
    const first = await render(handle, SPIN + app('spin'));
    expect(first.errors).toHaveLength(1);
    const replaced = () => handle.stats.cue.replaced;
    expect(replaced()).toBe(1);

    // Within the minute: the same error, no evaluation (no worker replaced).
    await clock.advance(59_999);
    const again = await render(handle, SPIN + app('spin'));
    expect(again.errors.map((e) => e.message)).toEqual(first.errors.map((e) => e.message));
    expect(replaced()).toBe(1);

    // After it: evaluated again, fails again, now remembered for 2 min.
    await clock.advance(1);
    await render(handle, SPIN + app('spin'));
    expect(replaced()).toBe(2);
    await clock.advance(119_999);
    await render(handle, SPIN + app('spin'));
    expect(replaced()).toBe(2);
    await clock.advance(1);
    await render(handle, SPIN + app('spin'));
    expect(replaced()).toBe(3);

    // Other properties are another input.
    await render(handle, SPIN + app('spin', '{ other: 1 }'));
    expect(replaced()).toBe(4);
  });
});
