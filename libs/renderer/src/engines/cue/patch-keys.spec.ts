import { directivesAt, PATCH_STRATEGY } from '../../patch/index.js';
import { fieldDeclarations } from './cue-fields.js';
import { eachLists, extractPatchKeys } from './patch-keys.js';

const withSource = (source: string) => extractPatchKeys(fieldDeclarations(source), source);
const withoutSource = (source: string) => extractPatchKeys(fieldDeclarations(source));

describe('extractPatchKeys', () => {
  it('reads a strategy on `patch` itself as the root ("") marker (KubeVela labels/annotations)', () => {
    const source = `// +patchStrategy=jsonMergePatch
patch: {
	metadata: labels: {for k, v in parameter {(k): v}}
}
parameter: [string]: string | null
`;
    expect(withoutSource(source)).toEqual({ '': PATCH_STRATEGY.jsonMergePatch });
    expect(withSource(source)).toEqual({ '': PATCH_STRATEGY.jsonMergePatch });
    expect(withoutSource('// +patchStrategy=jsonPatch\npatch: parameter\nparameter: {...}\n')).toEqual({
      '': PATCH_STRATEGY.jsonPatch,
    });
  });

  it('keeps a patch key and a strategy on the same list', () => {
    const source = `patch: spec: {
	// +patchStrategy=retainKeys
	// +patchKey=name
	volumes: [{name: "v", configMap: name: "c"}]
}
`;
    const keys = withoutSource(source);
    expect(directivesAt(keys, 'spec.volumes')).toMatchObject({
      key: 'name',
      retainKeys: true,
      replace: false,
    });
  });

  it('puts a marker above a chained declaration on its last field, as KubeVela does', () => {
    const source =
      '// +patchStrategy=retainKeys\npatch: spec: replicas: parameter.replicas\nparameter: replicas: 1\n';
    expect(withSource(source)).toEqual({ 'spec.replicas': PATCH_STRATEGY.retainKeys });
  });

  it("finds markers inside a `let` the patch uses, at the place it uses it (KubeVela's resource trait)", () => {
    const source = `let resourceContent = {
	resources: {
		if parameter.cpu != _|_ {
			// +patchStrategy=retainKeys
			requests: {cpu: parameter.cpu}
			// +patchStrategy=retainKeys
			limits: {cpu: parameter.cpu}
		}
	}
}
if context.output.spec.template != _|_ {
	patch: spec: template: spec: {
		// +patchKey=name
		containers: [resourceContent]
	}
}
parameter: cpu?: string
`;
    expect(withSource(source)).toEqual({
      'spec.template.spec.containers': 'name',
      'spec.template.spec.containers[].resources.requests': PATCH_STRATEGY.retainKeys,
      'spec.template.spec.containers[].resources.limits': PATCH_STRATEGY.retainKeys,
    });
    // Without the source text only what is written under `patch` is seen.
    expect(withoutSource(source)).toEqual({ 'spec.template.spec.containers': 'name' });
  });

  it('does not mistake the fields of a `let` inside `patch` for fields of the patch', () => {
    const source = `patch: {
	let c = {
		// +patchKey=name
		env: [{name: "A", value: "1"}]
	}
	spec: template: spec: containers: [c]
}
`;
    expect(withSource(source)).toEqual({ 'spec.template.spec.containers[].env': 'name' });
  });

  it('marks lists written [...X] as +each, and tells the engine where their dots are', () => {
    const source = `patch: spec: template: spec: {
	containers: [...{
		resources: limits: cpu: parameter.cpu
	}]
	volumes: [{name: "a"}, ...]
	initContainers: [...]
}
parameter: cpu: *1 | string
`;
    expect(withSource(source)).toEqual({ 'spec.template.spec.containers': PATCH_STRATEGY.each });
    const lists = eachLists(source);
    expect(lists).toEqual([{ path: 'spec.template.spec.containers', start: source.indexOf('...{') }]);
  });
});
