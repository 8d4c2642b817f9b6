/**
 * A dynamic provisioner and the PV binder, as far as a claim's owner can see:
 * a Pending PersistentVolumeClaim is bound to a volume named `pvc-<uid>` and
 * reports phase Bound with its access modes and the requested capacity.
 * (No PersistentVolume objects: this server does not serve them.)
 */
import type { IPersistentVolumeClaimSpec } from 'kubernetes-models/v1/PersistentVolumeClaimSpec';
import { GVR, type Sim } from './sim.js';
import { getObj, writeObj, writeStatus } from './objects.js';
import { deepCopy } from '#kube-core';

export const PVC = 'pvc';
const COMPONENT = 'persistentvolume-controller';

export function reconcileClaim(sim: Sim, namespace: string, name: string): void {
  let claim = getObj(sim, GVR.pvcs, namespace, name);
  if (!claim || claim.metadata.deletionTimestamp) return;
  const spec: IPersistentVolumeClaimSpec = claim.spec ?? {};
  if (claim.status?.phase === 'Bound') return;
  if (!spec.volumeName) {
    const copy = deepCopy(claim);
    copy.spec!.volumeName = `pvc-${claim.metadata.uid}`;
    copy.metadata.annotations = {
      ...(copy.metadata.annotations ?? {}),
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    };
    claim = writeObj(sim, GVR.pvcs, copy);
    sim.event(
      claim,
      'Normal',
      'ProvisioningSucceeded',
      `Successfully provisioned volume pvc-${claim.metadata.uid} (simulated)`,
      COMPONENT,
    );
  }
  const storage = spec.resources?.requests?.storage;
  writeStatus(sim, GVR.pvcs, claim, {
    phase: 'Bound',
    accessModes: spec.accessModes ?? ['ReadWriteOnce'],
    ...(storage ? { capacity: { storage } } : {}),
  });
}
