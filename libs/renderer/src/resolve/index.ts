export type { AppSpec, ResolvedComponent, ResolvedTrait } from './app-spec.js';
export { InMemoryCatalog, type DefinitionCatalog } from './catalog.js';
export { resolveObjects, type ResolveOptions } from './resolve.js';
export { orderByDependencies, workloadNames } from './checks.js';
export { conflictsWithOlder, notApplicable, olderFirst, rivalIn } from './trait-rules.js';
export { typesUsed, type TypesUsed } from './types-used.js';
