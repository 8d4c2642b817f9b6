/**
 * The built-in ComponentDefinitions and TraitDefinitions shipped in
 * `definitions/`: found on disk and parsed once, for the CLI's dry run, the
 * controller's installer, the REST API, tests and benchmarks.
 */
export { projectRoot, definitionsDir } from './project-root.js';
export { loadBuiltinDefinitions, BuiltinDefinitionsError, type WantedDefinitions } from './load-builtins.js';
