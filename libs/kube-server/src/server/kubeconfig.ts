import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toKubeYaml } from '#kube-core';

export const CONTEXT_NAME = 'oam-local';

/** Writes <stateDir>/kubeconfig (0600): cluster, user and context `oam-local`, CA data inline. */
export function writeKubeconfig(stateDir: string, url: string, caCert: string, token: string): string {
  const path = join(stateDir, 'kubeconfig');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: CONTEXT_NAME,
        cluster: { server: url, 'certificate-authority-data': Buffer.from(caCert).toString('base64') },
      },
    ],
    users: [{ name: CONTEXT_NAME, user: { token } }],
    contexts: [
      { name: CONTEXT_NAME, context: { cluster: CONTEXT_NAME, user: CONTEXT_NAME, namespace: 'default' } },
    ],
    'current-context': CONTEXT_NAME,
    preferences: {},
  };
  writeFileSync(path, toKubeYaml(config), { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}
