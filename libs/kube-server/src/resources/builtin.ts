/**
 * The built-in kinds as the rest of the server reads them: the served resources, and lookups of
 * the records in kinds.ts (the one place a built-in kind is defined) by kind, rules, columns,
 * defaults and generation. Discovery, routing, the store and the handlers all read it.
 */
import { apiVersionOf, type GroupVersionKind } from '#kube-core';
import type { Defaulter } from '../objects/defaults.js';
import type { RuleTable } from '../patch/schema/rules.js';
import type { ColumnSpec } from '../table/column-helpers.js';
import { BUILTIN_KINDS, type BuiltinKind } from './kinds.js';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

/** A served resource as discovery describes it: its kind (group '' for core), names, scope and verbs. */
export interface ResourceInfo extends GroupVersionKind {
  plural: string;
  singular: string;
  namespaced: boolean;
  verbs: Verb[];
  shortNames?: string[];
  categories?: string[];
  /** Subresources served besides the main resource. */
  subresources?: Array<'status' | 'scale' | 'finalize' | 'token' | PodConnectSubresource>;
  /** Resources sharing one store under another group/version (HPA v1/v2, events): the stored form's key. */
  storage?: { group: string; plural: string };
  /** Create-only resources that are never stored (TokenReview, SubjectAccessReview). */
  virtual?: boolean;
  /** For CRDs: the defining CRD's name. */
  crd?: string;
}

/** Pod subresources that reach a container (served with an honest refusal: no container runs here). */
export type PodConnectSubresource = 'log' | 'exec' | 'attach' | 'portforward';
export { POD_CONNECT_SUBRESOURCES, BUILTIN_KINDS, type BuiltinKind } from './kinds.js';

/** What the server serves besides CRDs, in discovery's order: the resource part of each record in kinds.ts. */
export const BUILTIN_RESOURCES: ResourceInfo[] = BUILTIN_KINDS.map((k) => k.resource);

const byGvk = new Map(BUILTIN_KINDS.map((k) => [`${k.group}/${k.version}/${k.kind}`, k]));

/** The record of a built-in kind (group '' for core). */
export function findBuiltinKind(gvk: GroupVersionKind): BuiltinKind | undefined {
  return byGvk.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
}

/** The rule table of a built-in kind by `apiVersion/Kind` ("apps/v1/Deployment", "v1/Pod"). */
export const BUILTIN_RULES: ReadonlyMap<string, RuleTable> = new Map(
  BUILTIN_KINDS.map((k) => [`${apiVersionOf(k)}/${k.kind}`, k.rules]),
);

/**
 * By kind name, as the objects' `kind` and the table printer look them up: the kinds served at
 * two versions or in two groups (HorizontalPodAutoscaler, Event) have the same columns and
 * defaults at each (kinds.spec.ts checks).
 */
function byKindName<T>(pick: (k: BuiltinKind) => T | undefined): ReadonlyMap<string, T> {
  const out = new Map<string, T>();
  for (const k of BUILTIN_KINDS) {
    const value = pick(k);
    if (value !== undefined) out.set(k.kind, value);
  }
  return out;
}

/** Printed columns by kind name. */
export const BUILTIN_COLUMNS: ReadonlyMap<string, ColumnSpec[]> = byKindName((k) => k.columns);

/** Defaults by kind name (applied to built-in objects on create and update). */
export const BUILTIN_DEFAULTS: ReadonlyMap<string, Defaulter> = byKindName((k) => k.defaults);

/** The key a resource's objects are stored under ("apps/deployments", "/configmaps"). */
export function storageKey(info: ResourceInfo): string {
  const s = info.storage ?? { group: info.group, plural: info.plural };
  return `${s.group}/${s.plural}`;
}

/** Which version of a shared store is the stored form. */
export function isStorageForm(info: ResourceInfo): boolean {
  return !info.storage;
}

/** `group/Kind` of the kinds whose record says they track metadata.generation. */
const GENERATION_KINDS = new Set(
  BUILTIN_KINDS.filter((k) => k.generation).map((k) => `${k.group}/${k.kind}`),
);

/**
 * Whether the kind's registry strategy sets metadata.generation to 1 on create and bumps it when
 * the spec changes (PrepareForCreate/PrepareForUpdate in kubernetes pkg/registry, plus CRDs and
 * custom resources). Others keep whatever generation they were created with, never bumped.
 */
export function tracksGeneration(info: ResourceInfo): boolean {
  return Boolean(info.crd) || GENERATION_KINDS.has(`${info.group}/${info.kind}`);
}
