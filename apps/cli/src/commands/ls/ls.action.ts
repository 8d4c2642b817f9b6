import { APPLICATIONS } from '#api';
import type { KubeObject } from '#kube-core';
import { connect, resolveTarget, targetLine } from '../../cluster/session.js';
import { namespaceFor } from '../../cluster/target.js';
import { ageOf } from '../../output/age.js';
import { EXIT } from '../../output/exit-codes.js';
import { formatTable, plainTable } from '../../output/table.js';
import { viewOf } from '../../status/app-view.js';
import type { LsFlags } from './index.js';

/** One row per component, as `vela ls` prints them; the target line on stderr keeps stdout a clean table. */
export async function runLs(flags: LsFlags): Promise<number> {
  const choice = resolveTarget(flags);
  const namespace = namespaceFor(choice, flags.namespace);
  process.stderr.write(`${targetLine(choice)}\n`);
  const session = await connect(choice, { startPlane: false, say: (l) => process.stderr.write(`${l}\n`) });
  try {
    const apps = session.client(APPLICATIONS);
    const { items } = await session.call(() =>
      apps.listAll({ namespace: flags.allNamespaces ? undefined : namespace }),
    );
    if (items.length === 0) {
      process.stderr.write(
        flags.allNamespaces ? 'no Applications\n' : `no Applications in namespace ${namespace}\n`,
      );
      return EXIT.OK;
    }
    const head = ['APP', 'COMPONENT', 'TYPE', 'TRAITS', 'PHASE', 'HEALTHY', 'STATUS', 'AGE'];
    const table = plainTable(flags.allNamespaces ? ['NAMESPACE', ...head] : head);
    const sorted = [...items].sort((a, b) =>
      `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(
        `${b.metadata?.namespace}/${b.metadata?.name}`,
      ),
    );
    for (const app of sorted) {
      const view = viewOf(app as KubeObject as Parameters<typeof viewOf>[0]);
      const age = ageOf(app.metadata?.creationTimestamp);
      view.components.forEach((c, i) => {
        const first = i === 0;
        const appCell = first ? view.name : i === view.components.length - 1 ? '└─' : '├─';
        const row = [
          appCell,
          c.name,
          c.type,
          c.traits.map((t) => t.type).join(',') || '',
          first ? (view.phase ?? '') : '',
          c.healthy === undefined ? '' : String(c.healthy),
          c.message ?? '',
          first ? age : '',
        ];
        table.push(flags.allNamespaces ? [first ? view.namespace : '', ...row] : row);
      });
    }
    process.stdout.write(formatTable(table));
    return EXIT.OK;
  } finally {
    session.close();
  }
}
