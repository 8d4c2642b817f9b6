import Handlebars from 'handlebars';
import { Ajv } from 'ajv';
import { definitionNamed, loadDefinitionFiles } from './support/load.js';

/**
 * The Handlebars traits parse and their parameter schemas validate and default
 * as the engine will apply them. Rendering them needs the engine's helpers
 * (json, concat, eq, and): that end-to-end check belongs with the engine.
 */
const files = loadDefinitionFiles();
const schematic = (name: string) =>
  (
    definitionNamed(files, 'traits', name).object as {
      spec: { schematic: { handlebars: { template: string; parameters: Record<string, unknown> } } };
    }
  ).spec.schematic.handlebars;

describe.each(['labels', 'expose'])('%s (Handlebars)', (name) => {
  it('parses as a Handlebars template', () => {
    expect(() => Handlebars.parse(schematic(name).template)).not.toThrow();
  });
});

describe('Handlebars parameter schemas', () => {
  const ajv = new Ajv({ useDefaults: true, allErrors: true });

  it('labels accepts label maps and null removals, and rejects bad keys and values', () => {
    const validate = ajv.compile(schematic('labels').parameters);
    expect(validate({ tier: 'background', 'app.example.com/owner': 'team-a', old: null })).toBe(true);
    expect(validate({ 'not a key': 'x' })).toBe(false);
    expect(validate({ tier: 3 })).toBe(false);
  });

  it('expose fills in defaults and needs ports', () => {
    const validate = ajv.compile(schematic('expose').parameters);
    const parameter: Record<string, unknown> = { ports: [{ port: 8080 }, { port: 53, protocol: 'UDP' }] };
    expect(validate(parameter)).toBe(true);
    expect(parameter).toEqual({
      type: 'ClusterIP',
      ports: [
        { port: 8080, protocol: 'TCP' },
        { port: 53, protocol: 'UDP' },
      ],
    });
    expect(validate({ port: [80, 443] })).toBe(true);
    expect(validate({ type: 'NodePort' })).toBe(false);
    expect(validate({ ports: [{ port: 70000 }] })).toBe(false);
  });
});
