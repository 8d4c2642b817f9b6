import { RenderError } from '../../errors.js';
import { PATCH_STRATEGY } from '../../patch/index.js';
import { createHandlebarsEngine } from './index.js';
import { request } from './testing.js';
import { projectRoot } from '#definitions';
import { ensureBuilt } from '../../../../../test/support/build.js';

// Templates render in worker threads that run the compiled engine (see handlebars.worker.mjs).
beforeAll(() => ensureBuilt(projectRoot()), 240_000);

const engine = createHandlebarsEngine({ timeoutMs: 2000 });
const DEF = 'TraitDefinition "t"';
const evaluate = (template: string, parameter: Record<string, unknown> = {}) =>
  engine.compile(DEF, { template }).evaluate(request(parameter));

async function detail(template: string, parameter: Record<string, unknown> = {}): Promise<string> {
  const err = await evaluate(template, parameter).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RenderError)) throw new Error(`expected a RenderError, got ${String(err)}`);
  expect(err.source).toBe('definition');
  return err.detail;
}

describe('Handlebars engine: the rendered document', () => {
  it('quotes the rendered line of invalid YAML', async () => {
    const template =
      'output:\n  apiVersion: v1\n  kind: ConfigMap\n  data:\n    name: "prefix-{{parameter.name}}"\n';
    expect(await detail(template, { name: 'x' })).toMatch(
      /^TraitDefinition "t": rendered YAML line 5: .+: "name: \\"prefix-\\"x\\"\\""$/,
    );
  });

  it('refuses a document that is not a map, or is empty', async () => {
    expect(await detail('- a\n- b\n')).toBe(
      'TraitDefinition "t": rendered YAML line 1: expected a map with output, outputs, patch, got a list: "- a"',
    );
    expect(await detail('{{#if parameter.x}}output: {}{{/if}}')).toBe(
      'TraitDefinition "t": the template rendered nothing; expected a map with output, outputs, patch',
    );
  });

  it('refuses other top-level keys, suggesting the nearest', async () => {
    expect(await detail('outptu:\n  kind: x\n')).toBe(
      'TraitDefinition "t": rendered YAML line 1: unknown top-level key "outptu" (did you mean "output"?): "outptu:"',
    );
    expect(await detail('patch: {}\nstatus: {}\n')).toBe(
      'TraitDefinition "t": rendered YAML line 2: unknown top-level key "status"; expected output, outputs, patch: "status: {}"',
    );
  });

  it('refuses duplicate keys and several documents', async () => {
    expect(await detail('patch: {}\npatch: {}\n')).toMatch(/rendered YAML line 2: Map keys must be unique/);
    expect(await detail('patch: {}\n---\npatch: {}\n')).toMatch(
      /rendered YAML line 2: Source contains multiple documents/,
    );
  });

  it('checks the shape of output, outputs and patch', async () => {
    expect(await detail('output: [1]\n')).toBe(
      'TraitDefinition "t": output must be a map (a Kubernetes object), got a list',
    );
    expect(await detail('output:\n  kind: Service\n')).toBe(
      'TraitDefinition "t": output must have apiVersion and kind (strings)',
    );
    expect(await detail('outputs: [1]\n')).toBe(
      'TraitDefinition "t": outputs must be a map of name to object, got a list',
    );
    expect(await detail('outputs:\n  svc: 5\n')).toBe(
      'TraitDefinition "t": outputs.svc must be a map (a Kubernetes object), got number 5',
    );
    expect(await detail('patch: text\n')).toBe(
      'TraitDefinition "t": patch must be a map (a partial object), got string "text"',
    );
  });

  it('treats keys left empty by conditionals as absent', async () => {
    const template =
      'outputs:\n{{#if parameter.svc}}\n  svc: {apiVersion: v1, kind: Service}\n{{/if}}\npatch:\n';
    expect(await evaluate(template)).toEqual({ outputs: {}, patchKeys: {} });
  });

  it('keeps the outputs in the template order', async () => {
    const template = 'outputs:\n  b: {apiVersion: v1, kind: B}\n  a: {apiVersion: v1, kind: A}\n';
    expect(Object.keys((await evaluate(template)).outputs)).toEqual(['b', 'a']);
  });

  it('limits alias expansion', async () => {
    const bomb = [
      'patch:',
      '  a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      '  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      '  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      '  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      '  e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    await expect(evaluate(bomb)).rejects.toThrow(/[Ee]xcessive alias count/);
  });
});

describe('Handlebars engine: patchKeys', () => {
  it('reads # +patchKey= comments before list keys inside patch, with [] for list items', async () => {
    const template = [
      'patch:',
      '  spec:',
      '    template:',
      '      spec:',
      '        # +patchKey=name',
      '        containers:',
      '          - name: {{context.name}}',
      '            # +patchKey=name',
      '            env:',
      '              - name: A',
      '                value: "1"',
      '            # a plain comment first',
      '            # +patchKey=containerPort',
      '            ports: []',
      '        # +patchStrategy=retainKeys',
      '        strategy: {}',
      '        # +patchKey=name',
      '        # +patchStrategy=replace',
      '        volumes: []',
    ].join('\n');
    const result = await evaluate(template);
    expect(result.patchKeys).toEqual({
      'spec.template.spec.containers': 'name',
      'spec.template.spec.containers[].env': 'name',
      'spec.template.spec.containers[].ports': 'containerPort',
      'spec.template.spec.strategy': PATCH_STRATEGY.retainKeys,
      // Both markers of one field are kept, as addPatchMarker records them.
      'spec.template.spec.volumes': `name ${PATCH_STRATEGY.replace}`,
    });
    expect(result.patch).toMatchObject({ spec: { template: { spec: { containers: [{ name: 'api' }] } } } });
  });

  it('reads a marker before the first key of patch itself', async () => {
    expect((await evaluate('patch:\n  # +patchKey=name\n  containers: []\n')).patchKeys).toEqual({
      containers: 'name',
    });
  });

  it('reads markers on the lines before the top-level patch key into path ""', async () => {
    const template = [
      'output: {apiVersion: v1, kind: ConfigMap}',
      '# a plain comment',
      '# +patchStrategy=jsonMergePatch',
      'patch:',
      '  # +patchKey=name',
      '  containers: []',
    ].join('\n');
    expect((await evaluate(template)).patchKeys).toEqual({
      '': PATCH_STRATEGY.jsonMergePatch,
      containers: 'name',
    });
  });

  it('does not take a marker above another top-level key for patch', async () => {
    const template = [
      '# +patchStrategy=jsonMergePatch',
      'output: {apiVersion: v1, kind: ConfigMap}',
      'patch:',
      '  a: 1',
    ].join('\n');
    expect((await evaluate(template)).patchKeys).toEqual({});
  });

  it('ignores markers outside patch and before list items', async () => {
    const template = [
      'output:',
      '  apiVersion: v1',
      '  kind: Pod',
      '  # +patchKey=name',
      '  containers: []',
      'patch:',
      '  items:',
      '    # +patchKey=name',
      '    - name: a',
    ].join('\n');
    expect((await evaluate(template)).patchKeys).toEqual({});
  });
});
