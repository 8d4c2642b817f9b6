import { compileCrdSchemas, type CrdVersionSchemas, type CustomResourceSchema } from '../validation/index.js';
import type { Logger } from '../core.js';
import type { Registry } from './registry.js';
import type { ResourceInfo, Verb } from './builtin.js';
import type { Store } from '../store/store.js';
import type { ChangeEvent } from '../store/types.js';
import { type StoredObject } from '#kube-core';

export const CRD_KEY = 'apiextensions.k8s.io/customresourcedefinitions';

export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
}

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  subresources?: { status?: object; scale?: ScalePaths };
  additionalPrinterColumns?: PrinterColumn[];
}

interface CrdSpec {
  group: string;
  scope: 'Namespaced' | 'Cluster';
  names: {
    kind: string;
    plural: string;
    singular?: string;
    shortNames?: string[];
    categories?: string[];
    listKind?: string;
  };
  versions: CrdVersion[];
}

interface Served {
  crd: StoredObject;
  schemas: CrdVersionSchemas;
}

const ALL_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Keeps the registry and the compiled schemas in step with the stored CRDs (synchronously, so a new CRD serves at once). */
export class CrdManager {
  private readonly served = new Map<string, Served>();

  constructor(
    private readonly registry: Registry,
    private readonly log: Logger,
  ) {}

  attach(store: Store): void {
    for (const entry of store.list(CRD_KEY)) this.serve(entry.object);
    store.onWrite((event: ChangeEvent) => {
      if (event.resource !== CRD_KEY) return;
      if (event.type === 'DELETED') this.unserve(event.name);
      else this.serve(event.object);
    });
  }

  schemaFor(info: ResourceInfo): CustomResourceSchema | undefined {
    return info.crd ? this.served.get(info.crd)?.schemas.forVersion(info.version) : undefined;
  }

  /** The version objects of this resource are stored in (CRD storage version; the resource's own otherwise). */
  storageVersion(info: ResourceInfo): string {
    if (!info.crd) return info.version;
    const spec = this.served.get(info.crd)?.crd.spec as CrdSpec | undefined;
    return spec?.versions.find((v) => v.storage)?.name ?? info.version;
  }

  /** Where a resource keeps its replicas and selector, for the scale subresource. */
  scalePaths(info: ResourceInfo): ScalePaths | undefined {
    if (!info.crd) return undefined;
    const spec = this.served.get(info.crd)?.crd.spec as CrdSpec | undefined;
    return spec?.versions.find((v) => v.name === info.version)?.subresources?.scale;
  }

  /** A served version's openAPIV3Schema, for /openapi/v3. */
  openApiSchema(info: ResourceInfo): Record<string, unknown> | undefined {
    if (!info.crd) return undefined;
    const spec = this.served.get(info.crd)?.crd.spec as CrdSpec | undefined;
    const version = spec?.versions.find((v) => v.name === info.version) as
      (CrdVersion & { schema?: { openAPIV3Schema?: Record<string, unknown> } }) | undefined;
    return version?.schema?.openAPIV3Schema;
  }

  printerColumns(info: ResourceInfo): PrinterColumn[] | undefined {
    if (!info.crd) return undefined;
    const spec = this.served.get(info.crd)?.crd.spec as CrdSpec | undefined;
    return spec?.versions.find((v) => v.name === info.version)?.additionalPrinterColumns;
  }

  private serve(crd: StoredObject): void {
    const name = crd.metadata.name as string;
    try {
      this.served.set(name, { crd, schemas: compileCrdSchemas(crd) });
    } catch (err) {
      this.log({
        level: 'error',
        msg: 'CRD schema does not compile; serving it without validation',
        crd: name,
        error: String(err),
      });
      this.served.set(name, { crd, schemas: { forVersion: () => undefined } });
    }
    this.registry.setCrd(name, crdResources(crd));
  }

  private unserve(name: string): void {
    this.served.delete(name);
    this.registry.setCrd(name, []);
  }
}

/** The resources a CRD serves: one per served version. */
export function crdResources(crd: StoredObject): ResourceInfo[] {
  const spec = crd.spec as CrdSpec;
  return spec.versions
    .filter((v) => v.served !== false)
    .map((v) => ({
      group: spec.group,
      version: v.name,
      kind: spec.names.kind,
      plural: spec.names.plural,
      singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
      namespaced: spec.scope !== 'Cluster',
      verbs: ALL_VERBS,
      ...(spec.names.shortNames ? { shortNames: spec.names.shortNames } : {}),
      ...(spec.names.categories ? { categories: spec.names.categories } : {}),
      subresources: [
        ...(v.subresources?.status ? (['status'] as const) : []),
        ...(v.subresources?.scale ? (['scale'] as const) : []),
      ],
      crd: crd.metadata.name as string,
    }));
}

/** The status a real apiextensions-apiserver reports once a CRD is accepted and established. */
export function establishedStatus(crd: StoredObject, now: string): Record<string, unknown> {
  const spec = crd.spec as CrdSpec;
  const condition = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    lastTransitionTime: now,
    reason,
    message,
  });
  return {
    conditions: [
      condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
      condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
    ],
    acceptedNames: {
      ...spec.names,
      singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
      listKind: spec.names.listKind ?? `${spec.names.kind}List`,
    },
    storedVersions: spec.versions.filter((v) => v.storage).map((v) => v.name),
  };
}
