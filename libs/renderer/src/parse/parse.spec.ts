import { parseSources } from './index.js';

const app = (body: string) => `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: shop
spec:
${body}`;

function errorsOf(text: string, path = 'app.yaml'): string[] {
  return parseSources([{ path, text }]).errors.map((e) => e.message);
}

describe('parseSources', () => {
  it('reads every document of a multi-document file with its line', () => {
    const text = `${app('  components:\n    - name: a\n      type: webservice\n')}---\n${app('  components:\n    - name: b\n      type: worker\n')}`;
    const { objects, errors } = parseSources([{ path: 'two.yaml', text }]);
    expect(errors).toEqual([]);
    expect(objects.map((o) => [o.kind, o.source.line, o.source.document])).toEqual([
      ['Application', 1, 0],
      ['Application', 10, 1],
    ]);
  });

  it('skips empty documents', () => {
    const { objects, errors } = parseSources([
      { path: 'a.yaml', text: `---\n${app('  components:\n    - name: a\n      type: x\n')}---\n` },
    ]);
    expect(errors).toEqual([]);
    expect(objects).toHaveLength(1);
  });

  it('reports YAML syntax errors with line and column', () => {
    expect(errorsOf('kind: Application\nmetadata:\n  name: [unclosed\n')).toEqual([
      expect.stringMatching(/^app\.yaml:4:1: /),
    ]);
    expect(errorsOf('a: b\n  c: d\n')).toEqual([
      'app.yaml:1:4: Nested mappings are not allowed in compact mappings',
    ]);
  });

  it('refuses duplicate keys, naming the line', () => {
    const [msg] = errorsOf(app('  components: []\n  components: []\n'));
    expect(msg).toMatch(/^app\.yaml:7:3: Map keys must be unique/);
  });

  it('refuses an alias bomb quickly without expanding it', () => {
    let text = 'a: &a [x, x, x, x, x, x, x, x, x, x]\n';
    let prev = 'a';
    for (let i = 0; i < 12; i++) {
      text += `l${i}: &l${i} [${Array(10).fill(`*${prev}`).join(', ')}]\n`;
      prev = `l${i}`;
    }
    // Expanded, this is 10^13 nodes: refused before expansion, or Jest's time limit fails the test.
    const [msg] = errorsOf(text, 'bomb.yaml');
    expect(msg).toMatch(/^bomb\.yaml:1: cannot load document: Excessive alias count/);
  });

  it('refuses a file over the size limit before parsing it', () => {
    const [msg] = parseSources([{ path: 'big.yaml', text: 'x'.repeat(2048) }], {
      maxFileBytes: 1024,
      maxAliasCount: 100,
    }).errors.map((e) => e.message);
    expect(msg).toBe('big.yaml: file is 2 KiB, over the limit of 1 KiB');
  });

  it('refuses a document that is not a map', () => {
    expect(errorsOf('- a\n- b\n')).toEqual(['app.yaml:1: expected a YAML map (a Kubernetes object)']);
  });

  it('refuses objects of an unknown kind, listing the known ones', () => {
    const [msg] = errorsOf('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n');
    expect(msg).toBe(
      'app.yaml:1: Deployment "web": unknown kind "Deployment" (apiVersion apps/v1); expected core.oam.dev/v1beta1 Application, Component, Trait, ComponentDefinition, TraitDefinition',
    );
  });

  it('refuses other versions of the OAM group with a hint', () => {
    const [msg] = errorsOf('apiVersion: core.oam.dev/v1alpha2\nkind: Component\nmetadata:\n  name: c\n');
    expect(msg).toBe(
      'app.yaml:1: Component "c": apiVersion: apiVersion core.oam.dev/v1alpha2 is not supported for Component; use core.oam.dev/v1beta1',
    );
  });

  it('names the file, line, object and field path of a schema error', () => {
    const errors = errorsOf(app('  components:\n    - name: api\n      type: 5\n    - type: worker\n'));
    expect(errors).toEqual([
      'app.yaml:8: Application "shop": spec.components[0].type: expected string, got 5',
      'app.yaml:9: Application "shop": spec.components[1].name: required',
    ]);
  });

  it('requires metadata.name', () => {
    const errors = errorsOf(
      'apiVersion: core.oam.dev/v1beta1\nkind: Component\nmetadata: {}\nspec:\n  type: webservice\n',
    );
    expect(errors).toEqual(['app.yaml:1: Component: metadata.name: required']);
  });

  it('rejects names that are not DNS-1123', () => {
    const [msg] = errorsOf(
      'apiVersion: core.oam.dev/v1beta1\nkind: Component\nmetadata:\n  name: My_App\nspec:\n  type: webservice\n',
    );
    expect(msg).toMatch(
      /^app\.yaml:4: Component "My_App": metadata\.name: must be a lowercase RFC 1123 subdomain/,
    );
  });

  it('reports every error, not only the first', () => {
    const files = [
      { path: 'a.yaml', text: 'kind: [' },
      { path: 'b.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' },
    ];
    expect(parseSources(files).errors.map((e) => e.location.file)).toEqual(['a.yaml', 'b.yaml']);
  });
});
