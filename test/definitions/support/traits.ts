import { type TypedObject } from '#kube-core';
import { definitionNamed, loadDefinitionFiles } from './load.js';
import { renderTemplate } from './cue.js';
import { componentContext, traitContext } from './context.js';
import { patched } from './patch.js';

/** Renders built-in components and applies built-in CUE traits to them, as the renderer does. */
const files = loadDefinitionFiles();
export type Obj = Record<string, any>;

export function cueTemplate(folder: string, name: string): string {
  const def = definitionNamed(files, folder, name).object as {
    spec: { schematic: { cue: { template: string } } };
  };
  return def.spec.schematic.cue.template;
}

export async function workload(type: string, properties: Record<string, unknown>): Promise<TypedObject> {
  const { output } = await renderTemplate(
    cueTemplate('components', type),
    properties,
    componentContext('api', type),
  );
  return output!;
}

export async function trait(
  name: string,
  properties: unknown,
  output: TypedObject,
  type = 'webservice',
  outputs: Record<string, TypedObject> = {},
) {
  const template = cueTemplate('traits', name);
  const result = await renderTemplate(
    template,
    properties as Record<string, unknown>,
    traitContext('api', type, output, outputs),
  );
  return { ...result, template, apply: () => patched(output, result.patch ?? {}, result.patchKeys, name) };
}

export const pod = (o: TypedObject): Obj => (o as Obj).spec.template.spec;
