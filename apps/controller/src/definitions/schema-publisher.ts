import { SCHEMA_CONFIGMAP_LABEL, SCHEMA_KEY, schemaConfigMapName, type Definition } from '#api';
import {
  isLimitHit,
  parameterOpenApiSchema,
  RenderError,
  RenderErrors,
  type RendererHandle,
} from '#renderer';
import { hashOf, type KubeObject, ownerReferenceTo } from '#kube-core';
import {
  CONFIG_MAPS,
  isNotFound,
  type Client,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type ResourceKind,
} from '#runtime';

/**
 * Publishes each definition's parameter schema as KubeVela does: a
 * ConfigMap in the definition's namespace, owned by it (deleted with it by
 * the garbage collector). Written only when the schema changed: the hash of
 * what was last published is remembered per definition, and checked against
 * the server once per definition after a start.
 */
export class SchemaPublisher implements Reconciler {
  private readonly published = new Map<string, string>();

  constructor(
    private readonly client: Client,
    private readonly kind: ResourceKind,
    private readonly renderer: () => RendererHandle,
  ) {}

  async reconcile(request: Request, ctx: ReconcileContext): Promise<void> {
    const def = await this.client.get(this.kind, request.namespace, request.name);
    if (!def || def.metadata?.deletionTimestamp) return;
    let schema: Record<string, unknown>;
    try {
      schema = await parameterOpenApiSchema(def as Definition, this.renderer().compiler);
    } catch (err) {
      // A template that does not compile, or whose schema passes a CPU or memory limit, fails
      // the same way again: no retry (a changed definition is reconciled anew). The wall-clock
      // backstop may be the machine's doing: that one is retried with backoff.
      if (!(err instanceof RenderErrors || err instanceof RenderError)) throw err;
      if (err instanceof RenderError && err.source === 'timeout' && !isLimitHit(err)) throw err;
      ctx.log.warn('parameter schema not published: the definition cannot be evaluated', {
        error: err.message,
      });
      return; // the definition's users report the same error when they render
    }
    const name = schemaConfigMapName(def.kind as Definition['kind'], request.name);
    const data = { [SCHEMA_KEY]: JSON.stringify(schema) };
    const key = `${def.metadata?.uid}`;
    const hash = hashOf(data);
    if (this.published.get(key) === hash) return;
    const live = await this.client
      .resource(CONFIG_MAPS)
      .get(request.namespace, name)
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
    if (!live || hashOf(live.data ?? {}) !== hash) {
      const configMap: KubeObject = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name,
          namespace: request.namespace,
          labels: { [SCHEMA_CONFIGMAP_LABEL]: request.name },
          ownerReferences: [ownerReferenceTo(def, { controller: true, blockOwnerDeletion: true })],
        },
        data,
      };
      await this.client.apply(CONFIG_MAPS, configMap, { force: true });
      ctx.log.info('parameter schema published', { configMap: `${request.namespace}/${name}` });
    }
    this.published.set(key, hash);
  }
}
