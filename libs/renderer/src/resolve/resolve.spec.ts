import type { Definition } from '#api';
import { parseSources } from '../parse/index.js';
import { InMemoryCatalog } from './catalog.js';
import { resolveObjects } from './resolve.js';

const cueSchematic = { cue: { template: 'output: {}' } };
const componentDef = (name: string, kind = 'Deployment', namespace?: string): Definition => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'ComponentDefinition',
  metadata: { name, namespace },
  spec: {
    workload: { definition: { apiVersion: kind === 'Job' ? 'batch/v1' : 'apps/v1', kind } },
    schematic: cueSchematic,
  },
});
const traitDef = (name: string, spec: Record<string, unknown> = {}): Definition => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'TraitDefinition',
  metadata: { name },
  spec: { schematic: cueSchematic, ...spec },
});

const catalog = new InMemoryCatalog([
  [
    componentDef('webservice'),
    componentDef('worker'),
    componentDef('task', 'Job'),
    traitDef('scaler', { appliesToWorkloads: ['deployments.apps'] }),
    traitDef('hpa', { appliesToWorkloads: ['deployments.apps', 'statefulsets.apps'] }),
    traitDef('cpuscaler', { conflictsWith: ['hpa'] }),
    traitDef('gateway'),
  ],
]);

function resolve(text: string) {
  const parsed = parseSources([{ path: 'app.yaml', text }]);
  expect(parsed.errors.map((e) => e.message)).toEqual([]);
  const r = resolveObjects(parsed.objects, catalog);
  return { ...r, messages: r.errors.map((e) => e.message) };
}

const header =
  'apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: shop\nspec:\n  components:\n';

describe('resolveObjects', () => {
  it('resolves inline components and traits with their definitions', () => {
    const { apps, errors } = resolve(
      `${header}    - name: api\n      type: webservice\n      traits:\n        - type: scaler\n          properties: {replicas: 2}\n`,
    );
    expect(errors).toEqual([]);
    expect(apps).toHaveLength(1);
    const [c] = apps[0].components;
    expect([c.name, c.type, c.definition.metadata.name, c.traits.map((t) => t.type)]).toEqual([
      'api',
      'webservice',
      'webservice',
      ['scaler'],
    ]);
    expect(apps[0].namespace).toBe('default');
  });

  it('suggests the nearest component type for an unknown one', () => {
    const { messages } = resolve(`${header}    - name: api\n      type: websevice\n`);
    expect(messages).toEqual([
      'app.yaml:8: Application "shop", components[0] "api" (websevice): type: unknown component type "websevice" (did you mean "webservice"?); known component types: task, webservice, worker',
    ]);
  });

  it('suggests the nearest trait type and points at the trait line', () => {
    const { messages } = resolve(
      `${header}    - name: api\n      type: webservice\n      traits:\n        - type: scalr\n`,
    );
    expect(messages).toEqual([
      'app.yaml:10: Application "shop", components[0] "api" (webservice), traits[0] (scalr): type: unknown trait type "scalr" (did you mean "scaler"?); known trait types: cpuscaler, gateway, hpa, scaler',
    ]);
  });

  it('refuses a trait that does not apply to the workload', () => {
    const { messages } = resolve(
      `${header}    - name: job\n      type: task\n      traits:\n        - type: scaler\n`,
    );
    expect(messages).toEqual([
      'app.yaml:10: Application "shop", components[0] "job" (task), traits[0] (scaler): trait "scaler" does not apply to component type "task" (it applies to: deployments.apps)',
    ]);
  });

  it('refuses conflicting traits', () => {
    const { messages } = resolve(
      `${header}    - name: api\n      type: webservice\n      traits:\n        - type: hpa\n        - type: cpuscaler\n`,
    );
    expect(messages).toEqual([
      'app.yaml:11: Application "shop", components[0] "api" (webservice), traits[1] (cpuscaler): trait "cpuscaler" conflicts with trait "hpa" on the same component',
    ]);
  });

  it('checks dependsOn names and cycles', () => {
    const { messages } = resolve(
      `${header}    - name: a\n      type: worker\n      dependsOn: [b]\n    - name: b\n      type: worker\n      dependsOn: [a, c]\n`,
    );
    expect(messages).toEqual([
      'app.yaml:10: Application "shop", components[1] "b" (worker): dependsOn "c": no such component (components: a, b)',
      'app.yaml:7: Application "shop", components[0] "a" (worker): dependsOn forms a cycle: a → b → a',
    ]);
  });

  it('deploys an unreferenced Component as its own application, with Traits targeting it', () => {
    const text = `apiVersion: core.oam.dev/v1beta1
kind: Component
metadata: {name: checkout, namespace: shop}
spec: {type: webservice, properties: {image: nginx}}
---
apiVersion: core.oam.dev/v1beta1
kind: Trait
metadata: {name: checkout-scale, namespace: shop}
spec: {type: scaler, target: {component: checkout}, properties: {replicas: 3}}
`;
    const { apps, errors } = resolve(text);
    expect(errors).toEqual([]);
    expect(apps.map((a) => [a.owner.kind, a.name, a.namespace])).toEqual([['Component', 'checkout', 'shop']]);
    expect(apps[0].components[0].traits.map((t) => [t.type, t.origin])).toEqual([
      ['scaler', { kind: 'Trait', name: 'checkout-scale' }],
    ]);
  });

  it('skips standalone Traits the controller rejects (not applicable, conflicting: the older wins) with a warning, and lets one override an inline trait', () => {
    const trait = (name: string, type: string, component: string, created?: string) => `---
apiVersion: core.oam.dev/v1beta1
kind: Trait
metadata: {name: ${name}${created ? `, creationTimestamp: "${created}"` : ''}}
spec: {type: ${type}, target: {component: ${component}}}
`;
    const text = `apiVersion: core.oam.dev/v1beta1
kind: Component
metadata: {name: job}
spec: {type: task}
---
apiVersion: core.oam.dev/v1beta1
kind: Component
metadata: {name: api}
spec: {type: webservice}
${trait('job-scale', 'scaler', 'job')}${trait('a-newer', 'cpuscaler', 'api', '2026-01-02T00:00:00Z')}${trait('z-older', 'hpa', 'api', '2026-01-01T00:00:00Z')}`;
    const { apps, errors, warnings } = resolve(text);
    expect(errors).toEqual([]);
    expect(apps.map((a) => [a.name, a.components[0].traits.map((t) => t.type)])).toEqual([
      ['job', []],
      ['api', ['hpa']],
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringContaining(
        'Trait "job-scale" (scaler): trait "scaler" does not apply to component type "task" (it applies to: deployments.apps): skipped, as the controller skips it',
      ),
      expect.stringContaining(
        'Trait "a-newer" (cpuscaler): conflicts with the older Trait "z-older" (hpa) on the same component: skipped',
      ),
    ]);

    const inline = resolve(
      `${header}    - name: api
      type: webservice
      traits:
        - type: cpuscaler
        - type: gateway
${trait('ops-hpa', 'hpa', 'api').replace('{component: api}', '{component: api, application: shop}')}`,
    );
    expect(inline.errors).toEqual([]);
    expect(inline.apps[0].components[0].traits.map((t) => t.type)).toEqual(['gateway', 'hpa']);
    expect(inline.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining(
        'traits[0] (cpuscaler): overridden by Trait "ops-hpa" (hpa), as the controller does',
      ),
    ]);
  });

  it('joins a referenced Component into its Application and does not deploy it alone', () => {
    const text = `apiVersion: core.oam.dev/v1beta1
kind: Component
metadata: {name: checkout}
spec: {type: webservice, properties: {image: nginx}}
---
${header}    - name: pay
      componentRef: checkout
---
apiVersion: core.oam.dev/v1beta1
kind: Trait
metadata: {name: t1}
spec: {type: gateway, target: {component: pay, application: shop}}
`;
    const { apps, errors } = resolve(text);
    expect(errors).toEqual([]);
    expect(apps.map((a) => a.name)).toEqual(['shop']);
    expect(apps[0].components[0]).toMatchObject({
      name: 'pay',
      type: 'webservice',
      properties: { image: 'nginx' },
    });
    expect(apps[0].components[0].traits.map((t) => t.type)).toEqual(['gateway']);
  });

  it('reports a componentRef to a missing Component and a Trait whose target is missing', () => {
    const text = `${header}    - name: pay\n      componentRef: nothere\n---
apiVersion: core.oam.dev/v1beta1
kind: Trait
metadata: {name: lost}
spec: {type: gateway, target: {component: ghost}}
`;
    const { messages } = resolve(text);
    expect(messages).toEqual([
      'app.yaml:8: Application "shop", components[0] "pay": componentRef: no Component "nothere" in namespace "default"',
      'app.yaml:13: Trait "lost": spec.target: target Component "ghost" not found in namespace "default"',
    ]);
  });

  it('warns that workflow steps are stored but not run', () => {
    const { warnings } = resolve(
      `${header}    - name: a\n      type: worker\n  workflow:\n    steps: [{name: s, type: deploy}]\n`,
    );
    expect(warnings.map((w) => w.message)).toEqual([
      'app.yaml:9: Application "shop": spec.workflow is stored but its steps are not run by this platform yet: every component is applied, in dependsOn order',
    ]);
  });

  it('points an unknown type at its `type:` line, for components, traits and standalone objects', () => {
    const { messages } = resolve(
      `${header}    - name: api\n      properties: {image: x}\n      type: websevice\n      traits:\n        - properties: {replicas: 2}\n          type: scalr\n`,
    );
    expect(messages.map((m) => m.split(': type:')[0])).toEqual([
      'app.yaml:9: Application "shop", components[0] "api" (websevice)',
      'app.yaml:12: Application "shop", components[0] "api" (websevice), traits[0] (scalr)',
    ]);
    const standalone = resolve(
      'apiVersion: core.oam.dev/v1beta1\nkind: Component\nmetadata: {name: w}\nspec:\n  properties: {image: x}\n  type: wroker\n',
    );
    expect(standalone.messages[0]).toMatch(
      /^app\.yaml:6: Component "w" \(wroker\): type: unknown component type/,
    );
  });

  it('warns that policies are stored but not applied, naming them', () => {
    const { warnings } = resolve(
      `${header}    - name: a\n      type: worker\n  policies:\n    - name: ha\n      type: override\n    - {name: prod, type: topology}\n`,
    );
    expect(warnings.map((w) => w.message)).toEqual([
      'app.yaml:9: Application "shop": spec.policies "ha" (override), "prod" (topology) are stored but not applied by this platform yet: topology, override and other policies have no effect on what is rendered',
    ]);
  });

  it("treats KubeVela's vela-system like the system namespace", () => {
    const vela = new InMemoryCatalog([[componentDef('mine', 'Deployment', 'vela-system')]]);
    expect(vela.componentDefinition('mine', 'shop')?.metadata.name).toBe('mine');
    expect(vela.componentTypes('shop')).toEqual(['mine']);
  });

  it('says so when an unknown type exists in a namespace the application cannot see', () => {
    const other = new InMemoryCatalog([
      [componentDef('worker'), componentDef('probe', 'Deployment', 'team-b')],
    ]);
    const parsed = parseSources([{ path: 'app.yaml', text: `${header}    - name: a\n      type: probe\n` }]);
    const { errors } = resolveObjects(parsed.objects, other);
    expect(errors.map((e) => e.detail)).toEqual([
      'unknown component type "probe" in namespace "default": a ComponentDefinition "probe" exists in namespace "team-b", which applications in "default" cannot use (put it in "default" or in the system namespace)',
    ]);
  });

  it('prefers a definition in the application namespace over the system one', () => {
    const local = componentDef('webservice', 'StatefulSet', 'team-a');
    const layered = new InMemoryCatalog([[local, componentDef('webservice')]]);
    expect(layered.componentDefinition('webservice', 'team-a')?.spec.workload?.definition?.kind).toBe(
      'StatefulSet',
    );
    expect(layered.componentDefinition('webservice', 'team-b')?.spec.workload?.definition?.kind).toBe(
      'Deployment',
    );
  });
});
