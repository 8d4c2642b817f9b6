import { connect, resolveTarget, targetLine, type Session } from '../../cluster/session.js';
import { planeState } from '../../plane/plane.js';
import { EXIT } from '../../output/exit-codes.js';
import { formatTable, plainTable } from '../../output/table.js';
import { builtinDefinitions, clusterDefinitions, descriptionOf, type ListedDefinition } from './catalog.js';
import type { DefLsFlags } from './index.js';

/**
 * From the target when it is a cluster or a running local plane; with no
 * local plane running, the built-ins (what it would install). The target
 * line goes to stderr so stdout stays a clean table.
 */
export async function runDefLs(flags: DefLsFlags): Promise<number> {
  const choice = resolveTarget(flags);
  process.stderr.write(`${targetLine(choice)}\n`);
  let listed: ListedDefinition[];
  if (choice.kind === 'local' && planeState().state !== 'running') {
    process.stderr.write('no local plane is running: showing the built-in definitions\n');
    listed = (await builtinDefinitions()).filter((d) => !flags.type || d.type === flags.type);
  } else {
    const session: Session = await connect(choice, {
      startPlane: false,
      say: (l) => process.stderr.write(`${l}\n`),
    });
    try {
      listed = await clusterDefinitions(session, { namespace: flags.namespace, type: flags.type });
    } finally {
      session.close();
    }
  }
  if (listed.length === 0) {
    process.stderr.write(`no definitions${flags.namespace ? ` in namespace ${flags.namespace}` : ''}\n`);
    return EXIT.OK;
  }
  listed.sort(
    (a, b) =>
      a.type.localeCompare(b.type) ||
      (a.definition.metadata.name ?? '').localeCompare(b.definition.metadata.name ?? '') ||
      (a.namespace ?? '').localeCompare(b.namespace ?? ''),
  );
  const table = plainTable(['NAME', 'TYPE', 'NAMESPACE', 'DESCRIPTION']);
  for (const d of listed)
    table.push([
      d.definition.metadata.name ?? '',
      d.type,
      d.namespace ?? '(built-in)',
      descriptionOf(d.definition),
    ]);
  process.stdout.write(formatTable(table));
  return EXIT.OK;
}
