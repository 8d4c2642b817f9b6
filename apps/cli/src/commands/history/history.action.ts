import { connect, resolveTarget, targetLine } from '../../cluster/session.js';
import { namespaceFor } from '../../cluster/target.js';
import { ageOf } from '../../output/age.js';
import { EXIT } from '../../output/exit-codes.js';
import { formatTable, plainTable } from '../../output/table.js';
import type { HistoryFlags } from './index.js';
import { getApp, listRevisions } from './revisions.js';

/** Exit 0 with the table (the target line on stderr keeps stdout clean), 1 when there is no such Application. */
export async function runHistory(name: string, flags: HistoryFlags): Promise<number> {
  const choice = resolveTarget(flags);
  const namespace = namespaceFor(choice, flags.namespace);
  process.stderr.write(`${targetLine(choice)}\n`);
  const session = await connect(choice, { startPlane: false, say: (l) => process.stderr.write(`${l}\n`) });
  try {
    const app = await getApp(session, namespace, name);
    const revisions = await listRevisions(session, namespace, name);
    const live = app.status?.latestRevision?.name;
    if (flags.output === 'json') {
      process.stdout.write(
        `${JSON.stringify(
          revisions.map((r) => ({ ...r, live: r.name === live })),
          null,
          2,
        )}\n`,
      );
      return EXIT.OK;
    }
    if (revisions.length === 0) {
      process.stderr.write(
        `no revisions of ${name} yet (the controller records one per change it renders)\n`,
      );
      return EXIT.OK;
    }
    const table = plainTable(['REVISION', 'CREATED', 'LIVE', 'CHANGE']);
    for (const r of revisions)
      table.push([String(r.revision), ageOf(r.created), r.name === live ? '*' : '', r.change]);
    process.stdout.write(formatTable(table));
    return EXIT.OK;
  } finally {
    session.close();
  }
}
