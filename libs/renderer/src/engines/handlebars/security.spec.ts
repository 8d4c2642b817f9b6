import fc from 'fast-check';
import Handlebars from 'handlebars';
import { RenderError } from '../../errors.js';
import { createHandlebarsEngine } from './index.js';
import { request } from './testing.js';
import { projectRoot } from '#definitions';
import { ensureBuilt } from '../../../../../test/support/build.js';

// Templates render in worker threads that run the compiled engine (see handlebars.worker.mjs).
beforeAll(() => ensureBuilt(projectRoot()), 240_000);

// One worker: the probe below looks at the worker that ran the templates.
const engine = createHandlebarsEngine({ timeoutMs: 2000, poolSize: 1 });
const DEF = 'ComponentDefinition "attack"';
const pwned = () => (globalThis as Record<string, unknown>).__hbsPwned;

async function outcome(template: string, parameter: Record<string, unknown> = {}) {
  try {
    return { result: await engine.compile(DEF, { template }).evaluate(request(parameter)) };
  } catch (err) {
    if (!(err instanceof RenderError)) throw err;
    return { error: err };
  }
}

/** A Deployment whose name is the inserted value: the value must stay a name, whatever it holds. */
const deployment = (insertion: string) =>
  `output:\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: ${insertion}\n  spec:\n    replicas: 1\n`;

describe('Handlebars engine: YAML injection', () => {
  const attacks = [
    'a\nkind: Secret',
    'a\n  namespace: kube-system',
    'x", "kind": "Secret',
    "x' \n---\nkind: Secret",
    '---\napiVersion: v1\nkind: Secret',
    '{kind: Secret}',
    '[a, b]',
    '&anchor a',
    '*alias',
    '!!binary aGVsbG8=',
    '# a comment',
    'a # not a comment',
    'key: value',
    '| \n  block',
    'a\u2028kind: Secret',
    'a\u0085kind: Secret',
    'true',
    '0x1F',
    'null',
  ];

  it.each(attacks)(
    'keeps %j one string value in {{value}}, {{json}}, {{yaml}} and concat',
    async (attack) => {
      for (const insertion of [
        '{{parameter.v}}',
        '{{json parameter.v}}',
        '{{concat "pre-" parameter.v}}',
        '\n{{yaml parameter.v indent=6}}',
      ]) {
        const { result, error } = await outcome(deployment(insertion), { v: attack });
        expect(error).toBeUndefined();
        expect(result!.output!.kind).toBe('Deployment');
        expect((result!.output!.metadata as { name: string }).name).toBe(
          insertion.startsWith('{{concat') ? `pre-${attack}` : attack,
        );
        expect(Object.keys(result!.output!)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
      }
    },
  );

  it('keeps map keys (@key) and nested values in their place', async () => {
    const labels = { 'a\nkind: Secret': 'v', 'b: c': 'x\n  d: e', '"q"': '#' };
    const template =
      'output:\n  apiVersion: v1\n  kind: ConfigMap\n  data:\n{{#each parameter.labels}}\n    {{@key}}: {{this}}\n{{/each}}\n  extra: {{json parameter.labels}}\n';
    const { result } = await outcome(template, { labels });
    expect(result!.output).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', data: labels, extra: labels });
  });

  it('round-trips any string through every insertion form', async () => {
    const template = [
      'output:',
      '  apiVersion: v1',
      '  kind: ConfigMap',
      '  data:',
      '    plain: {{parameter.v}}',
      '    json: {{json parameter.v}}',
      '    {{parameter.v}}: key',
      '    block:',
      '{{yaml parameter.v indent=6}}',
    ].join('\n');
    const compiled = engine.compile(DEF, { template });
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), async (v) => {
        // The template's own keys collide; "__proto__" as a key is refused on purpose (tested below).
        fc.pre(!['plain', 'json', 'block', '__proto__'].includes(v));
        const result = await compiled.evaluate(request({ v }));
        expect(result.output).toEqual({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          data: { plain: v, json: v, [v]: 'key', block: v },
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('Handlebars engine: prototype access', () => {
  afterEach(async () => {
    expect(pwned()).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Templates run in a worker thread: that is where an escape would show.
    expect(await engine.probe()).toEqual({ pwned: false, polluted: false });
  });

  // The payload of handlebars-lang/handlebars.js#1495 (RCE through the Function constructor).
  const constructorRce = `{{#with "s" as |string|}}
  {{#with "e"}}
    {{#with split as |conslist|}}
      {{this.pop}}
      {{this.push (lookup string.sub "constructor")}}
      {{this.pop}}
      {{#with string.split as |codelist|}}
        {{this.pop}}
        {{this.push "globalThis.__hbsPwned = true"}}
        {{this.pop}}
        {{#each conslist}}
          {{#with (string.sub.apply 0 codelist)}}
            {{this}}
          {{/with}}
        {{/each}}
      {{/with}}
    {{/with}}
  {{/with}}
{{/with}}`;

  // The __defineGetter__/__lookupGetter__ variant discussed in handlebars-lang/handlebars.js#1595.
  const getterRce = `{{#with (lookup . "__lookupGetter__") as |l|}}
  {{#with "propertyIsEnumerable"}}
    {{#with split}}
      {{#with (concat @root.valueOf (lookup ../.. "__defineGetter__")) as |c|}}
        {{#each (lookup c "slice")}}{{apply l c}}{{/each}}
      {{/with}}
    {{/with}}
  {{/with}}
{{/with}}`;

  it.each([
    ['#1495 constructor RCE', constructorRce],
    ['#1595 getter RCE', getterRce],
    ['calling constructor.constructor', '{{constructor.constructor "globalThis.__hbsPwned = true"}}'],
    ['__defineGetter__ as a helper', '{{__defineGetter__ "polluted" parameter}}'],
  ])('refuses %s when compiling (only known helpers may be called)', async (_name, template) => {
    const { error } = await outcome(template);
    expect(error?.source).toBe('definition');
    expect(error?.detail).toMatch(/unknown helper/);
  });

  it.each([
    ['{{constructor}}', null],
    ['{{lookup (lookup this "hasOwnProperty") "name"}}', null],
    ['{{lookup (lookup this "__lookupGetter__") "name"}}', null],
    ['{{__proto__}}', null],
    ['{{lookup this "constructor"}}', null],
    ['{{lookup (lookup this "constructor") "name"}}', null],
    ['{{lookup (lookup parameter "__proto__") "toString"}}', null],
    ['{{#with this.constructor}}{{name}}{{else}}none{{/with}}', 'none'],
    ['{{#with (lookup this "__lookupGetter__")}}found{{else}}none{{/with}}', 'none'],
    ['{{#with (lookup this "__defineGetter__")}}found{{else}}none{{/with}}', 'none'],
    ['{{#each (lookup this "__proto__")}}{{@key}}{{else}}none{{/each}}', 'none'],
    ['{{#with parameter.list.constructor}}{{name}}{{else}}none{{/with}}', 'none'],
    ['{{#with parameter.text.constructor}}{{name}}{{else}}none{{/with}}', 'none'],
  ])('renders nothing from %s', async (expression, expected) => {
    const template = `output:\n  apiVersion: v1\n  kind: ConfigMap\n  data:\n    x: ${expression}\n`;
    const { result, error } = await outcome(template, { list: [1], text: 'abc' });
    expect(error).toBeUndefined();
    expect((result!.output!.data as { x: unknown }).x).toBe(expected);
  });

  it('stops at a missing segment past a denied one, as strict mode does for any missing value', async () => {
    const { error } = await outcome('output:\n  x: {{constructor.name}}\n');
    expect(error?.detail).toContain('"name" is not defined in {{constructor.name}}');
  });

  it('reaches prototype methods when prototype access is allowed (what the settings above prevent)', () => {
    const probe = Handlebars.create().compile('{{lookup (lookup this "hasOwnProperty") "name"}}');
    expect(probe({}, { allowProtoMethodsByDefault: true })).toBe('hasOwnProperty');
    expect(probe({}, { allowProtoMethodsByDefault: false })).toBe('');
    const constructorName = Handlebars.create().compile('{{this.constructor.name}}');
    expect(constructorName({}, { allowedProtoMethods: { constructor: true } })).toBe('Object');
  });

  it('refuses a __proto__ key in the rendered document', async () => {
    const parameter = JSON.parse('{"extra": {"__proto__": {"polluted": true}}}') as Record<string, unknown>;
    const { error } = await outcome(
      'output:\n  apiVersion: v1\n  kind: ConfigMap\n  data: {{json parameter.extra}}\n',
      parameter,
    );
    expect(error?.detail).toContain('the key "__proto__" is not allowed (at output.data.__proto__)');
    const literal = await outcome(
      'output:\n  apiVersion: v1\n  kind: ConfigMap\n  __proto__:\n    polluted: true\n',
    );
    expect(literal.error?.detail).toContain('"__proto__" is not allowed');
  });
});
