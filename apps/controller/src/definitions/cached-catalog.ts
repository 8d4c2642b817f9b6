import type { ComponentDefinition, Definition, TraitDefinition } from '#api';
import type { DefinitionCatalog } from '#renderer';
import { NAMESPACE_INDEX, type Indexer } from '#runtime';
import { type KubeObject } from '#kube-core';

/**
 * The renderer's DefinitionCatalog over the informer caches: the
 * application's namespace first, then the system namespace. Every lookup is
 * a keyed read of the cache, never a list of every definition.
 */
export class CachedCatalog implements DefinitionCatalog {
  constructor(
    private readonly components: Indexer<KubeObject>,
    private readonly traits: Indexer<KubeObject>,
    private readonly systemNamespace: string,
  ) {}

  componentDefinition(type: string, namespace: string): ComponentDefinition | undefined {
    return this.find(this.components, type, namespace) as ComponentDefinition | undefined;
  }

  traitDefinition(type: string, namespace: string): TraitDefinition | undefined {
    return this.find(this.traits, type, namespace) as TraitDefinition | undefined;
  }

  componentTypes(namespace: string): string[] {
    return this.names(this.components, namespace);
  }

  traitTypes(namespace: string): string[] {
    return this.names(this.traits, namespace);
  }

  private find(indexer: Indexer<KubeObject>, type: string, namespace: string): Definition | undefined {
    return (indexer.get(namespace, type) ?? indexer.get(this.systemNamespace, type)) as
      Definition | undefined;
  }

  private names(indexer: Indexer<KubeObject>, namespace: string): string[] {
    const objects = [
      ...indexer.byIndex(NAMESPACE_INDEX, namespace),
      ...indexer.byIndex(NAMESPACE_INDEX, this.systemNamespace),
    ];
    return [...new Set(objects.map((o) => o.metadata!.name!))].sort();
  }
}
