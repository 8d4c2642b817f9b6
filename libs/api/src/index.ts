export * from './meta.js';
export * from './definitions.js';
export * from './application.js';
export * from './application-status.js';
export * from './component-health.js';
export * from './component.js';
export * from './revision.js';
export * from './kinds.js';
export { crdFor, generateCrds, generateEditorSchema } from './crd/generate.js';
