import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const DEFINITIONS = new URL('../../../../../../../definitions/', import.meta.url);

/** The CUE template of one of this repo's built-in definitions, e.g. `components/webservice`. */
export function builtinTemplate(name: string): string {
  return builtin(name).spec.schematic.cue.template as string;
}

/** One of this repo's built-in definitions, parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a definition the specs reach into at any depth
export function builtin(name: string): { spec: Record<string, any> } {
  return parse(readFileSync(new URL(`${name}.yaml`, DEFINITIONS), 'utf8'));
}

/**
 * KubeVela's storage-trait shape (written for this test): `outputs` built by comprehensions
 * over an optional list, helper lists with defaults, conditions on optional fields of its
 * items. CUE v0.4.3 fails it with "cannot reference optional field"; v0.14 renders it, as
 * long as each field of `outputs` is read on its own.
 */
export const STORAGE_STYLE = `volumeList: *[
	if parameter.pvc != _|_ for v in parameter.pvc {
		{
			name: "pvc-" + v.name
			persistentVolumeClaim: claimName: v.name
		}
	},
] | []

patch: spec: template: spec: {
	// +patchKey=name
	volumes: volumeList
}

outputs: {
	if parameter.pvc != _|_ for v in parameter.pvc {
		if v.mountOnly == false {
			"pvc-\\(v.name)": {
				apiVersion: "v1"
				kind:       "PersistentVolumeClaim"
				metadata: name: v.name
				spec: {
					accessModes: v.accessModes
					if v.resources.requests.storage == _|_ {
						resources: requests: storage: "8Gi"
					}
					if v.resources.requests.storage != _|_ {
						resources: requests: storage: v.resources.requests.storage
					}
					if v.storageClassName != _|_ {
						storageClassName: v.storageClassName
					}
				}
			}
		}
	}
}

parameter: {
	// +usage=Declare pvc type storage
	pvc?: [...{
		name:              string
		mountOnly:         *false | bool
		mountPath:         string
		accessModes:       *["ReadWriteOnce"] | [...string]
		storageClassName?: string
		resources?: {
			requests: storage: =~"^([1-9][0-9]{0,63})(E|P|T|G|M|K|Ei|Pi|Ti|Gi|Mi|Ki)$"
		}
	}]
}
`;

/** A disjunction a JSON Schema translation gets backwards (as exclusive forms): CUE decides. */
export const ENV_MAP = `parameter: {
	env: *{} | {[string]: string}
}
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data:       parameter.env
}
`;

/** Never terminates in practice: a comprehension over fifty million items. */
export const NEVER_ENDS = `import "list"
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: {for i in list.Range(0, 50000000, 1) {"k\\(i)": "v"}}
}
`;
