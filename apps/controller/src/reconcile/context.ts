import type { ApplicationStatus } from '#api';
import type { DefinitionCatalog, RendererHandle } from '#renderer';
import type { Clock, KubeObject } from '#kube-core';
import type { Client, EventRecorder, Logger, RestMapper } from '#runtime';
import type { OwnedWatches } from '../host/owned-watches.js';
import type { JoinTarget } from '../join/join.js';
import type { RevisionKeeper } from '../revisions/keeper.js';
import type { Revisions } from '../revisions/revisions.js';
import type { ConditionInput } from '../status/conditions.js';
import type { Workflow } from '../workflow/workflow.js';

/** What the steps use, shared by every reconcile. */
export interface StageDeps {
  client: Client;
  mapper: RestMapper;
  renderer: RendererHandle;
  catalog: DefinitionCatalog;
  events: EventRecorder;
  watches: OwnedWatches;
  /** ApplicationRevisions and rollback, for Applications. */
  revisions: Revisions;
  /** How long a component waits for what it depends on before the controller gives up (--depends-on-timeout). */
  dependsOnTimeoutMs: number;
  /** Time of status stamps and dependsOn deadlines (default the wall clock). */
  clock?: Clock;
  /** What the apply stage applies, and when (default: every component in dependsOn order). */
  workflow?: Workflow;
}

/**
 * Step 1's output: an owner to render (an Application, or a standalone
 * Component deploying as a one-component application), its finalizer set,
 * and what its kind brings to the shared steps.
 */
export interface Loaded {
  owner: KubeObject;
  /** What step 2 joins, from which sources. */
  join: JoinTarget;
  /** The definitions step 3 resolves against (a rollback's stored ones, or the cluster's). */
  catalog: DefinitionCatalog;
  /** Resolve through the memo (Applications) or afresh (standalone Components). */
  memo: boolean;
  /** Fields stored but not run (`spec.policies`, `spec.workflow`): a `Supported: False` condition. */
  unsupported: string[];
  /** The owner kind's own conditions, ahead of the join's (`RenderedBy` for a standalone Component). */
  conditions: ConditionInput[];
  /** Is this live object, no longer wanted, handed to another owner instead of pruned? (a Component taking its objects back) */
  release?: (live: KubeObject) => boolean;
  /** How its revisions are kept: ApplicationRevisions, or numbers only. */
  revisions: RevisionKeeper;
}

/** One reconcile of one owner: what every step reads, and the owner as the steps write it. */
export interface Reconciliation {
  /** `<namespace>/<name>`. */
  key: string;
  log: Logger;
  loaded: Loaded;
  /** The owner as this reconcile last read or wrote it. */
  owner: KubeObject;
  /** Its status as this reconcile found it. */
  previous: ApplicationStatus | undefined;
  /** Set when health read an object whose changes do not reach this owner (or failed to read one). */
  unwatched: boolean;
}
