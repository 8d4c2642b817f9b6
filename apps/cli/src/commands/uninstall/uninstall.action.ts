import { APPLICATIONS, CONTROLLER_NAMESPACE } from '#api';
import { join } from 'node:path';
import { projectRoot } from '#definitions';
import type { KubeObject } from '#kube-core';
import { isNotFound, NoKindMatchError } from '#runtime';
import { connect, resolveTarget, targetLine, type Session } from '../../cluster/session.js';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import { readDeploy } from '../install/deploy-manifests.js';
import type { UninstallFlags } from './index.js';

/** Kept without --purge: the API (CRDs) and where users' objects live. */
const KEPT_KINDS = new Set(['CustomResourceDefinition', 'Namespace']);

/**
 * target → refuse while Applications exist (unless --force) → say what goes
 * and what stays → delete deploy/'s objects in reverse order (404 is fine).
 * Exit 0 removed, 1 refused (Applications exist) or the local plane, 3 cluster problems.
 */
export async function runUninstall(flags: UninstallFlags): Promise<number> {
  const choice = resolveTarget(flags);
  process.stdout.write(`${targetLine(choice)}\n`);
  if (choice.kind === 'local')
    throw new UserError(
      'the local plane runs its own controller; `oam uninstall` is for a cluster (stop the plane with `oam server stop`)',
      EXIT.INVALID,
    );
  const objects = readDeploy(join(projectRoot(), 'deploy')).map((o) => o.object);
  const session = await connect(choice, { startPlane: false, say: (l) => process.stdout.write(`${l}\n`) });
  try {
    const apps = await applications(session);
    if (apps.length > 0 && (!flags.force || flags.purge)) {
      const shown = apps.slice(0, 5).join(', ') + (apps.length > 5 ? `, and ${apps.length - 5} more` : '');
      throw new UserError(
        `${apps.length} Application(s) exist on ${session.label} (${shown}): without a controller their cleanup never runs and they cannot be deleted. Delete them first (\`oam delete NAME -n NS\`)${flags.purge ? '' : ', or pass --force to remove the controller anyway'}; nothing was removed`,
        EXIT.INVALID,
      );
    }
    const removed = objects.filter((o) =>
      flags.purge
        ? !(o.kind === 'Namespace' && o.metadata?.name !== CONTROLLER_NAMESPACE)
        : !KEPT_KINDS.has(o.kind!),
    );
    const kept = objects.filter((o) => !removed.includes(o));
    process.stdout.write(`removing: ${removed.map(describe).join(', ')}\n`);
    if (kept.length)
      process.stdout.write(
        `keeping: ${kept.map(describe).join(', ')}${flags.purge ? '' : ' and every Application, Component, Trait and definition (--purge removes the CRDs and with them all of those)'}\n`,
      );
    for (const o of [...removed].reverse()) {
      const kind = await session.call(() =>
        session.mapper.kindFor(o as Required<Pick<KubeObject, 'apiVersion' | 'kind'>>),
      );
      const gone = await session
        .call(() =>
          session
            .client(kind)
            .delete(o.metadata?.namespace, o.metadata!.name!, { propagationPolicy: 'Background' }),
        )
        .then(
          () => false,
          (err: unknown) => {
            if (isNotFound(err)) return true;
            throw err;
          },
        );
      process.stdout.write(`${gone ? 'already gone' : 'removed'} ${describe(o)}\n`);
    }
    process.stdout.write(`✓ oam controller uninstalled from ${session.label}\n`);
    return EXIT.OK;
  } finally {
    session.close();
  }
}

function describe(o: KubeObject): string {
  return `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
}

/** `ns/name` of every Application; none when the CRD is not served. */
async function applications(session: Session): Promise<string[]> {
  try {
    const list = await session.call(() => session.client(APPLICATIONS).list());
    return list.items.map((a) => `${a.metadata?.namespace}/${a.metadata?.name}`);
  } catch (err) {
    if (err instanceof NoKindMatchError || isNotFound(err)) return [];
    throw err;
  }
}
