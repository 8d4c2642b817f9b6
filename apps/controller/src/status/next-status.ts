import type {
  AppliedResource,
  ApplicationPhase,
  ApplicationStatus,
  DependencyWait,
  JoinedPartStatus,
  ServiceStatus,
} from '#api';
import { isTrue, mergeConditions, type ConditionInput } from './conditions.js';

export interface Observation {
  generation?: number;
  /** Render errors (field paths included); empty when the render succeeded. */
  renderErrors: string[];
  /** Set only when this reconcile rendered; otherwise the last good values are kept. */
  revision?: NonNullable<ApplicationStatus['latestRevision']>;
  applyProblems: string[];
  /** The Applied condition's reason when there are problems (default ApplyFailed). */
  applyReason?: string;
  applied?: AppliedResource[];
  services?: ServiceStatus[];
  unsupported: string[];
  /** Components held back by dependsOn; set only when this reconcile rendered. */
  waits?: DependencyWait[];
  /** The standalone Components and Traits joined; set only when this reconcile rendered. */
  joined?: JoinedPartStatus[];
  /** The owner kind's own conditions (joined Components and Traits; DependsOn, Rollback), after the standard ones. */
  extra?: ConditionInput[];
}

/**
 * The Application's next status from what one reconcile observed. A failed
 * render keeps the last good version's services, resources and revision:
 * that version is what still runs.
 */
export function nextStatus(
  previous: ApplicationStatus | undefined,
  o: Observation,
  now: string,
): ApplicationStatus {
  const rendered = o.renderErrors.length === 0;
  const services = o.services ?? previous?.services ?? [];
  const applied = o.applied ?? previous?.appliedResources ?? [];
  const unhealthy = services.filter((s) => !s.healthy);
  // After a failed render this is the health of the last good version, which still runs.
  const healthy = services.length > 0 && unhealthy.length === 0;
  const appliedOk = rendered && o.applyProblems.length === 0;
  const waits = o.waits ?? (rendered ? [] : (previous?.waiting ?? []));
  const waiting = waits.length > 0;
  const joined = o.joined ?? (rendered ? [] : (previous?.joined ?? []));
  const conditions: ConditionInput[] = [
    rendered
      ? {
          type: 'Rendered',
          status: 'True',
          reason: 'Rendered',
          message: o.revision ? `revision ${o.revision.revision}` : undefined,
        }
      : { type: 'Rendered', status: 'False', reason: 'RenderFailed', message: o.renderErrors.join('\n') },
    !rendered
      ? {
          type: 'Applied',
          status: 'False',
          reason: 'RenderFailed',
          message: 'nothing new applied; the last good version keeps running',
        }
      : appliedOk
        ? { type: 'Applied', status: 'True', reason: 'Applied', message: `${applied.length} resources` }
        : {
            type: 'Applied',
            status: 'False',
            reason: o.applyReason ?? 'ApplyFailed',
            message: o.applyProblems.join('\n'),
          },
    healthy
      ? { type: 'Healthy', status: 'True', reason: 'Healthy' }
      : {
          type: 'Healthy',
          status: 'False',
          reason: 'Unhealthy',
          message: unhealthy.map((s) => `${s.name}: ${s.message ?? 'not healthy'}`).join('; ') || undefined,
        },
    rendered && healthy && appliedOk && !waiting
      ? { type: 'Ready', status: 'True', reason: 'Ready' }
      : {
          type: 'Ready',
          status: 'False',
          reason: !rendered
            ? 'RenderFailed'
            : !appliedOk
              ? 'ApplyFailed'
              : waiting
                ? waits.some((w) => w.timedOut)
                  ? 'DependencyTimeout'
                  : 'WaitingForDependencies'
                : 'Unhealthy',
        },
  ];
  if (o.unsupported.length > 0)
    conditions.push({
      type: 'Supported',
      status: 'False',
      reason: 'NotSupported',
      message: `${o.unsupported.join(' and ')}: stored but not run by this controller yet`,
    });
  conditions.push(...(o.extra ?? []));
  const merged = mergeConditions(previous?.conditions, conditions, o.generation, now);
  return {
    status: phaseOf(previous, rendered, rendered && healthy && appliedOk && !waiting, o.generation),
    observedGeneration: o.generation,
    conditions: merged,
    services,
    appliedResources: applied,
    ...((o.revision ?? previous?.latestRevision)
      ? { latestRevision: o.revision ?? previous!.latestRevision }
      : {}),
    ...(waiting ? { waiting: waits } : {}),
    ...(joined.length > 0 ? { joined } : {}),
  };
}

/**
 * `running` when ready; `runningWorkflow` while a new generation rolls out;
 * `unhealthy` when something that was ready at this generation is not any
 * more; `rendering` until a first render succeeds.
 */
function phaseOf(
  previous: ApplicationStatus | undefined,
  rendered: boolean,
  ready: boolean,
  generation: number | undefined,
): ApplicationPhase {
  if (!rendered) return previous?.status && previous.status !== 'deleting' ? previous.status : 'rendering';
  if (ready) return 'running';
  const wasReadyAtThisGeneration =
    isTrue(previous?.conditions, 'Ready') &&
    previous?.conditions?.find((c) => c.type === 'Ready')?.observedGeneration === generation;
  const stillUnhealthy = previous?.status === 'unhealthy' && previous.observedGeneration === generation;
  return wasReadyAtThisGeneration || stillUnhealthy ? 'unhealthy' : 'runningWorkflow';
}
