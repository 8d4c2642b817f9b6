import type { Application, ApplicationStatus, Definition } from '#api';
import { hashOf } from '#kube-core';
import type { JoinedInputs, JoinedPart } from './snapshot.js';

const specs = (parts: Record<string, JoinedPart> | undefined) =>
  Object.fromEntries(Object.entries(parts ?? {}).map(([name, p]) => [name, p.spec]));

export interface Revision {
  name: string;
  revision: number;
  revisionHash: string;
}

/**
 * The revision of a render that keeps no ApplicationRevision (a standalone
 * Component): numbered per distinct rendered input (the spec, the labels and
 * annotations copied onto objects, and every definition used), so an
 * unchanged input keeps its number and any change, a definition's included,
 * gets the next one.
 */
export function nextRevision(
  app: Application,
  definitions: readonly Definition[],
  /** Other rendered inputs: the Components and Traits joined to it (their specs count). */
  joined?: JoinedInputs,
): Revision {
  const revisionHash = hashOf({
    spec: app.spec,
    labels: app.metadata.labels ?? {},
    annotations: app.metadata.annotations ?? {},
    definitions: definitions.map((d) => ({
      kind: d.kind,
      name: d.metadata.name,
      namespace: d.metadata.namespace,
      spec: d.spec,
    })),
    ...(joined === undefined
      ? {}
      : { joined: { components: specs(joined.components), traits: specs(joined.traits) } }),
  }).slice(0, 16);
  const latest = (app.status as ApplicationStatus | undefined)?.latestRevision;
  if (latest?.revisionHash === revisionHash) return { ...latest, revisionHash };
  const revision = (latest?.revision ?? 0) + 1;
  return { name: `${app.metadata.name}-v${revision}`, revision, revisionHash };
}
