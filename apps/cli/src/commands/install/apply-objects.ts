import { FIELD_MANAGERS } from '#api';
import type { KubeObject } from '#kube-core';
import { isNotFound, NAMESPACES, type KubeTransport, ResourceClient, RestMapper } from '#runtime';

/** The field manager of everything `oam` applies (also `oam up`'s). */

/**
 * Server-side apply of deploy/'s objects in their order, forced (the files
 * are the intent, as with `kubectl apply --server-side --force-conflicts`).
 * With `dryRun`, every object whose namespace already exists is tried first
 * and nothing is written.
 */
export async function applyObjects(
  transport: KubeTransport,
  objects: KubeObject[],
  options: { dryRun?: boolean; onApplied?: (o: KubeObject) => void } = {},
): Promise<void> {
  const mapper = new RestMapper(transport);
  const namespaces = new ResourceClient(transport, NAMESPACES);
  const existing = new Map<string, boolean>();
  const exists = async (ns: string): Promise<boolean> => {
    if (!existing.has(ns))
      existing.set(
        ns,
        await namespaces.get(undefined, ns).then(
          () => true,
          (err: unknown) => {
            if (isNotFound(err)) return false;
            throw err;
          },
        ),
      );
    return existing.get(ns)!;
  };
  for (const object of objects) {
    const ns = object.metadata?.namespace;
    if (options.dryRun && ns && !(await exists(ns))) continue;
    const kind = await mapper.kindFor(object as Required<Pick<KubeObject, 'apiVersion' | 'kind'>>);
    await new ResourceClient(transport, kind).apply(object, {
      fieldManager: FIELD_MANAGERS.cli,
      force: true,
      dryRun: options.dryRun,
    });
    if (!options.dryRun) options.onApplied?.(object);
  }
}
