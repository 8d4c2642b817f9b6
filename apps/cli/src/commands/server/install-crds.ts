import type { KubeConfig } from '@kubernetes/client-node';
import { generateCrds } from '#api';
import { CUSTOM_RESOURCE_DEFINITIONS, KubeTransport, ResourceClient } from '#runtime';
import { type KubeObject } from '#kube-core';

/**
 * Applies the OAM CRDs (the same ones `deploy/crds/` holds, generated from
 * libs/api) so the local plane serves Applications from its first second;
 * server-side apply keeps a later version's schema current on an old state directory.
 */
export async function installOamCrds(kubeConfig: KubeConfig): Promise<number> {
  const transport = new KubeTransport(kubeConfig);
  try {
    const crds = new ResourceClient<KubeObject>(transport, CUSTOM_RESOURCE_DEFINITIONS);
    const all = generateCrds() as KubeObject[];
    for (const crd of all) await crds.apply(crd, { fieldManager: 'oam-server', force: true });
    return all.length;
  } finally {
    transport.close();
  }
}
