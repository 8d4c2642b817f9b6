import type { Application, ApplicationStatus, Definition, RevisionPins } from '#api';
import type { KubeObject } from '#kube-core';
import type { ConditionInput } from '../status/conditions.js';
import { nextRevision, type Revision } from './numbered.js';
import type { PendingRevision, RenderSource, Revisions } from './revisions.js';
import type { JoinedInputs } from './snapshot.js';

/**
 * How one reconcile keeps its owner's revisions: ApplicationRevisions with
 * rollback for an Application (StoredRevisions), numbers only for a
 * standalone Component (NumberedRevisions).
 */
export interface RevisionKeeper {
  /** Whether every input of this render has a version to compare (a rollback's stored definitions have none). */
  readonly comparable: boolean;
  /** The revision a render of these inputs belongs to: the live one when unchanged, else the next number. */
  begin(
    owner: KubeObject,
    definitions: readonly Definition[],
    joined: JoinedInputs | undefined,
    pinned: RevisionPins | undefined,
  ): Promise<RevisionRecord>;
  /** A render that failed: a rollback to it is given up. The owner as written and its Rollback condition. */
  renderFailed(
    owner: KubeObject,
    errors: string[],
  ): Promise<{ owner: KubeObject; conditions: ConditionInput[] }>;
}

/** One render's revision, from step 4 (its name is rendered) to step 10. */
export interface RevisionRecord {
  revision: Revision;
  /** Whether this reconcile writes it (a new revision). */
  readonly isNew: boolean;
  /** Step 5: writes a new revision, once its render succeeded. */
  record(): Promise<void>;
  /** The owner's Rollback condition, if any. */
  conditions(previous: ApplicationStatus | undefined): ConditionInput[];
  /** After the status names it: a rollback restores the spec, old revisions go. The owner as written. */
  finish(owner: KubeObject): Promise<KubeObject>;
}

/** An Application's: ApplicationRevisions, rendered from `source` (its own inputs, or a stored revision's). */
export class StoredRevisions implements RevisionKeeper {
  constructor(
    private readonly revisions: Revisions,
    private readonly source: RenderSource,
  ) {}

  get comparable(): boolean {
    const { source } = this;
    return !source.rollbackTo && !source.rejected && !source.pinsDefinitions;
  }

  async begin(
    owner: KubeObject,
    definitions: readonly Definition[],
    joined: JoinedInputs | undefined,
    pinned: RevisionPins | undefined,
  ): Promise<RevisionRecord> {
    const { revisions, source } = this;
    source.pinned = pinned;
    const pending: PendingRevision = await revisions.next(owner, source, definitions, joined);
    return {
      revision: pending.revision,
      isNew: pending.create !== undefined,
      record: () => revisions.save(owner, source, pending),
      conditions: (previous) => optional(revisions.condition(previous, source, pending)),
      finish: (written) => revisions.finish(written, source, pending),
    };
  }

  async renderFailed(owner: KubeObject, errors: string[]) {
    const abandoned = await this.revisions.abandon(owner, this.source, errors);
    const previous = abandoned.status as ApplicationStatus | undefined;
    return { owner: abandoned, conditions: optional(this.revisions.condition(previous, this.source)) };
  }
}

/** A standalone Component's: numbered, nothing stored. */
export class NumberedRevisions implements RevisionKeeper {
  readonly comparable = true;

  async begin(
    owner: KubeObject,
    definitions: readonly Definition[],
    joined: JoinedInputs | undefined,
  ): Promise<RevisionRecord> {
    return {
      revision: nextRevision(owner as Application, definitions, joined),
      isNew: false,
      record: async () => undefined,
      conditions: () => [],
      finish: async (written) => written,
    };
  }

  async renderFailed(owner: KubeObject) {
    return { owner, conditions: [] };
  }
}

const optional = <T>(v: T | undefined): T[] => (v === undefined ? [] : [v]);
