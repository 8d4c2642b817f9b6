import { KubeApiError } from '#runtime';
import { EXIT } from '../output/exit-codes.js';
import { UserError } from '../output/user-error.js';

const METHOD_VERB: Record<string, string> = {
  GET: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** `/apis/core.oam.dev/v1beta1/namespaces/default/applications/hello` → `applications.core.oam.dev "hello" in namespace default`. */
export function describePath(path: string): string {
  const m = /^\/(?:api|apis\/([^/]+))\/[^/]+(?:\/namespaces\/([^/]+))?\/([^/?]+)(?:\/([^/?]+))?/.exec(path);
  if (!m) return path;
  const [, group, ns, plural, name] = m;
  const resource = `${plural}${group ? `.${group}` : ''}`;
  return `${resource}${name ? ` "${name}"` : ''}${ns ? ` in namespace ${ns}` : ''}`;
}

/**
 * A cluster's refusal or silence as one line that says what to do; anything
 * else stays as it is (an internal error, exit 4).
 */
export function clusterError(err: unknown, where: string): unknown {
  if (!(err instanceof KubeApiError)) return err;
  const verb = METHOD_VERB[err.verb] ?? err.verb.toLowerCase();
  if (err.code === 0)
    return new UserError(
      `${where} does not answer (${err.reason}: ${err.message.replace(/^.*?: /, '')}); check that it runs and the kubeconfig, or pass --local for the local plane`,
      EXIT.CLUSTER,
    );
  if (err.code === 401)
    return new UserError(
      `${where} refused the kubeconfig's credentials (401 Unauthorized): log in again or fix the kubeconfig`,
      EXIT.CLUSTER,
    );
  if (err.code === 403)
    return new UserError(
      `permission denied on ${where}: cannot ${verb} ${describePath(err.path)}; ask for RBAC that allows it`,
      EXIT.CLUSTER,
    );
  if (err.code === 422 || err.code === 400)
    return new UserError(
      `${where} rejected ${verb} of ${describePath(err.path)}: ${String(err.status?.message ?? err.message)}`,
      EXIT.INVALID,
    );
  return err;
}
