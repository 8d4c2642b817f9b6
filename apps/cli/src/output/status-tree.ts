import type { AppView } from '../status/app-view.js';
import { colorsFor } from './colors.js';

type Colors = ReturnType<typeof colorsFor>;

/**
 * The status tree `oam up` ends with and `oam status` prints:
 *
 *   hello (Application, namespace default): running, healthy, revision hello-v1
 *   └─ hello-web  webservice  healthy  Ready:2/2
 *      ├─ Deployment/hello-web  healthy  2/2 ready
 *      ├─ Service/hello-web  healthy  ClusterIP 10.96.0.10
 *      └─ trait scaler  healthy
 */
export function formatTree(view: AppView, stream: NodeJS.WriteStream = process.stdout): string {
  const pc = colorsFor(stream);
  const lines: string[] = [];
  const head = [
    view.phase ?? 'not reconciled yet',
    view.note ? undefined : health(pc, view.healthy),
    view.revision ? `revision ${view.revision.name}` : undefined,
  ].filter(Boolean);
  lines.push(`${pc.bold(view.name)} (${view.kind}, namespace ${view.namespace}): ${head.join(', ')}`);
  if (view.note) lines.push(`  ${pc.dim(view.note)}`);
  view.components.forEach((c, i) => {
    const lastComponent = i === view.components.length - 1;
    lines.push(
      `${lastComponent ? '└─' : '├─'} ${[pc.bold(c.name), c.type, c.healthy === undefined ? pc.dim('no status yet') : health(pc, c.healthy), c.message].filter(Boolean).join('  ')}`,
    );
    const indent = lastComponent ? '   ' : '│  ';
    const children = [
      ...c.objects
        .filter((o) => !o.trait)
        .map((o) => `${o.kind}/${o.name}  ${health(pc, o.healthy)}  ${o.message}`),
      ...c.traits.map((t) => {
        const objs = c.objects.filter((o) => o.trait === t.type);
        const traitLine = [
          `trait ${t.type}`,
          t.healthy === undefined ? undefined : health(pc, t.healthy),
          t.message,
        ]
          .filter(Boolean)
          .join('  ');
        return [
          traitLine,
          ...objs.map((o) => `  ${o.kind}/${o.name}  ${health(pc, o.healthy)}  ${o.message}`),
        ].join('\n');
      }),
      // Objects of traits the spec no longer lists (still being pruned): shown, not hidden.
      ...c.objects
        .filter((o) => o.trait && !c.traits.some((t) => t.type === o.trait))
        .map((o) => `${o.kind}/${o.name}  ${health(pc, o.healthy)}  ${o.message}  (trait ${o.trait})`),
    ];
    children.forEach((child, j) => {
      const last = j === children.length - 1;
      const [first, ...rest] = child.split('\n');
      lines.push(`${indent}${last ? '└─' : '├─'} ${first}`);
      for (const r of rest) lines.push(`${indent}${last ? '   ' : '│  '}${r}`);
    });
  });
  const failing = view.conditions.filter((c) => c.status !== 'True' && c.type !== 'Supported');
  if (!view.healthy && failing.length > 0) {
    lines.push('conditions:');
    for (const c of failing)
      lines.push(
        `  ${c.type} ${c.status}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

function health(pc: Colors, healthy: boolean): string {
  return healthy ? pc.green('healthy') : pc.yellow('unhealthy');
}
