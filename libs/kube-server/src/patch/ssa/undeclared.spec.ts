import { schemaFor } from '../schema/lookup.js';
import { typedPath, undeclaredFieldErrors, validationErrorsText } from './undeclared.js';
import { pathString } from '../fieldpath/element.js';

const deployments = schemaFor({ group: 'apps', version: 'v1', kind: 'Deployment' });
const widgets = schemaFor({ group: 'example.com', version: 'v1', kind: 'Widget' });

const deployment = {
  spec: {
    template: {
      spec: {
        containers: [{ name: 'app', ports: [{ containerPort: 80, foo: 1 }], foo: 1 }],
        tolerations: [{ key: 'k', foo: 1 }],
        foo: 1,
      },
    },
  },
};

describe('typedPath', () => {
  it('names items of associative lists by their keys (defaults included), others by index', () => {
    const path = (p: string) => pathString(typedPath(deployment, p, deployments) ?? []);
    expect(path('spec.template.spec.foo')).toBe('.spec.template.spec.foo');
    expect(path('spec.template.spec.containers[0].foo')).toBe(
      '.spec.template.spec.containers[name="app"].foo',
    );
    expect(path('spec.template.spec.containers[0].ports[0].foo')).toBe(
      '.spec.template.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"].foo',
    );
    expect(path('spec.template.spec.tolerations[0].foo')).toBe('.spec.template.spec.tolerations[0].foo');
  });

  it('finds map keys holding dots and bracketed map entries', () => {
    const obj = { spec: { 'a.b': { 'c.d': { foo: 1 } }, m: { 'x.y': { foo: 1 } } } };
    expect(pathString(typedPath(obj, 'spec.a.b.c.d.foo', widgets) ?? [])).toBe('.spec.a.b.c.d.foo');
    expect(pathString(typedPath(obj, 'spec.m[x.y].foo', widgets) ?? [])).toBe('.spec.m.x.y.foo');
  });

  it('is undefined for a path the object does not have', () => {
    expect(typedPath(deployment, 'spec.nothing.foo', deployments)).toBeUndefined();
    expect(typedPath(deployment, 'spec.template.spec.containers[3].foo', deployments)).toBeUndefined();
  });
});

describe('undeclaredFieldErrors', () => {
  it('reports the first undeclared field of each object, as SMD stops walking an object there', () => {
    const obj = { spec: { foo: 1, bar: 2, template: { baz: 3 } } };
    const errors = undeclaredFieldErrors(obj, ['spec.foo', 'spec.bar', 'spec.template.baz'], deployments);
    expect(errors).toEqual([
      '.spec.foo: field not declared in schema',
      '.spec.template.baz: field not declared in schema',
    ]);
    expect(validationErrorsText(errors)).toBe(
      'errors:\n  .spec.foo: field not declared in schema\n  .spec.template.baz: field not declared in schema',
    );
    expect(validationErrorsText(errors.slice(0, 1))).toBe('.spec.foo: field not declared in schema');
  });
});
