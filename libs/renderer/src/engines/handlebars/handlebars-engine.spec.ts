import { RenderError } from '../../errors.js';
import { createHandlebarsEngine } from './index.js';
import { request } from './testing.js';
import { projectRoot } from '#definitions';
import { ensureBuilt } from '../../../../../test/support/build.js';

// Templates render in worker threads that run the compiled engine (see handlebars.worker.mjs).
beforeAll(() => ensureBuilt(projectRoot()), 240_000);

const engine = createHandlebarsEngine({ timeoutMs: 2000 });
const DEF = 'ComponentDefinition "demo"';

async function render(template: string, parameter: Record<string, unknown> = {}, context = {}) {
  return engine.compile(DEF, { template }).evaluate(request(parameter, context));
}

async function failure(
  template: string,
  parameter: Record<string, unknown> = {},
  context = {},
): Promise<RenderError> {
  const err = await render(template, parameter, context).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RenderError)) throw new Error(`expected a RenderError, got ${String(err)}`);
  return err;
}

/** A ConfigMap output whose data is what the test renders, to look at values one by one. */
const configMap = (data: string) =>
  `output:\n  apiVersion: v1\n  kind: ConfigMap\n  data:\n${data.replace(/^/gm, '    ')}\n`;
const dataOf = async (data: string, parameter: Record<string, unknown> = {}) =>
  (await render(configMap(data), parameter)).output!.data as Record<string, unknown>;

describe('Handlebars engine: rendering', () => {
  it('renders output and outputs from parameter and context', async () => {
    const result = await render(
      [
        'output:',
        '  apiVersion: apps/v1',
        '  kind: Deployment',
        '  metadata:',
        '    name: {{context.name}}',
        '  spec:',
        '    replicas: {{parameter.replicas}}',
        'outputs:',
        '  config:',
        '    apiVersion: v1',
        '    kind: ConfigMap',
        '    metadata:',
        '      name: {{concat context.appName "-" context.name}}',
      ].join('\n'),
      { replicas: 3 },
    );
    expect(result.output).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api' },
      spec: { replicas: 3 },
    });
    expect(result.outputs).toEqual({
      config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shop-api' } },
    });
    expect(result.patch).toBeUndefined();
    expect(result.patchKeys).toEqual({});
  });

  it('never HTML-escapes', async () => {
    expect(await dataOf('html: {{parameter.html}}', { html: `<a href="x">Tom & Jerry's</a>` })).toEqual({
      html: `<a href="x">Tom & Jerry's</a>`,
    });
  });

  it('inserts each type YAML-safely: strings quoted, numbers and booleans as-is, null, flow JSON', async () => {
    const parameter = {
      s: 'hello',
      yes: 'yes',
      num: '8080',
      n: 42,
      f: 1.5,
      b: false,
      z: null,
      list: [1, 'two', { three: 3 }],
      map: { a: 'b: c', '#': '#' },
    };
    const data = await dataOf(
      Object.keys(parameter)
        .map((k) => `${k}: {{parameter.${k}}}`)
        .join('\n'),
      parameter,
    );
    expect(data).toEqual(parameter);
  });

  it('keeps block and data variables working: @key, @index, this', async () => {
    const data = await dataOf(
      '{{#each parameter.labels}}\n{{@key}}: {{this}}\n{{/each}}\n{{#each parameter.items}}\ni{{@index}}: {{this}}\n{{/each}}',
      { labels: { 'app.kubernetes.io/name': 'x', tier: 'web' }, items: ['a', 'b'] },
    );
    expect(data).toEqual({ 'app.kubernetes.io/name': 'x', tier: 'web', i0: 'a', i1: 'b' });
  });

  it('gives parameterSchema() the schematic parameters, or an empty object schema', async () => {
    const parameters = { type: 'object', properties: { a: { type: 'string' } } };
    expect(await engine.compile(DEF, { template: 'output: null', parameters }).parameterSchema()).toBe(
      parameters,
    );
    expect(await engine.compile(DEF, { template: 'output: null' }).parameterSchema()).toEqual({
      type: 'object',
      properties: {},
    });
  });

  it('caches compiled templates by definition and content', () => {
    const a = engine.compile(DEF, { template: 'outputs: {}' });
    expect(engine.compile(DEF, { template: 'outputs: {}' })).toBe(a);
    expect(engine.compile(DEF, { template: 'outputs: {}\n' })).not.toBe(a);
    expect(engine.compile('TraitDefinition "other"', { template: 'outputs: {}' })).not.toBe(a);
  });

  it('sees the workload as context.output in a trait', async () => {
    const result = await engine
      .compile('TraitDefinition "t"', {
        template:
          'patch:\n  metadata:\n    labels:\n      replicas: {{concat context.output.spec.replicas}}\n',
      })
      .evaluate(
        request(
          {},
          { output: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {}, spec: { replicas: 2 } } },
        ),
      );
    expect(result.patch).toEqual({ metadata: { labels: { replicas: '2' } } });
  });
});

describe('Handlebars engine: helpers', () => {
  it('json inserts a JSON literal, yaml a block indented by N spaces', async () => {
    const resources = { limits: { cpu: '500m', memory: '1Gi' }, note: 'line1\nline2', flag: 'true' };
    // {{yaml}} starts its line: the indent applies to every line it writes, the template's only to the first.
    const template = [
      'output:',
      '  apiVersion: v1',
      '  kind: ConfigMap',
      '  data:',
      '    a: {{json parameter.resources}}',
      '    b:',
      '{{yaml parameter.resources indent=6}}',
      '    c: {{json parameter.missing}}',
      '    d: {{yaml parameter.resources.flag}}',
    ].join('\n');
    const data = (await render(template, { resources })).output!.data;
    expect(data).toEqual({ a: resources, b: resources, c: null, d: 'true' });
  });

  it('concat joins into one quoted string; default fills in missing and empty values', async () => {
    const data = await dataOf(
      [
        'joined: {{concat "port-" parameter.port "-" parameter.proto}}',
        'fallback: {{default parameter.missing "ClusterIP"}}',
        'empty: {{default parameter.empty 5}}',
        'kept: {{default parameter.port 1}}',
      ].join('\n'),
      { port: 80, proto: 'udp', empty: '' },
    );
    expect(data).toEqual({ joined: 'port-80-udp', fallback: 'ClusterIP', empty: 5, kept: 80 });
  });

  it('eq, ne, and, or, not, gt, lt work as subexpressions', async () => {
    const data = await dataOf(
      [
        'eq: {{eq parameter.type "NodePort"}}',
        'ne: {{ne parameter.type "NodePort"}}',
        'and: {{and parameter.on parameter.list}}',
        'or: {{or parameter.off parameter.empty parameter.on}}',
        'not: {{not parameter.empty}}',
        'gt: {{gt parameter.n 2}}',
        'lt: {{lt "a" "b"}}',
        '{{#if (and (eq parameter.type "NodePort") (gt parameter.n 1))}}',
        'chosen: yes',
        '{{/if}}',
      ].join('\n'),
      { type: 'NodePort', on: true, off: false, list: [1], empty: [], n: 3 },
    );
    expect(data).toEqual({
      eq: true,
      ne: false,
      and: true,
      or: true,
      not: true,
      gt: true,
      lt: true,
      chosen: 'yes',
    });
  });

  it('refuses helpers called with the wrong number or kind of values, naming the line', async () => {
    expect((await failure(configMap('x: {{json}}'))).message).toBe(
      'definition error: ComponentDefinition "demo": template line 5: {{json}} takes 1 value(s), got 0: "x: {{json}}"',
    );
    expect((await failure(configMap('x: {{gt parameter.a 1}}'), { a: 'b' })).detail).toContain(
      '(gt) compares two numbers or two strings, got string "b" and number 1',
    );
    expect((await failure(configMap('x: {{yaml parameter indent=1000}}'))).detail).toContain(
      'indent must be a whole number from 0 to 100',
    );
  });

  it('refuses unknown helpers when compiling, listing the available ones', async () => {
    const err = await failure('output: {{uppercase parameter.a}}', { a: 'x' });
    expect(err.source).toBe('definition');
    expect(err.detail).toMatch(
      /^ComponentDefinition "demo": template line 1: unknown helper "uppercase" \(available: json, yaml, concat/,
    );
    expect((await failure('{{log "hi"}}')).detail).toContain('unknown helper "log"');
  });
});

describe('Handlebars engine: strict mode', () => {
  it('names a printed variable that does not exist, with its line', async () => {
    const err = await failure(configMap('a: {{parameter.image}}\nb: {{parameter.imagePullPolicy}}'), {
      image: 'x',
    });
    expect(err.source).toBe('definition');
    expect(err.detail).toBe(
      'ComponentDefinition "demo": template line 6: "imagePullPolicy" is not defined in {{parameter.imagePullPolicy}} (strict mode: test optional values with {{#if ...}} or use {{default ...}}): "b: {{parameter.imagePullPolicy}}"',
    );
  });

  it('names the first missing segment of a longer path', async () => {
    const err = await failure(configMap('a: {{parameter.resources.limits.cpu}}'), {});
    expect(err.detail).toContain('"resources" is not defined in {{parameter.resources.limits.cpu}}');
  });

  it('lets #if, #with and helpers test optional values at any depth', async () => {
    const template = configMap(
      [
        '{{#if parameter.port}}',
        'port: {{parameter.port}}',
        '{{/if}}',
        '{{#if parameter.resources.limits.cpu}}',
        'cpu: {{parameter.resources.limits.cpu}}',
        '{{/if}}',
        '{{#with parameter.probe}}',
        'probe: {{path}}',
        '{{else}}',
        'probe: none',
        '{{/with}}',
        'policy: {{default parameter.policy "Always"}}',
      ].join('\n'),
    );
    expect((await render(template, {})).output!.data).toEqual({ probe: 'none', policy: 'Always' });
    expect(
      (await render(template, { port: 80, resources: { limits: { cpu: '1' } }, probe: { path: '/' } }))
        .output!.data,
    ).toEqual({
      port: 80,
      cpu: '1',
      probe: '/',
      policy: 'Always',
    });
  });

  it('reports reading a field of a string as a definition error', async () => {
    const err = await failure(configMap('a: {{parameter.image.tag}}'), { image: 'nginx' });
    expect(err.source).toBe('definition');
    expect(err.detail).toContain('ComponentDefinition "demo": template: ');
    expect(err.detail).toContain("'tag'");
  });

  it('provides only the documented context keys', async () => {
    const err = await failure(configMap('a: {{context.appname}}'));
    expect(err.detail).toContain('"appname" is not defined in {{context.appname}}');
  });

  it('refuses triple-stash, partials and decorators when compiling', async () => {
    expect((await failure('output: {{{parameter.raw}}}')).detail).toContain(
      'template line 1: {{{value}}} and {{& value}} insert text unquoted',
    );
    expect((await failure('a: 1\noutput: {{& parameter.raw}}')).detail).toContain('template line 2:');
    expect((await failure('{{> header}}')).detail).toContain('partials ({{> name}}) are not available');
    expect((await failure('{{#> layout}}x{{/layout}}')).detail).toContain('partials ({{#> name}})');
  });

  it('reports template syntax errors with their line', async () => {
    const err = await failure('output:\n  a: {{parameter.x}\n  b: 1\n');
    expect(err.source).toBe('definition');
    expect(err.detail).toMatch(
      /^ComponentDefinition "demo": template line 2: Parse error: Expecting .*: "a: \{\{parameter.x\}"$/,
    );
    const unclosed = await failure('output:\n{{#if parameter.x}}\n  a: 1\n');
    expect(unclosed.detail).toMatch(/template line \d: Parse error: Expecting .*'OPEN_ENDBLOCK', got 'EOF'/);
  });
});
