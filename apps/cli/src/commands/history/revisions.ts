import { APPLICATION_REVISIONS, APPLICATIONS, LABELS, REVISION_ANNOTATIONS } from '#api';
import type { KubeObject } from '#kube-core';
import { isNotFound } from '#runtime';
import { type Session } from '../../cluster/session.js';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';

/** The controller's contract: one ApplicationRevision `<app>-v<N>` per change, labelled with its app. */
const APP_NAME_LABEL = LABELS.appName;
export const ROLLBACK_ANNOTATION = REVISION_ANNOTATIONS.rollbackTo;

export interface RevisionEntry {
  name: string;
  revision: number;
  created?: string;
  change: string;
}

export type LiveApp = KubeObject & {
  status?: { latestRevision?: { name: string; revision: number } };
};

/** The Application, or exit 1 naming where it was looked for. */
export async function getApp(session: Session, namespace: string, name: string): Promise<LiveApp> {
  try {
    return (await session.call(() => session.client(APPLICATIONS).get(namespace, name))) as LiveApp;
  } catch (err) {
    if (isNotFound(err))
      throw new UserError(
        `no Application "${name}" in namespace ${namespace} on ${session.label}`,
        EXIT.INVALID,
      );
    throw err;
  }
}

/** Its revisions, oldest first. */
export async function listRevisions(
  session: Session,
  namespace: string,
  app: string,
): Promise<RevisionEntry[]> {
  const { items } = await session.call(() =>
    session.client(APPLICATION_REVISIONS).listAll({ namespace, labelSelector: `${APP_NAME_LABEL}=${app}` }),
  );
  return items
    .map((item) => {
      const spec = (item as { spec?: { revision?: number } }).spec;
      return {
        name: item.metadata?.name ?? '',
        revision: spec?.revision ?? 0,
        created: item.metadata?.creationTimestamp,
        change: item.metadata?.annotations?.[REVISION_ANNOTATIONS.changeSummary] ?? '',
      };
    })
    .sort((a, b) => a.revision - b.revision);
}
