import { APPLICATIONS, COMPONENTS } from '#api';
import { eventually } from '#kube-core';
import { isNotFound } from '#runtime';
import { connect, resolveTarget, targetLine } from '../../cluster/session.js';
import { namespaceFor } from '../../cluster/target.js';
import { formatDuration } from '../../output/age.js';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import type { DeleteFlags } from './index.js';

/** Exit 0 deleted (and gone, with --wait), 1 no such object, 2 still there after --timeout, 3 cluster problems. */
export async function runDelete(name: string, flags: DeleteFlags): Promise<number> {
  const choice = resolveTarget(flags);
  const namespace = namespaceFor(choice, flags.namespace);
  process.stdout.write(`${targetLine(choice)}\n`);
  const session = await connect(choice, { startPlane: false, say: (l) => process.stdout.write(`${l}\n`) });
  try {
    for (const kind of [APPLICATIONS, COMPONENTS]) {
      const client = session.client(kind);
      const deleted = await session
        .call(() => client.delete(namespace, name))
        .then(() => true)
        .catch((err: unknown) => {
          if (isNotFound(err)) return false;
          throw err;
        });
      if (!deleted) continue;
      process.stdout.write(`${kind.kind} ${namespace}/${name} deleted\n`);
      if (!flags.wait) return EXIT.OK;
      try {
        await eventually(
          () =>
            client.get(namespace, name).then(
              () => false,
              (err: unknown) => {
                if (isNotFound(err)) return true;
                throw err;
              },
            ),
          `${kind.kind} ${name} to be gone`,
          { timeoutMs: flags.timeout, intervalMs: 200 },
        );
      } catch {
        process.stderr.write(
          `error: ${kind.kind} ${namespace}/${name} is still there after ${formatDuration(flags.timeout)} (its finalizer waits for the controller to remove what it applied: is the controller running?)\n`,
        );
        return EXIT.UNHEALTHY;
      }
      process.stdout.write(`${kind.kind} ${namespace}/${name} and what it applied are gone\n`);
      return EXIT.OK;
    }
    throw new UserError(
      `no Application or Component "${name}" in namespace ${namespace} on ${session.label}`,
      EXIT.INVALID,
    );
  } finally {
    session.close();
  }
}
