import { find, renderYaml } from './support/render.js';

/**
 * KubeVela definitions and Applications, unchanged, rendered end to end with the
 * built-ins: trait patches unify with the workload as KubeVela's StrategyUnify does.
 */
const app = (traits: string, properties = 'image: busybox') => `
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: kv
spec:
  components:
    - name: c
      type: webservice
      properties:
        ${properties.replace(/\n/g, '\n        ')}
      traits:
        ${traits.replace(/\n/g, '\n        ')}
`;

const trait = (name: string, template: string) => `
apiVersion: core.oam.dev/v1beta1
kind: TraitDefinition
metadata:
  name: ${name}
spec:
  appliesToWorkloads: ["deployments.apps"]
  schematic:
    cue:
      template: |
        ${template.replace(/\n/g, '\n        ')}
---`;

const podSpec = (deployment: Record<string, any>) => deployment.spec.template.spec;

describe('trait patches on lists, as KubeVela unifies them', () => {
  it('merges a list without a patch key item by item (a storage-style mount trait)', async () => {
    const rendered = await renderYaml(
      trait(
        'kvmount',
        `patch: spec: template: spec: {
	// +patchKey=name
	volumes: [{name: "emptydir-" + parameter.name, emptyDir: {}}]
	containers: [{
		// +patchKey=name
		volumeMounts: [{name: "emptydir-" + parameter.name, mountPath: parameter.mountPath}]
	}, ...]
}
parameter: {
	name: string
	mountPath: string
}`,
      ) + app('- type: kvmount\n  properties: {name: data, mountPath: /data}'),
    );
    expect(rendered.errors).toEqual([]);
    const spec = podSpec(find(rendered, 'Deployment'));
    expect(spec.containers).toEqual([
      { name: 'c', image: 'busybox', volumeMounts: [{ name: 'emptydir-data', mountPath: '/data' }] },
    ]);
    expect(spec.volumes).toEqual([{ name: 'emptydir-data', emptyDir: {} }]);
  });

  // The CUE engine evaluates `[...X]` in patch as `[X]`, marked +each (patch-keys.ts eachLists).
  it('applies `[...{resources}]` to every container (the older KubeVela resource trait)', async () => {
    const rendered = await renderYaml(
      trait(
        'kvresource',
        `patch: spec: template: spec: {
	containers: [...{
		resources: {
			requests: cpu: parameter.cpu
			limits: cpu: parameter.cpu
		}
	}]
}
parameter: cpu: *1 | number | string`,
      ) + app('- type: kvresource\n  properties: {cpu: "500m"}'),
    );
    expect(rendered.errors).toEqual([]);
    expect(podSpec(find(rendered, 'Deployment')).containers).toEqual([
      { name: 'c', image: 'busybox', resources: { requests: { cpu: '500m' }, limits: { cpu: '500m' } } },
    ]);
  });

  // Markers inside a `let` the patch uses count where it is used (extractPatchKeys with the text).
  it("applies KubeVela's current resource trait (keyless item, retainKeys inside a let)", async () => {
    const rendered = await renderYaml(
      trait(
        'kvresource2',
        `let resourceContent = {
	resources: {
		if parameter.cpu != _|_ if parameter.memory != _|_ {
			// +patchStrategy=retainKeys
			requests: {
				cpu:    parameter.cpu
				memory: parameter.memory
			}
			// +patchStrategy=retainKeys
			limits: {
				cpu:    parameter.cpu
				memory: parameter.memory
			}
		}
	}
}
if context.output.spec != _|_ && context.output.spec.template != _|_ {
	patch: spec: template: spec: {
		// +patchKey=name
		containers: [resourceContent]
	}
}
parameter: {
	cpu?: *1 | number | string
	memory?: *"2048Mi" | string
}`,
      ) +
        app('- type: kvresource2\n  properties: {cpu: "500m", memory: "1Gi"}', 'image: busybox\ncpu: "100m"'),
    );
    expect(rendered.errors).toEqual([]);
    const resources = { cpu: '500m', memory: '1Gi' };
    expect(podSpec(find(rendered, 'Deployment')).containers).toEqual([
      { name: 'c', image: 'busybox', resources: { requests: resources, limits: resources } },
    ]);
  });

  const conflicting = () =>
    renderYaml(
      trait(
        'kvimage',
        `patch: spec: template: spec: {
	// +patchKey=name
	containers: [{name: context.name, image: parameter.image}]
}
parameter: image: string`,
      ) + app('- type: kvimage\n  properties: {image: nginx}'),
    );

  it('rejects a patch that changes a value, naming the field and both values', async () => {
    const { errors } = await conflicting();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /patch\.spec\.template\.spec\.containers\[0\]\.image: conflicting values "busybox" \(workload\) and "nginx" \(patch\)/,
    );
  });

  it('names the trait whose patch conflicts', async () => {
    const { errors } = await conflicting();
    expect(errors[0]).toMatch(/traits\[0\] \(kvimage\)/);
  });
});

describe('labels and annotations: a null value removes the key (jsonMergePatch)', () => {
  const withLabels = 'image: busybox\nlabels: {drop: me, keep: me}\nannotations: {drop: me}';

  it('annotations (CUE)', async () => {
    const rendered = await renderYaml(
      app('- type: annotations\n  properties: {drop: null, note: hi}', withLabels),
    );
    expect(rendered.errors).toEqual([]);
    const deployment = find(rendered, 'Deployment');
    expect(deployment.metadata.annotations).toEqual({ note: 'hi' });
    expect(deployment.spec.template.metadata.annotations).toEqual({ note: 'hi' });
  });

  // The Handlebars engine reads `# +patchStrategy=` above the top-level `patch:` key (path "").
  it('labels (Handlebars)', async () => {
    const rendered = await renderYaml(
      app('- type: labels\n  properties: {drop: null, release: stable}', withLabels),
    );
    expect(rendered.errors).toEqual([]);
    const labels = find(rendered, 'Deployment').spec.template.metadata.labels;
    expect(labels).toMatchObject({ keep: 'me', release: 'stable' });
    expect(labels.drop).toBeUndefined();
  });

  it('labels may overwrite a label the component set, as in KubeVela', async () => {
    const rendered = await renderYaml(app('- type: labels\n  properties: {keep: you}', withLabels));
    expect(rendered.errors).toEqual([]);
    expect(find(rendered, 'Deployment').spec.template.metadata.labels.keep).toBe('you');
  });
});

describe('gateway', () => {
  it('creates the Service its Ingress routes to when the component exposes no port', async () => {
    const rendered = await renderYaml(
      app(
        '- type: gateway\n  properties:\n    domain: testsvc.example.com\n    http: {"/": 8000}',
        'image: oamdev/hello-world\nports: [{port: 8000}]',
      ),
    );
    expect(rendered.errors).toEqual([]);
    expect(find(rendered, 'Service', 'c').spec).toEqual({
      selector: { 'app.oam.dev/component': 'c' },
      ports: [{ name: 'port-8000', port: 8000, targetPort: 8000 }],
    });
    const [path] = find(rendered, 'Ingress', 'c').spec.rules[0].http.paths;
    expect(path.backend).toEqual({ service: { name: 'c', port: { number: 8000 } } });
  });

  it('routes to an existing Service instead when told so', async () => {
    const rendered = await renderYaml(
      app('- type: gateway\n  properties: {existingServiceName: shared, http: {"/": 80}}'),
    );
    expect(rendered.errors).toEqual([]);
    expect(rendered.objects.filter((o) => o.kind === 'Service')).toEqual([]);
    const [path] = find(rendered, 'Ingress', 'c').spec.rules[0].http.paths;
    expect(path.backend.service.name).toBe('shared');
  });
});
