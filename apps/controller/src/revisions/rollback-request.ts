import { REVISION_ANNOTATIONS } from '#api';
import type { KubeObject } from '#kube-core';

/**
 * The revision number an Application's rollback annotation asks for:
 * "3", "v3" or "<app>-v3". `undefined` when there is no annotation; `NaN`
 * when it is there but names no number.
 */
export function rollbackRequest(app: KubeObject): number | undefined {
  const value = app.metadata?.annotations?.[REVISION_ANNOTATIONS.rollbackTo];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const prefix = `${app.metadata?.name}-`;
  const bare = trimmed.startsWith(prefix) ? trimmed.slice(prefix.length) : trimmed;
  const m = /^v?([1-9][0-9]*)$/.exec(bare);
  return m ? Number(m[1]) : NaN;
}

/** The Application without the rollback annotation (nothing else changed). */
export function withoutRollbackRequest(app: KubeObject): KubeObject {
  const annotations = { ...app.metadata?.annotations };
  delete annotations[REVISION_ANNOTATIONS.rollbackTo];
  return { ...app, metadata: { ...app.metadata, annotations } };
}
