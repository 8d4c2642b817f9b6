import { APPLICATIONS, COMPONENTS, type OamResource } from '#api';
import { toKubeYaml } from '#kube-core';
import { isNotFound } from '#runtime';
import { connect, resolveTarget, targetLine, type Session } from '../../cluster/session.js';
import { namespaceFor } from '../../cluster/target.js';
import { EXIT } from '../../output/exit-codes.js';
import { formatTree } from '../../output/status-tree.js';
import { UserError } from '../../output/user-error.js';
import { componentViewOf, fullViewOf, type AppView } from '../../status/app-view.js';
import type { StatusFlags } from './index.js';

/**
 * Exit 0 whether healthy or not (it answers a question; `oam up` is the one that
 * judges), 1 when there is no such Application or Component, 3 for cluster problems.
 * The target line goes to stderr with -o json|yaml, so stdout stays parseable.
 */
export async function runStatus(name: string, flags: StatusFlags): Promise<number> {
  const choice = resolveTarget(flags);
  const namespace = namespaceFor(choice, flags.namespace);
  const line = `${targetLine(choice)}\n`;
  if (flags.output === 'tree') process.stdout.write(line);
  else process.stderr.write(line);
  if (flags.watch && flags.output !== 'tree')
    throw new UserError('--watch shows the tree: leave out -o', EXIT.INVALID);
  const session = await connect(choice, { startPlane: false, say: (l) => process.stderr.write(`${l}\n`) });
  try {
    if (flags.watch) return await watch(name, namespace, session);
    const view = await findView(name, namespace, session);
    if (flags.output === 'json') process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
    else if (flags.output === 'yaml') process.stdout.write(toKubeYaml(view));
    else process.stdout.write(formatTree(view));
    return EXIT.OK;
  } finally {
    session.close();
  }
}

async function findView(
  name: string,
  namespace: string,
  session: Awaited<ReturnType<typeof connect>>,
): Promise<AppView> {
  const get = (kind: OamResource) =>
    session
      .call(() => session.client(kind).get(namespace, name))
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
  const app = await get(APPLICATIONS);
  if (app) return fullViewOf(app as Parameters<typeof fullViewOf>[0], session);
  const component = await get(COMPONENTS);
  if (component) return componentViewOf(component);
  throw new UserError(
    `no Application or Component "${name}" in namespace ${namespace} on ${session.label}`,
    EXIT.INVALID,
  );
}

/**
 * Redraws the tree in place on a terminal; in a pipe, prints it again only
 * when it changed. Runs until Ctrl-C (exit 0) or the object is gone (exit 1).
 */
async function watch(name: string, namespace: string, session: Session): Promise<number> {
  const live = Boolean(process.stdout.isTTY) && !('NO_COLOR' in process.env);
  let last = '';
  let stopped = false;
  process.once('SIGINT', () => (stopped = true));
  while (!stopped) {
    const tree = formatTree(await findView(name, namespace, session));
    if (tree !== last) {
      process.stdout.write(live ? `\x1b[H\x1b[2J${tree}` : `${last ? '\n' : ''}${tree}`);
      last = tree;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return EXIT.OK;
}
