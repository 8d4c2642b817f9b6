import type { Definition } from '#api';
import { hashOf, type KubeObject } from '#kube-core';
import { isAlreadyExists, isConflict, isNotFound, NAMESPACES, type Client, type Logger } from '#runtime';
import {
  ANNOTATIONS,
  COMPONENT_DEFINITIONS,
  FIELD_MANAGERS,
  INSTALLED_BY_LABEL,
  TRAIT_DEFINITIONS,
} from '#api';

export interface InstallReport {
  created: string[];
  upgraded: string[];
  /** Installed by us, then edited by someone: left as they are. */
  keptEdited: string[];
  /** Not installed by us (a user's or KubeVela's of the same name): never touched. */
  foreign: string[];
}

const contentHash = (d: KubeObject): string => hashOf(d.spec ?? {}).slice(0, 16);

/**
 * Installs the built-in definitions into the system namespace. The
 * controller is their only installer: it marks what it installs (a label and
 * the hash of the spec it wrote), upgrades only objects it installed that
 * nobody edited since (their spec still hashes to the recorded value), and
 * never touches any other definition. Unchanged ones cost one read each, no write.
 */
export async function installBuiltins(
  client: Client,
  builtins: readonly Definition[],
  namespace: string,
  log: Logger,
): Promise<InstallReport> {
  await ensureNamespace(client, namespace);
  const report: InstallReport = { created: [], upgraded: [], keptEdited: [], foreign: [] };
  for (const def of builtins) {
    const kind = def.kind === 'ComponentDefinition' ? COMPONENT_DEFINITIONS : TRAIT_DEFINITIONS;
    const resource = client.resource<KubeObject>(kind); // the installer writes plain objects
    const name = def.metadata.name!;
    const id = `${def.kind}/${name}`;
    const desired = {
      ...def,
      metadata: {
        ...def.metadata,
        namespace,
        labels: { ...def.metadata.labels, [INSTALLED_BY_LABEL]: FIELD_MANAGERS.controller },
        annotations: {
          ...def.metadata.annotations,
          [ANNOTATIONS.contentHash]: contentHash(def as KubeObject),
        },
      },
    } as KubeObject;
    const live = await resource.get(namespace, name).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!live) {
      await resource.create(desired).catch((err: unknown) => {
        if (!isAlreadyExists(err)) throw err; // another replica installed it first
      });
      report.created.push(id);
      continue;
    }
    if (live.metadata?.labels?.[INSTALLED_BY_LABEL] !== FIELD_MANAGERS.controller) {
      report.foreign.push(id);
      continue;
    }
    const recorded = live.metadata?.annotations?.[ANNOTATIONS.contentHash];
    if (recorded !== contentHash(live)) {
      report.keptEdited.push(id);
      continue;
    }
    if (recorded === desired.metadata!.annotations![ANNOTATIONS.contentHash]) continue;
    const upgraded = await resource
      .update({
        ...desired,
        metadata: { ...desired.metadata, resourceVersion: live.metadata?.resourceVersion },
      })
      .then(
        () => true,
        (err: unknown) => {
          if (isConflict(err)) return false; // changed since read (another replica upgrading it): leave it
          throw err;
        },
      );
    if (upgraded) report.upgraded.push(id);
  }
  log.info('built-in definitions installed', { namespace, ...countsOf(report) });
  if (report.keptEdited.length > 0)
    log.warn('built-in definitions edited since installed; not upgraded', { definitions: report.keptEdited });
  return report;
}

export async function ensureNamespace(client: Client, name: string): Promise<void> {
  const namespaces = client.resource(NAMESPACES);
  const exists = await namespaces.get(undefined, name).then(
    () => true,
    (err: unknown) => {
      if (isNotFound(err)) return false;
      throw err;
    },
  );
  if (exists) return;
  await namespaces
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
    .catch((err: unknown) => {
      if (!isAlreadyExists(err)) throw err;
    });
}

function countsOf(r: InstallReport): Record<string, number> {
  return {
    created: r.created.length,
    upgraded: r.upgraded.length,
    keptEdited: r.keptEdited.length,
    foreign: r.foreign.length,
  };
}
