import {
  DEFAULT_SYSTEM_NAMESPACE,
  type ComponentDefinition,
  type Definition,
  type TraitDefinition,
} from '#api';

/** Where definitions come from: injected, so the controller (informer cache), the dry run (files) and tests share one resolver. */
export interface DefinitionCatalog {
  componentDefinition(type: string, namespace: string): ComponentDefinition | undefined;
  traitDefinition(type: string, namespace: string): TraitDefinition | undefined;
  /** Every type name visible from a namespace, for "did you mean" suggestions. */
  componentTypes(namespace: string): string[];
  traitTypes(namespace: string): string[];
  /** Namespaces holding a definition of this name that `namespace` cannot see: "it exists, but not here". */
  hiddenNamespaces?(kind: Definition['kind'], type: string, namespace: string): string[];
}

/**
 * Definitions held in memory. A lookup tries the application's
 * namespace first, then the system namespace; a definition without a
 * namespace (as in a file given to `oam render`) or in KubeVela's
 * `vela-system` counts as a system one.
 * Later layers are consulted only when earlier ones have no match, so inputs
 * can override built-ins.
 */
export class InMemoryCatalog implements DefinitionCatalog {
  private readonly layers: Definition[][];

  constructor(
    layers: readonly (readonly Definition[])[],
    private readonly systemNamespace = DEFAULT_SYSTEM_NAMESPACE,
  ) {
    this.layers = layers.map((l) => [...l]);
  }

  componentDefinition(type: string, namespace: string): ComponentDefinition | undefined {
    return this.find('ComponentDefinition', type, namespace) as ComponentDefinition | undefined;
  }

  traitDefinition(type: string, namespace: string): TraitDefinition | undefined {
    return this.find('TraitDefinition', type, namespace) as TraitDefinition | undefined;
  }

  componentTypes(namespace: string): string[] {
    return this.names('ComponentDefinition', namespace);
  }

  traitTypes(namespace: string): string[] {
    return this.names('TraitDefinition', namespace);
  }

  hiddenNamespaces(kind: Definition['kind'], type: string, namespace: string): string[] {
    if (this.find(kind, type, namespace)) return [];
    const found = this.layers
      .flat()
      .filter((d) => d.kind === kind && d.metadata.name === type)
      .map((d) => d.metadata.namespace!);
    return [...new Set(found)].sort();
  }

  private find(kind: Definition['kind'], type: string, namespace: string): Definition | undefined {
    for (const layer of this.layers) {
      const candidates = layer.filter((d) => d.kind === kind && d.metadata.name === type);
      const local = candidates.find((d) => d.metadata.namespace === namespace);
      if (local) return local;
      const system = candidates.find((d) => this.isSystem(d));
      if (system) return system;
    }
    return undefined;
  }

  private names(kind: Definition['kind'], namespace: string): string[] {
    const names = new Set<string>();
    for (const layer of this.layers) {
      for (const d of layer) {
        if (d.kind === kind && (d.metadata.namespace === namespace || this.isSystem(d)))
          names.add(d.metadata.name!);
      }
    }
    return [...names].sort();
  }

  private isSystem(d: Definition): boolean {
    const ns = d.metadata.namespace;
    return !ns || ns === this.systemNamespace || ns === DEFAULT_SYSTEM_NAMESPACE;
  }
}
