import { APPLICATIONS, COMPONENT_DEFINITIONS, TRAIT_DEFINITIONS } from '#api';
import { NAMESPACES } from '#runtime';
import { connect, resolveTarget, type Session } from '../../cluster/session.js';
import { namespaceFor } from '../../cluster/target.js';
import type { NameKind } from './complete.js';

/**
 * Names for completion from the target, never starting a local plane and
 * never printing: a target that does not answer (or refuses) gives no names,
 * except definition types, which fall back to the built-ins.
 */
export async function lookupNames(
  kind: NameKind,
  flags: Record<string, string | boolean>,
): Promise<string[]> {
  const target = {
    kubeconfig: typeof flags.kubeconfig === 'string' ? flags.kubeconfig : undefined,
    context: typeof flags.context === 'string' ? flags.context : undefined,
    local: flags.local === true,
  };
  const names: string[] = [];
  if (kind === 'definitions') {
    const { loadBuiltinDefinitions } = await import('#definitions');
    for (const d of await loadBuiltinDefinitions().catch(() => []))
      if (d.metadata.name) names.push(d.metadata.name);
  }
  let session: Session | undefined;
  try {
    const choice = resolveTarget(target);
    const namespace = namespaceFor(choice, typeof flags.namespace === 'string' ? flags.namespace : undefined);
    session = await connect(choice, { startPlane: false, say: () => undefined });
    names.push(...(await fromCluster(session, kind, namespace)));
  } catch {
    // Completion must never fail loudly: no target, no names.
  } finally {
    session?.close();
  }
  return names;
}

async function fromCluster(session: Session, kind: NameKind, namespace: string): Promise<string[]> {
  const list = async (resource: Parameters<Session['client']>[0], ns?: string) =>
    (await session.client(resource).list({ namespace: ns, timeoutMs: 3000 })).items
      .map((o) => o.metadata?.name)
      .filter((n): n is string => typeof n === 'string');
  if (kind === 'namespaces') return list(NAMESPACES);
  if (kind === 'applications') return list(APPLICATIONS, namespace);
  const found = await Promise.all([list(COMPONENT_DEFINITIONS), list(TRAIT_DEFINITIONS)]);
  return found.flat();
}
