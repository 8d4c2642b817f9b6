import { join } from 'node:path';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { CUSTOM_RESOURCE_DEFINITIONS, isNotFound, ResourceClient, type ResourceKind } from '#runtime';
import { connect, resolveTarget, targetLine, type Session } from '../../cluster/session.js';
import { EXIT } from '../../output/exit-codes.js';
import { Progress } from '../../output/progress.js';
import { UserError } from '../../output/user-error.js';
import { applyObjects } from './apply-objects.js';
import { readDeploy } from './deploy-manifests.js';
import type { InstallFlags } from './index.js';

export const DEPLOYMENTS: ResourceKind = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
};

/** The kubebuilder annotation every KubeVela CRD carries and ours do not. */
const KUBEBUILDER = 'controller-gen.kubebuilder.io/version';

/**
 * target → read deploy/ → refuse over KubeVela → server-side dry run →
 * apply (as `oam-cli`) → wait for every Deployment (the controller's, the
 * API's) to be available.
 * Exit 0 installed, 1 bad input or the local plane, 2 not available within
 * --timeout, 3 cluster problems (unreachable, forbidden, KubeVela there).
 */
export async function runInstall(flags: InstallFlags): Promise<number> {
  const choice = resolveTarget(flags);
  const progress = new Progress();
  progress.say(targetLine(choice));
  if (choice.kind === 'local')
    throw new UserError(
      'the local plane runs its own controller; `oam install` is for a cluster: pass --kubeconfig or --context',
      EXIT.INVALID,
    );
  let objects: KubeObject[];
  try {
    objects = readDeploy(join(projectRoot(), 'deploy'), { image: flags.image }).map((o) => o.object);
  } catch (err) {
    throw new UserError(`deploy/: ${(err as Error).message}`, EXIT.INVALID);
  }
  const session = await connect(choice, { startPlane: false, say: (l) => progress.say(l) });
  try {
    await refuseOverKubeVela(session, objects);
    await session.call(() => applyObjects(session.transport, objects, { dryRun: true }));
    await session.call(() =>
      applyObjects(session.transport, objects, {
        onApplied: (o) =>
          progress.say(
            `applied ${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`,
          ),
      }),
    );
    if (!flags.wait) {
      progress.say(
        'not waiting (--no-wait): `kubectl -n oam-system rollout status deploy/oam-controller deploy/oam-api` shows it',
      );
      return EXIT.OK;
    }
    const deployments = objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata!);
    return await waitAvailable(session, deployments, flags.timeout, progress);
  } finally {
    progress.stop();
    session.close();
  }
}

async function refuseOverKubeVela(session: Session, objects: KubeObject[]): Promise<void> {
  const crds = session.client(CUSTOM_RESOURCE_DEFINITIONS);
  for (const o of objects.filter((x) => x.kind === 'CustomResourceDefinition')) {
    const live = await session
      .call(() => crds.get(undefined, o.metadata!.name!))
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
    if (live?.metadata?.annotations?.[KUBEBUILDER])
      throw new UserError(
        `KubeVela's CRDs are installed on ${session.label} (${o.metadata!.name} was made by controller-gen ${live.metadata.annotations[KUBEBUILDER]}): this platform would replace them under KubeVela's controller; uninstall KubeVela first, or use another cluster`,
        EXIT.CLUSTER,
      );
  }
}

/** Until each Deployment's current generation is rolled out and Available; exit 2 on --timeout. */
async function waitAvailable(
  session: Session,
  wanted: { namespace?: string; name?: string }[],
  timeoutMs: number,
  progress: Progress,
): Promise<number> {
  const deployments = new ResourceClient(session.transport, DEPLOYMENTS);
  const last = new Map(wanted.map((d) => [d.name!, 'not observed yet']));
  let waitingFor = wanted[0];
  try {
    await eventually(
      async () => {
        for (const w of wanted) {
          const d = await session.call(() => deployments.get(w.namespace, w.name!));
          const { ready, message } = availability(d);
          if (message !== last.get(w.name!))
            progress.update([{ key: w.name!, text: `${w.name}: ${message}` }]);
          last.set(w.name!, message);
          if (!ready) {
            waitingFor = w;
            return false;
          }
        }
        return true;
      },
      'the Deployments to be available',
      { timeoutMs, intervalMs: 500 },
    );
  } catch (err) {
    if (err instanceof UserError) throw err;
    progress.stop();
    const { namespace, name } = waitingFor;
    process.stderr.write(
      `error: Deployment ${namespace}/${name} is not available after ${Math.round(timeoutMs / 1000)} s: ${last.get(name!)}; \`kubectl -n ${namespace} describe deploy/${name}\` and its pods' events say why (often: the image cannot be pulled; pass --image)\n`,
    );
    return EXIT.UNHEALTHY;
  }
  progress.stop();
  const figures = wanted.map((w) => `${w.name} ${last.get(w.name!)}`).join(', ');
  progress.say(`✓ oam installed and available (${figures}) on ${session.label}`);
  return EXIT.OK;
}

export function availability(d: KubeObject): { ready: boolean; message: string } {
  const spec = d.spec as { replicas?: number } | undefined;
  const status = (d.status ?? {}) as {
    observedGeneration?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    conditions?: { type: string; status: string; message?: string }[];
  };
  const want = spec?.replicas ?? 1;
  const available = status.availableReplicas ?? 0;
  const updated = status.updatedReplicas ?? 0;
  const rolledOut = (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) && updated >= want;
  const progressing = status.conditions?.find((c) => c.type === 'Progressing' && c.status === 'False');
  const message = progressing?.message ?? `${available}/${want} replicas available`;
  return { ready: rolledOut && available >= want, message };
}
