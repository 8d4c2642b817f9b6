import { evalLimits } from '../target-options.js';
import { API_VERSION, FIELD_MANAGERS } from '#api';
import type { KubeObject } from '#kube-core';
import { isNotFound, NoKindMatchError } from '#runtime';
import { connect, resolveTarget, targetLine, type Session } from '../../cluster/session.js';
import { namespaceFor } from '../../cluster/target.js';
import { readInputs } from '../../io/read-inputs.js';
import { colorsFor } from '../../output/colors.js';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import { isUnknownType, prepare, report, type PlannedObject, type Prepared } from '../up/prepare.js';
import { withClusterDefinitions } from '../up/up.action.js';
import type { DiffFlags } from './index.js';
import { unifiedHunks } from './unified-hunks.js';
import { objectTexts } from './object-text.js';

/** `kubectl diff`'s codes: 0 no changes, 1 changes, above 1 an error. */
const DIFF_EXIT = { SAME: 0, CHANGED: 1, INVALID: 2 } as const;

interface ObjectDiff {
  title: string;
  before: KubeObject | undefined;
  after: KubeObject | undefined;
  /** What the before and after sides are, e.g. "live" and "after oam up". */
  sides: [string, string];
}

/**
 * What `oam up -f` would change: each object of the files as the server
 * would store it (server-side dry-run apply as oam-cli, forced, as `up`
 * applies) against the live one, then the objects the controller would
 * create or delete for each Application as rendered now. The diff goes to
 * stdout, the target line and problems to stderr. Invalid input is exit 2
 * here, not 1 (1 means "changes").
 */
export async function runDiff(flags: DiffFlags): Promise<number> {
  try {
    return await diff(flags);
  } catch (err) {
    if (err instanceof UserError && err.exitCode === EXIT.INVALID)
      throw new UserError(err.message, DIFF_EXIT.INVALID);
    throw err;
  }
}

async function diff(flags: DiffFlags): Promise<number> {
  const files = await readInputs(flags.file);
  const choice = resolveTarget(flags);
  process.stderr.write(`${targetLine(choice)}\n`);
  const options = {
    namespace: flags.namespace,
    defaultNamespace: namespaceFor(choice, flags.namespace),
    strict: flags.strict,
    limits: evalLimits(flags),
  };
  let prepared = await prepare(files, options);
  if (prepared.errors.length > 0 && !prepared.errors.every(isUnknownType)) {
    report(prepared);
    return DIFF_EXIT.INVALID;
  }
  const session = await connect(choice, { startPlane: false, say: (l) => process.stderr.write(`${l}\n`) });
  try {
    prepared = await withClusterDefinitions(session, files, options, prepared);
    report(prepared);
    if (prepared.errors.length > 0) return DIFF_EXIT.INVALID;
    const diffs = [
      ...(await appliedDiffs(session, prepared.planned)),
      ...(await renderedDiffs(session, prepared)),
    ];
    let changed = 0;
    for (const d of diffs) if (printDiff(d)) changed++;
    process.stderr.write(
      changed === 0 ? 'no changes\n' : `${changed} object${changed === 1 ? '' : 's'} would change\n`,
    );
    return changed === 0 ? DIFF_EXIT.SAME : DIFF_EXIT.CHANGED;
  } finally {
    session.close();
  }
}

/** Each object of the files: live against the server's dry-run result. */
async function appliedDiffs(session: Session, plan: PlannedObject[]): Promise<ObjectDiff[]> {
  const out: ObjectDiff[] = [];
  for (const p of plan) {
    const kind = await session
      .call(() => session.mapper.kindFor(p.object as Required<Pick<KubeObject, 'apiVersion' | 'kind'>>))
      .catch((err: unknown) => {
        if (!(err instanceof NoKindMatchError)) throw err;
        throw new UserError(
          `${session.label} does not serve ${p.kind} (${API_VERSION}): the OAM CRDs are not installed (\`oam install\`)`,
          EXIT.CLUSTER,
        );
      });
    const client = session.client(kind);
    const live = await getOrUndefined(session, () => client.get(p.namespace, p.name));
    // A namespace that does not exist yet cannot take a dry run: the object as written is what `up` creates.
    const after = await session
      .call(() => client.apply(p.object, { fieldManager: FIELD_MANAGERS.cli, force: true, dryRun: true }))
      .catch((err: unknown) => {
        if (!live && isNotFound(err)) return p.object;
        throw err;
      });
    out.push({
      title: `${p.kind} ${p.namespace}/${p.name}`,
      before: live,
      after,
      sides: [live ? 'live' : 'not on the cluster', 'after oam up'],
    });
  }
  return out;
}

type Ref = { apiVersion: string; kind: string; namespace?: string; name: string };

/**
 * For each Application (or standalone Component) as rendered now: objects
 * the controller would create (not among those it applied) and would delete
 * (applied, no longer rendered). Changes to objects it keeps are its own
 * business (it applies them as oam-controller), not shown here.
 */
async function renderedDiffs(session: Session, prepared: Prepared): Promise<ObjectDiff[]> {
  const out: ObjectDiff[] = [];
  const key = (r: Ref) =>
    `${r.apiVersion.split('/').slice(0, -1).join('/')}|${r.kind}|${r.namespace ?? ''}|${r.name}`;
  for (const rendered of prepared.rendered) {
    const { owner, namespace } = rendered.app;
    const planned = prepared.planned.find(
      (p) => p.kind === owner.kind && p.name === owner.name && p.namespace === namespace,
    );
    if (!planned) continue;
    const kind = await session.call(() =>
      session.mapper.kindFor(planned.object as Required<Pick<KubeObject, 'apiVersion' | 'kind'>>),
    );
    const live = (await getOrUndefined(session, () => session.client(kind).get(namespace, owner.name))) as
      (KubeObject & { status?: { appliedResources?: Ref[] } }) | undefined;
    const applied = new Map(
      (live?.status?.appliedResources ?? []).map((r) => [
        key({ ...r, namespace: r.namespace ?? namespace }),
        r,
      ]),
    );
    const wanted = new Set<string>();
    for (const o of rendered.objects) {
      const object = o.object as KubeObject;
      const ref: Ref = {
        apiVersion: object.apiVersion ?? '',
        kind: object.kind ?? '',
        namespace: object.metadata?.namespace ?? namespace,
        name: object.metadata?.name ?? '',
      };
      wanted.add(key(ref));
      if (applied.has(key(ref))) continue;
      out.push({
        title: `${ref.kind} ${ref.namespace}/${ref.name}`,
        before: undefined,
        after: object,
        sides: ['not on the cluster', `the controller will create it for ${owner.kind} ${owner.name}`],
      });
    }
    for (const [k, ref] of applied) {
      if (wanted.has(k)) continue;
      const object = await readRef(session, { ...ref, namespace: ref.namespace ?? namespace });
      if (!object) continue;
      out.push({
        title: `${ref.kind} ${ref.namespace ?? namespace}/${ref.name}`,
        before: object,
        after: undefined,
        sides: ['live', `the controller will delete it: no longer in ${owner.kind} ${owner.name}`],
      });
    }
  }
  return out;
}

async function readRef(session: Session, ref: Ref): Promise<KubeObject | undefined> {
  try {
    const kind = await session.mapper.kindFor(ref);
    return await getOrUndefined(session, () => session.client(kind).get(ref.namespace, ref.name));
  } catch (err) {
    if (err instanceof NoKindMatchError) return undefined;
    throw err;
  }
}

async function getOrUndefined(
  session: Session,
  get: () => Promise<KubeObject>,
): Promise<KubeObject | undefined> {
  return session.call(get).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
}

/** Prints one object's diff (nothing when unchanged); true when it changed. */
function printDiff(d: ObjectDiff): boolean {
  const [before, after] = objectTexts(d.before, d.after);
  const hunks = unifiedHunks(before, after);
  if (hunks.length === 0) return false;
  const pc = colorsFor(process.stdout);
  const lines = [
    pc.bold(`--- ${d.title} (${d.sides[0]})`),
    pc.bold(`+++ ${d.title} (${d.sides[1]})`),
    ...hunks.map((h) =>
      h.startsWith('@@') ? pc.cyan(h) : h.startsWith('-') ? pc.red(h) : h.startsWith('+') ? pc.green(h) : h,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return true;
}
