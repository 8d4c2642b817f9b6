import { evalLimits } from '../target-options.js';
import {
  API_VERSION,
  CONTROLLER_NAMESPACE,
  DEFAULT_SYSTEM_NAMESPACE,
  FIELD_MANAGERS,
  HEARTBEAT_LEASE,
  type Definition,
} from '#api';
import type { KubeObject } from '#kube-core';
import {
  clusterVersionOf,
  DEFAULT_CLUSTER,
  type ClusterInfo,
  type ClusterVersion,
  type SourceFile,
} from '#renderer';
import { isNotFound, NAMESPACES, NoKindMatchError } from '#runtime';
import { isAlive, readHeartbeat } from '../../cluster/heartbeat.js';
import { connect, resolveTarget, targetLine, type Session } from '../../cluster/session.js';
import { namespaceFor } from '../../cluster/target.js';
import { readInputs } from '../../io/read-inputs.js';
import { EXIT } from '../../output/exit-codes.js';
import { Progress } from '../../output/progress.js';
import { UserError } from '../../output/user-error.js';
import { waitHealthy } from '../../status/wait-healthy.js';
import { formatDuration } from '../../output/age.js';
import { isUnknownType, prepare, report, type PlannedObject, type Prepared } from './prepare.js';
import type { UpFlags } from './index.js';

/** Where the controller installs the built-ins and looks after the app's namespace (its --system-namespace default). */

/**
 * validate + render locally → target → preflight (CRDs, controller) →
 * namespaces → apply (definitions, Components, Applications, Traits) → wait → tree.
 * Exit 0 healthy (or applied with --no-wait), 1 invalid input (nothing
 * applied), 2 unhealthy or timed out, 3 cluster problems.
 */
export async function runUp(flags: UpFlags): Promise<number> {
  const files = await readInputs(flags.file);
  const choice = resolveTarget(flags);
  const progress = new Progress();
  progress.say(targetLine(choice));
  // -n, else the kubeconfig context's namespace, for objects that name none (a clash with -n is an error).
  const options = {
    namespace: flags.namespace,
    defaultNamespace: namespaceFor(choice, flags.namespace),
    strict: flags.strict,
    limits: evalLimits(flags),
  };
  progress.activity('validating and rendering locally');
  let prepared = await prepare(files, options);
  progress.activity(undefined);
  // Only a type the cluster may define is worth connecting for; anything else is exit 1 before that.
  if (prepared.errors.length > 0 && !prepared.errors.every(isUnknownType)) {
    report(prepared);
    return EXIT.INVALID;
  }

  const session = await connect(choice, {
    startPlane: true,
    say: (l) => progress.say(l),
    activity: (text) => progress.activity(text),
  });
  try {
    prepared = await withClusterDefinitions(session, files, options, prepared);
    report(prepared);
    if (prepared.errors.length > 0) return EXIT.INVALID;
    const plan = prepared.planned;
    await preflight(session, plan);
    const created = await ensureNamespaces(session, plan, progress, { dryRun: true });
    await dryRun(session, plan, created);
    await ensureNamespaces(session, plan, progress, { dryRun: false });
    const applied = await applyAll(session, plan, progress);
    // A standalone Component deploys as an application of one (or inside the Application referencing it).
    const apps = applied.flatMap((a) =>
      a.kind === 'Application' || a.kind === 'Component' ? [{ ...a, kind: a.kind }] : [],
    );
    if (!flags.wait) {
      for (const a of apps)
        progress.say(`not waiting (--no-wait): \`oam status ${a.name} -n ${a.namespace}\` shows how it goes`);
      return EXIT.OK;
    }
    if (apps.length === 0) return EXIT.OK;
    // Ctrl-C stops the waiting, not the rollout: say so, and how to look again.
    const onInterrupt = () => {
      progress.stop();
      const names = apps.map((a) => `\`oam status ${a.name} -n ${a.namespace}\``).join(', ');
      process.stderr.write(
        `interrupted: stopped waiting; what was applied keeps rolling out (${names} shows it)\n`,
      );
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    try {
      return await waitHealthy(session, apps, flags.timeout, progress);
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
  } finally {
    progress.stop();
    session.close();
  }
}

interface Applied {
  kind: PlannedObject['kind'];
  namespace: string;
  name: string;
  generation?: number;
}

/** Nothing is applied unless every kind is served and, for Applications, a controller is alive. */
async function preflight(session: Session, plan: PlannedObject[]): Promise<void> {
  for (const kind of new Set(plan.map((p) => p.object.kind!))) {
    try {
      await session.call(() => session.mapper.kindFor({ apiVersion: API_VERSION, kind }));
    } catch (err) {
      if (!(err instanceof NoKindMatchError)) throw err;
      throw new UserError(
        session.kind === 'local'
          ? `the local plane does not serve ${kind} (${API_VERSION}): restart it with \`oam server stop\`, then \`oam up\``
          : `the OAM CRDs are not installed on ${session.label} (no ${kind} in ${API_VERSION}): run \`oam install\` (CRDs and the controller), or \`kubectl apply -f deploy/crds/\` and \`oam controller\``,
        EXIT.CLUSTER,
      );
    }
  }
  const beat = await readHeartbeat(session);
  const renewed = beat?.renewedAt ?? NaN;
  if (!isAlive(beat)) {
    const when = Number.isNaN(renewed)
      ? 'has no heartbeat'
      : `last beat ${formatDuration(Date.now() - renewed)} ago`;
    throw new UserError(
      session.kind === 'local'
        ? `the local plane runs no OAM controller (${when}): stop it (\`oam server stop\`) and run \`oam up\` again, or start \`oam controller\` against it`
        : `no OAM controller is running on ${session.label} (Lease ${CONTROLLER_NAMESPACE}/${HEARTBEAT_LEASE} ${when}): start one with \`oam controller --context ...\` and run \`oam up\` again`,
      EXIT.CLUSTER,
    );
  }
}

/**
 * The server's own checks (its schemas, admission, RBAC) on every object
 * before any is written, so a refusal leaves nothing half-applied. Objects
 * in namespaces still to be created cannot be tried yet.
 */
async function dryRun(
  session: Session,
  plan: PlannedObject[],
  missingNamespaces: Set<string>,
): Promise<void> {
  for (const p of plan) {
    if (missingNamespaces.has(p.namespace)) continue;
    const kind = await session.call(() =>
      session.mapper.kindFor(p.object as Required<Pick<KubeObject, 'apiVersion' | 'kind'>>),
    );
    await session.call(() =>
      session.client(kind).apply(p.object, { fieldManager: FIELD_MANAGERS.cli, force: true, dryRun: true }),
    );
  }
}

/** With dryRun: only finds which namespaces are missing. */
async function ensureNamespaces(
  session: Session,
  plan: PlannedObject[],
  progress: Progress,
  options: { dryRun: boolean },
): Promise<Set<string>> {
  const missing = new Set<string>();
  const namespaces = session.client(NAMESPACES);
  for (const ns of new Set(plan.map((p) => p.namespace))) {
    const exists = await session
      .call(() => namespaces.get(undefined, ns))
      .then(() => true)
      .catch((err: unknown) => {
        if (isNotFound(err)) return false;
        throw err;
      });
    if (exists) continue;
    missing.add(ns);
    if (options.dryRun) continue;
    await session.call(() =>
      namespaces.create(
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
        { fieldManager: FIELD_MANAGERS.cli },
      ),
    );
    progress.say(`namespace ${ns} created`);
  }
  return missing;
}

/** Server-side apply as `oam-cli`, forced: the file is the user's intent (`kubectl apply --server-side --force-conflicts`). */
async function applyAll(session: Session, plan: PlannedObject[], progress: Progress): Promise<Applied[]> {
  const applied: Applied[] = [];
  for (const p of plan) {
    const kind = await session.call(() =>
      session.mapper.kindFor(p.object as Required<Pick<KubeObject, 'apiVersion' | 'kind'>>),
    );
    const live = await session.call(() =>
      session.client(kind).apply(p.object, { fieldManager: FIELD_MANAGERS.cli, force: true }),
    );
    const generation = live.metadata?.generation;
    progress.say(
      `applied ${p.kind} ${p.namespace}/${p.name}${generation ? ` (generation ${generation})` : ''}`,
    );
    applied.push({ kind: p.kind, namespace: p.namespace, name: p.name, generation });
  }
  return applied;
}

/**
 * After connecting: when only unknown types stand in the way, prepares again with the
 * definitions the target has (as the controller will resolve them); and for the target's
 * Kubernetes version (`context.clusterVersion`), as the controller will render.
 */
export async function withClusterDefinitions(
  session: Session,
  files: readonly SourceFile[],
  options: Parameters<typeof prepare>[1],
  prepared: Prepared,
): Promise<Prepared> {
  const cluster = targetCluster(session);
  if (prepared.errors.length === 0)
    // Rendered offline for the default version: again for the target's when its major.minor
    // differs (what templates branch on; a second render costs about half a second).
    return sameMinor(cluster.version, DEFAULT_CLUSTER.version)
      ? prepared
      : prepare(files, { ...options, cluster });
  const clusterDefinitions = await readClusterDefinitions(session, prepared.namespaces);
  return prepare(files, { ...options, clusterDefinitions, cluster });
}

/**
 * The ComponentDefinitions and TraitDefinitions the target already has, in
 * the inputs' namespaces and the system namespace, so an app using a
 * definition installed there validates as the controller will resolve it.
 */
async function readClusterDefinitions(session: Session, namespaces: string[]): Promise<Definition[]> {
  const found: Definition[] = [];
  for (const kind of ['ComponentDefinition', 'TraitDefinition']) {
    let resource;
    try {
      resource = await session.call(() => session.mapper.kindFor({ apiVersion: API_VERSION, kind }));
    } catch (err) {
      if (err instanceof NoKindMatchError) continue; // preflight says what to install
      throw err;
    }
    for (const ns of new Set([...namespaces, DEFAULT_SYSTEM_NAMESPACE])) {
      const { items } = await session.call(() => session.client(resource).listAll({ namespace: ns }));
      found.push(...(items as Definition[]));
    }
  }
  return found;
}

/** The cluster templates render for: the target's `/version`, else the fixed default. */
function targetCluster(session: Session): ClusterInfo {
  return session.version
    ? { ...DEFAULT_CLUSTER, version: clusterVersionOf(session.version) }
    : DEFAULT_CLUSTER;
}

function sameMinor(a: ClusterVersion, b: ClusterVersion): boolean {
  return a.major === b.major && a.minor === b.minor;
}
