/** The REST API: the catalog and Applications over HTTP, on the Kubernetes API through informer caches. */
export { startApi, type RunningApi } from './start-api.js';
export type { ApiOptions, AuthMode } from './options.js';
export { ensureLocalTokensFile, loadTokensFile, TokensFileError } from './auth/tokens-file.js';
export { ROUTES, type RouteSpec } from './http/routes.js';
export { openApiDocument } from './openapi/openapi.document.js';
