import { applyDecorators, HttpCode, RequestMapping, RequestMethod, SetMetadata } from '@nestjs/common';
import { routeSpec, type RouteId } from './routes.js';

export const ROUTE_KEY = 'oam-api:route';

const METHODS = {
  get: RequestMethod.GET,
  post: RequestMethod.POST,
  put: RequestMethod.PUT,
  patch: RequestMethod.PATCH,
  delete: RequestMethod.DELETE,
} as const;

/** `/api/v1/namespaces/{namespace}` → Express' `/api/v1/namespaces/:namespace`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Maps a handler to its entry in ROUTES: method, path, status code, and the access the guard checks. */
export function Route(id: RouteId): MethodDecorator {
  const spec = routeSpec(id);
  return applyDecorators(
    RequestMapping({ path: expressPath(spec.path), method: METHODS[spec.method] }),
    HttpCode(spec.status ?? 200),
    SetMetadata(ROUTE_KEY, id),
  );
}
