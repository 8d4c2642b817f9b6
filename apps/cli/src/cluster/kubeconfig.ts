import { existsSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../output/user-error.js';

/** `--kubeconfig`/`--context` (else $KUBECONFIG or ~/.kube/config) for commands that run against one cluster; each problem one line. */
export function loadKubeConfig(flags: { kubeconfig?: string; context?: string }): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (flags.kubeconfig) {
      if (!existsSync(flags.kubeconfig)) throw new UserError(`${flags.kubeconfig}: no such kubeconfig file`);
      kc.loadFromFile(flags.kubeconfig);
    } else kc.loadFromDefault();
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot read the kubeconfig: ${(err as Error).message}`);
  }
  if (flags.context) {
    if (!kc.getContexts().some((c) => c.name === flags.context))
      throw new UserError(
        `no context "${flags.context}" in the kubeconfig (it has: ${
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        })`,
      );
    kc.setCurrentContext(flags.context);
  }
  if (!kc.getCurrentCluster())
    throw new UserError(
      'the kubeconfig names no cluster: pass --kubeconfig or set KUBECONFIG (oam server prints one)',
    );
  return kc;
}

/** A connection that never got an answer (refused, unknown host, TLS), as opposed to an answer refusing. */
export function isConnectionError(err: unknown): boolean {
  const code =
    (err as { code?: unknown; cause?: { code?: unknown } })?.cause?.code ?? (err as { code?: unknown })?.code;
  return (
    typeof code === 'string' &&
    /^(ECONNREFUSED|ENOTFOUND|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|CERT_|DEPTH_ZERO|UNABLE_TO)/.test(code)
  );
}
