import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { EXIT } from '../output/exit-codes.js';
import { UserError } from '../output/user-error.js';
import { defaultStateDir } from '../plane/plane.js';

/** The flags every command that touches a cluster takes. */
export interface TargetFlags {
  kubeconfig?: string;
  context?: string;
  local?: boolean;
}

/**
 * Where a command runs, decided without touching the network. The rule
 * (never a silent switch): a kubeconfig with a current context (from
 * --kubeconfig/--context, else $KUBECONFIG, else ~/.kube/config) is the
 * target, and stays the target when it does not answer; with no kubeconfig
 * at all, or with --local, the local plane.
 */
export type TargetChoice =
  | { kind: 'local'; why: string }
  | {
      kind: 'cluster';
      kubeConfig: KubeConfig;
      context: string;
      server: string;
      file: string;
      /** The context's namespace, kubectl's default for -n. */
      namespace?: string;
    };

/** -n when given, else the context's namespace (as kubectl), else `default`. */
export function namespaceFor(choice: TargetChoice, flag: string | undefined): string {
  return flag ?? (choice.kind === 'cluster' ? choice.namespace : undefined) ?? 'default';
}

export function chooseTarget(flags: TargetFlags, env: NodeJS.ProcessEnv = process.env): TargetChoice {
  if (flags.local) {
    if (flags.kubeconfig || flags.context)
      throw new UserError(
        '--local runs on the local plane: leave out --kubeconfig and --context',
        EXIT.INVALID,
      );
    return { kind: 'local', why: '--local' };
  }
  let file: string | undefined;
  if (flags.kubeconfig) {
    if (!existsSync(flags.kubeconfig))
      throw new UserError(`${flags.kubeconfig}: no such kubeconfig file`, EXIT.INVALID);
    file = flags.kubeconfig;
  } else if (env.KUBECONFIG) {
    // kubectl's rule: a set KUBECONFIG replaces ~/.kube/config; its first existing file is used.
    file = env.KUBECONFIG.split(delimiter).find((f) => f && existsSync(f));
  } else {
    const home = join(env.HOME ?? homedir(), '.kube', 'config');
    if (existsSync(home)) file = home;
  }
  if (!file) {
    if (flags.context)
      throw new UserError(`--context ${flags.context}: no kubeconfig found to take it from`, EXIT.INVALID);
    return { kind: 'local', why: 'no kubeconfig' };
  }
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(file);
  } catch (err) {
    throw new UserError(`cannot read the kubeconfig ${file}: ${(err as Error).message}`, EXIT.INVALID);
  }
  if (flags.context) {
    if (!kc.getContexts().some((c) => c.name === flags.context))
      throw new UserError(
        `no context "${flags.context}" in ${file} (it has: ${
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        })`,
        EXIT.INVALID,
      );
    kc.setCurrentContext(flags.context);
  }
  const context = kc.getCurrentContext();
  if (!context || !kc.getContextObject(context)) {
    if (flags.kubeconfig)
      throw new UserError(`${file} sets no current context: pass --context NAME`, EXIT.INVALID);
    return { kind: 'local', why: `${file} sets no current context` };
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster)
    throw new UserError(
      `context "${context}" in ${file} names no cluster that the file defines`,
      EXIT.INVALID,
    );
  // The local plane's own kubeconfig (the one `oam server` prints) means the local plane.
  if (resolve(file) === resolve(join(defaultStateDir(), 'kubeconfig')) && context === 'oam-local')
    return { kind: 'local', why: file };
  const namespace = kc.getContextObject(context)?.namespace || undefined;
  return { kind: 'cluster', kubeConfig: kc, context, server: cluster.server, file, namespace };
}
