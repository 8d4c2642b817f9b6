import {
  REVISION_ANNOTATIONS,
  revisionName,
  type ApplicationRevision,
  type ApplicationStatus,
  type Definition,
  type RevisionPins,
} from '#api';
import { InMemoryCatalog, type DefinitionCatalog } from '#renderer';
import type { Client, EventRecorder, Logger } from '#runtime';
import { createMergePatch, hashOf, type JsonObject, type KubeObject } from '#kube-core';
import { APPLICATIONS } from '#api';
import type { ConditionInput } from '../status/conditions.js';
import type { Revision } from './numbered.js';
import { changeSummary } from './change-summary.js';
import { revisionsToDelete } from './history-cap.js';
import { RevisionStore } from './revision-store.js';
import { rollbackRequest, withoutRollbackRequest } from './rollback-request.js';
import {
  applicationInputs,
  restoredApplication,
  storedDefinitions,
  storedParts,
  takeSnapshot,
  type JoinedInputs,
  type PartPins,
  type Snapshot,
} from './snapshot.js';

export type { Revision };

/** What one reconcile renders: which Application inputs, from which definitions. */
export interface RenderSource {
  /** The Application as rendered: the live one, or the live one with a stored revision's inputs. */
  app: KubeObject;
  catalog: DefinitionCatalog;
  /** The revision this reconcile restores (the rollback annotation asked for it). */
  rollbackTo?: ApplicationRevision;
  /** A rollback that cannot be done, and why (the annotation is cleared already). */
  rejected?: { reason: string; message: string };
  /** The standalone Components and Traits a rollback pins (the join lays them over the live ones). */
  parts?: PartPins;
  /** Whether the definitions are a rollback's stored ones (`catalog` is then theirs). */
  pinsDefinitions?: boolean;
  /** What this render still pins, for its revision: set by the caller after the join. */
  pinned?: RevisionPins;
}

/** The revision a render belongs to, and whether it still has to be written. */
export interface PendingRevision {
  revision: Revision;
  /** Set when the revision is new: what to write once its render succeeded. */
  create?: { summary: string; snapshot: Omit<Snapshot, 'revision'> };
}

export interface RevisionsOptions {
  client: Client;
  events: EventRecorder;
  systemNamespace: string;
  /** At most this many revisions per application, the live one included (--revision-limit). */
  limit: number;
  log?: Logger;
}

/**
 * ApplicationRevisions and rollback (docs/controller.md, "Revisions and
 * rollback"). A revision per distinct rendered input, holding what is needed
 * to render it again exactly; the rollback annotation re-renders a stored one
 * as a new revision and restores the Application's spec to it; a revision a
 * rollback made keeps rendering with its stored definitions until the
 * Application is edited. Every step is idempotent: a crash anywhere is
 * mended by the next reconcile.
 */
export class Revisions {
  private readonly store: RevisionStore;

  constructor(private readonly options: RevisionsOptions) {
    this.store = new RevisionStore(options.client);
  }

  /**
   * What to render. A rollback request is looked up (an unknown revision:
   * the annotation is cleared, a Warning Event names the revisions there
   * are); otherwise the live revision pins its stored definitions when a
   * rollback made it and the Application was not edited since. Returns the
   * Application, updated when the annotation was cleared.
   */
  async source(
    app: KubeObject,
    catalog: DefinitionCatalog,
  ): Promise<{ app: KubeObject; source: RenderSource }> {
    const wanted = rollbackRequest(app);
    let rejected: RenderSource['rejected'];
    if (wanted !== undefined) {
      const own = await this.store.list(app);
      const target = own.find((r) => r.spec.revision === wanted);
      if (target) return { app, source: this.from(app, target, true) };
      const raw = app.metadata?.annotations?.[REVISION_ANNOTATIONS.rollbackTo];
      const available = own.map((r) => r.spec.revision).join(', ') || 'none';
      rejected = {
        reason: 'UnknownRevision',
        message: Number.isNaN(wanted)
          ? `${REVISION_ANNOTATIONS.rollbackTo}: "${raw}" is not a revision number (available: ${available})`
          : `cannot roll back to revision ${wanted}: no such revision (available: ${available})`,
      };
      app = await this.clearRequest(app, rejected);
    }
    const latest = (app.status as ApplicationStatus | undefined)?.latestRevision;
    const live = latest && (await this.store.list(app)).find((r) => r.metadata.name === latest.name);
    const source = live ? this.pinnedBy(app, live, catalog) : { app, catalog };
    return { app, source: { ...source, ...(rejected ? { rejected } : {}) } };
  }

  /**
   * What the live revision still pins: its definitions while the
   * Application's inputs equal its stored ones, and its standalone parts
   * (the join checks each against its live object's generation).
   */
  private pinnedBy(app: KubeObject, live: ApplicationRevision, catalog: DefinitionCatalog): RenderSource {
    // A revision a rollback made before pins were recorded pins its definitions only.
    const pins =
      live.spec.pinned ??
      (live.metadata.annotations?.[REVISION_ANNOTATIONS.rollbackOf] !== undefined
        ? { definitions: true }
        : undefined);
    if (!pins) return { app, catalog };
    const definitions =
      pins.definitions === true &&
      hashOf(applicationInputs(app)) === hashOf(applicationInputs(live.spec.application as KubeObject));
    const source: RenderSource = definitions ? this.from(app, live, false) : { app, catalog };
    const hasParts = Object.keys({ ...pins.components, ...pins.traits }).length > 0;
    if (hasParts)
      source.parts = {
        components: storedParts(live.spec.components),
        traits: storedParts(live.spec.traits),
        at: { components: pins.components, traits: pins.traits },
      };
    return source;
  }

  /**
   * The revision of a render from its resolved inputs: the live one when
   * unchanged (a rollback: only the one it already made), else the next number.
   */
  async next(
    app: KubeObject,
    source: RenderSource,
    definitions: readonly Definition[],
    joined?: JoinedInputs,
  ): Promise<PendingRevision> {
    const snapshot = takeSnapshot(source.app, definitions, joined, source.pinned);
    const latest = (app.status as ApplicationStatus | undefined)?.latestRevision;
    // A rollback is always a new revision (history shows it), even to what runs already.
    if (latest && latest.revisionHash === snapshot.renderHash && !source.rollbackTo)
      return { revision: { ...latest, revisionHash: snapshot.renderHash } };
    const own = await this.store.list(app);
    // Written by a reconcile that did not get to write its status, or (a rollback) to clear the annotation.
    const written = own.find(
      (r) =>
        r.spec.renderHash === snapshot.renderHash &&
        (r.spec.revision > (latest?.revision ?? 0) ||
          (r.metadata.name === latest?.name &&
            source.rollbackTo !== undefined &&
            r.metadata.annotations?.[REVISION_ANNOTATIONS.rollbackOf] ===
              String(source.rollbackTo.spec.revision))),
    );
    if (written) return { revision: identity(written) };
    const number = Math.max(latest?.revision ?? 0, await this.store.highestNumber(app)) + 1;
    const previous = own.find((r) => r.metadata.name === latest?.name);
    const summary = source.rollbackTo
      ? `rollback to v${source.rollbackTo.spec.revision}`
      : changeSummary(previous?.spec, snapshot);
    return {
      revision: {
        name: revisionName(app.metadata!.name!, number),
        revision: number,
        revisionHash: snapshot.renderHash,
      },
      create: { summary, snapshot },
    };
  }

  /** Writes a new revision; called once its render succeeded. */
  async save(app: KubeObject, source: RenderSource, pending: PendingRevision): Promise<void> {
    if (!pending.create) return;
    await this.store.create(
      app,
      { ...pending.create.snapshot, revision: pending.revision.revision },
      {
        [REVISION_ANNOTATIONS.changeSummary]: pending.create.summary,
        ...(source.rollbackTo
          ? { [REVISION_ANNOTATIONS.rollbackOf]: String(source.rollbackTo.spec.revision) }
          : {}),
      },
    );
    this.options.log?.info('revision', { revision: pending.revision.name, change: pending.create.summary });
  }

  /**
   * After the status names the new live revision: a rollback restores the
   * Application's spec, labels and annotations to the revision's (so the
   * next reconcile renders the same, and `kubectl get app -o yaml` shows
   * what runs) and clears its annotation; revisions beyond the limit go,
   * oldest first, never the live one. Returns the Application as written.
   */
  async finish(app: KubeObject, source: RenderSource, pending: PendingRevision): Promise<KubeObject> {
    let current = app;
    if (source.rollbackTo) {
      current = await this.write(app, restoredApplication(app, source.rollbackTo.spec.application));
      this.options.events.event(
        current,
        'Normal',
        'RolledBack',
        `restored revision ${source.rollbackTo.spec.revision} as ${pending.revision.name}`,
      );
    }
    await this.cap(app, pending.revision);
    return current;
  }

  /** A rollback whose revision no longer renders: the annotation is cleared, the reason is said. */
  async abandon(app: KubeObject, source: RenderSource, errors: string[]): Promise<KubeObject> {
    if (!source.rollbackTo) return app;
    source.rejected = {
      reason: 'RollbackFailed',
      message: `revision ${source.rollbackTo.spec.revision} does not render: ${errors.join('; ')}`,
    };
    return this.clearRequest(app, source.rejected);
  }

  /** The `Rollback` condition: this reconcile's rollback (done or refused), else the last one's. */
  condition(
    previous: ApplicationStatus | undefined,
    source: RenderSource,
    pending?: PendingRevision,
  ): ConditionInput | undefined {
    if (source.rejected) return { type: 'Rollback', status: 'False', ...source.rejected };
    if (source.rollbackTo && pending) {
      const n = source.rollbackTo.spec.revision;
      const message = `restored revision ${n} as ${pending.revision.name}`;
      return { type: 'Rollback', status: 'True', reason: 'RolledBack', message };
    }
    const last = previous?.conditions?.find((c) => c.type === 'Rollback');
    return last
      ? { type: last.type, status: last.status, reason: last.reason, message: last.message }
      : undefined;
  }

  /** Rendering a stored revision's application with its definitions; a rollback also pins all its parts. */
  private from(app: KubeObject, revision: ApplicationRevision, rollback: boolean): RenderSource {
    return {
      app: restoredApplication(app, revision.spec.application),
      catalog: new InMemoryCatalog([storedDefinitions(revision.spec)], this.options.systemNamespace),
      pinsDefinitions: true,
      ...(rollback
        ? {
            rollbackTo: revision,
            parts: {
              components: storedParts(revision.spec.components),
              traits: storedParts(revision.spec.traits),
            },
          }
        : {}),
    };
  }

  private async clearRequest(app: KubeObject, why: { reason: string; message: string }): Promise<KubeObject> {
    const updated = await this.write(app, withoutRollbackRequest(app));
    this.options.events.event(updated, 'Warning', why.reason, why.message);
    return updated;
  }

  /**
   * Writes the Application's metadata and spec as a merge patch carrying the
   * resourceVersion it was computed from: a concurrent edit is a 409 and a
   * retry, never lost (and `patch` is what the controller's role grants).
   */
  private write(before: KubeObject, after: KubeObject): Promise<KubeObject> {
    const strip = (o: KubeObject) => ({ metadata: o.metadata, spec: o.spec });
    const patch = createMergePatch(strip(before), strip(after)) as JsonObject;
    patch.metadata = { ...(patch.metadata as JsonObject), resourceVersion: before.metadata?.resourceVersion };
    const { namespace, name } = before.metadata!;
    return this.options.client.patch(APPLICATIONS, namespace, name!, patch, { type: 'merge' });
  }

  private async cap(app: KubeObject, live: Revision): Promise<void> {
    const entries = (await this.store.list(app)).map((r) => ({
      name: r.metadata.name!,
      revision: r.spec.revision,
    }));
    // The cache may not hold the newest revisions yet: those up to the live one were written, so they count.
    const newest = Math.max(0, ...entries.map((e) => e.revision));
    for (let n = newest + 1; n <= live.revision; n++)
      entries.push({ name: revisionName(app.metadata!.name!, n), revision: n });
    for (const name of revisionsToDelete(entries, this.options.limit, new Set([live.name]))) {
      await this.store.delete(app, name);
      this.options.log?.debug('revision deleted (history limit)', {
        revision: name,
        limit: this.options.limit,
      });
    }
  }
}

function identity(r: ApplicationRevision): Revision {
  return { name: r.metadata.name!, revision: r.spec.revision, revisionHash: r.spec.renderHash ?? '' };
}
