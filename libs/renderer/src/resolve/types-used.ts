import type { OamObject } from '../parse/index.js';

/** The component and trait types that inputs name, each once, in the order first named. */
export interface TypesUsed {
  components: string[];
  traits: string[];
}

/**
 * Every definition type the inputs use: Applications' inline components and
 * their traits, Component objects and Trait objects. A one-shot command loads
 * only these built-ins (`loadBuiltinDefinitions(root, typesUsed(objects))`).
 */
export function typesUsed(objects: readonly OamObject[]): TypesUsed {
  const components = new Set<string>();
  const traits = new Set<string>();
  for (const o of objects) {
    if (o.kind === 'Application') {
      for (const c of o.object.spec.components) {
        if (c.type) components.add(c.type);
        for (const t of c.traits ?? []) traits.add(t.type);
      }
    } else if (o.kind === 'Component') components.add(o.object.spec.type);
    else if (o.kind === 'Trait') traits.add(o.object.spec.type);
  }
  return { components: [...components], traits: [...traits] };
}
