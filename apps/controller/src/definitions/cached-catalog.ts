import type { ComponentDefinition, Definition, TraitDefinition } from '#api';
import type { DefinitionCatalog } from '#renderer';
import { NAMESPACE_INDEX, type Indexer } from '#runtime';

/**
 * The renderer's DefinitionCatalog over the informer caches: the
 * application's namespace first, then the system namespace. Every lookup is
 * a keyed read of the cache, never a list of every definition.
 */
export class CachedCatalog implements DefinitionCatalog {
  constructor(
    private readonly components: Indexer<ComponentDefinition>,
    private readonly traits: Indexer<TraitDefinition>,
    private readonly systemNamespace: string,
  ) {}

  componentDefinition(type: string, namespace: string): ComponentDefinition | undefined {
    return this.find(this.components, type, namespace);
  }

  traitDefinition(type: string, namespace: string): TraitDefinition | undefined {
    return this.find(this.traits, type, namespace);
  }

  componentTypes(namespace: string): string[] {
    return this.names(this.components, namespace);
  }

  traitTypes(namespace: string): string[] {
    return this.names(this.traits, namespace);
  }

  private find<D extends Definition>(indexer: Indexer<D>, type: string, namespace: string): D | undefined {
    return indexer.get(namespace, type) ?? indexer.get(this.systemNamespace, type);
  }

  private names<D extends Definition>(indexer: Indexer<D>, namespace: string): string[] {
    const objects = [
      ...indexer.byIndex(NAMESPACE_INDEX, namespace),
      ...indexer.byIndex(NAMESPACE_INDEX, this.systemNamespace),
    ];
    return [...new Set(objects.map((o) => o.metadata!.name!))].sort();
  }
}
