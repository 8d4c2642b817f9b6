import { APPLICATIONS, FIELD_MANAGERS } from '#api';
import { connect, resolveTarget, targetLine } from '../../cluster/session.js';
import { namespaceFor } from '../../cluster/target.js';
import { EXIT } from '../../output/exit-codes.js';
import { Progress } from '../../output/progress.js';
import { UserError } from '../../output/user-error.js';
import { waitHealthy } from '../../status/wait-healthy.js';
import { getApp, listRevisions, ROLLBACK_ANNOTATION, type LiveApp } from '../history/revisions.js';
import type { RollbackFlags } from './index.js';

/**
 * Sets `app.oam.dev/rollback-to-revision: N` on the Application (a merge
 * patch: `up`'s applied fields stay as they are); the controller renders
 * revision N as a new revision and clears the annotation. Then waits and
 * reports as `oam up`: exit 0 healthy, 1 no such app or revision, 2
 * unhealthy or not done in --timeout, 3 cluster problems. Rolling back to
 * the live revision is allowed: the controller records it as a new one too.
 */
export async function runRollback(name: string, flags: RollbackFlags): Promise<number> {
  const choice = resolveTarget(flags);
  const namespace = namespaceFor(choice, flags.namespace);
  const progress = new Progress();
  progress.say(targetLine(choice));
  const session = await connect(choice, { startPlane: false, say: (l) => progress.say(l) });
  try {
    const app = await getApp(session, namespace, name);
    const revisions = await listRevisions(session, namespace, name);
    const live = app.status?.latestRevision;
    const liveNumber = live?.revision ?? revisions.find((r) => r.name === live?.name)?.revision;
    const available = revisions.map((r) => r.revision).join(', ') || 'none';
    let to = flags.to;
    if (to === undefined) {
      const before = revisions.filter((r) => liveNumber === undefined || r.revision < liveNumber).at(-1);
      if (!before)
        throw new UserError(
          `${name} has no revision before the live one${live ? ` (${live.name})` : ''} to roll back to (revisions: ${available})`,
          EXIT.INVALID,
        );
      to = before.revision;
    } else if (!revisions.some((r) => r.revision === to)) {
      throw new UserError(
        `${name} has no revision ${to} (revisions: ${available}; see \`oam history ${name}\`)`,
        EXIT.INVALID,
      );
    }
    const patched = await session.call(() =>
      session
        .client(APPLICATIONS)
        .patch(
          namespace,
          name,
          { metadata: { annotations: { [ROLLBACK_ANNOTATION]: String(to) } } },
          { type: 'merge', fieldManager: FIELD_MANAGERS.cli },
        ),
    );
    progress.say(
      `asked the controller to roll ${namespace}/${name} back to revision ${to}${live ? ` (live: ${live.name})` : ''}`,
    );
    if (!flags.wait) {
      progress.say(`not waiting (--no-wait): \`oam status ${name} -n ${namespace}\` shows how it goes`);
      return EXIT.OK;
    }
    const pending = (current: LiveApp): string | undefined => {
      if (current.metadata?.annotations?.[ROLLBACK_ANNOTATION] !== undefined)
        return `waiting for the controller to take the rollback to revision ${to}`;
      if (current.status?.latestRevision?.name === live?.name)
        return `waiting for the controller to render revision ${to} as a new revision`;
      return undefined;
    };
    const code = await waitHealthy(
      session,
      [{ namespace, name, generation: patched.metadata?.generation }],
      flags.timeout,
      progress,
      { pending },
    );
    if (code === EXIT.OK) {
      const now = (await getApp(session, namespace, name)).status?.latestRevision;
      progress.say(`${name} rolled back to revision ${to}${now ? ` (live as ${now.name})` : ''}`);
    }
    return code;
  } finally {
    progress.stop();
    session.close();
  }
}
