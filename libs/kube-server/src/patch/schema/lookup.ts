/** Field rules for one kind, looked up by schema path. */
import { apiVersionOf, type GroupVersionKind } from '#kube-core';
import {
  BUILT_IN_GROUPS,
  BUILT_IN_RULES,
  OBJECT_META,
  type FieldRule,
  type ListRule,
  type RuleTable,
} from './rules.js';

export interface TypeSchema {
  readonly gvk: GroupVersionKind;
  /** Served from Go structs: strategic merge patch is allowed. */
  readonly builtIn: boolean;
  rule(path: string): FieldRule | undefined;
  /** The list rule at `path`; lists without one are atomic. */
  listRule(path: string): ListRule;
  isAtomicMap(path: string): boolean;
}

const ATOMIC_LIST: ListRule = { kind: 'list', strategy: 'replace', listType: 'atomic' };

/** Go's `schema.GroupVersionKind.String()`: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
export function gvkString(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

const schemas = new Map<string, TypeSchema>();

const customSchemas = new WeakMap<RuleTable, TypeSchema>();

/**
 * The kind's schema, built once per group, version and kind (the rule tables never change); a
 * custom resource's `rules` come from its CRD (openapi-rules.ts), built once per table.
 */
export function schemaFor(gvk: GroupVersionKind, rules?: RuleTable): TypeSchema {
  const own = { group: gvk.group, version: gvk.version, kind: gvk.kind };
  if (rules) {
    let custom = customSchemas.get(rules);
    if (!custom) customSchemas.set(rules, (custom = buildSchema(own, rules)));
    return custom;
  }
  const id = `${apiVersionOf(gvk)}/${gvk.kind}`;
  let schema = schemas.get(id);
  if (!schema) schemas.set(id, (schema = buildSchema(own, BUILT_IN_RULES[id] ?? {})));
  return schema;
}

function buildSchema(gvk: GroupVersionKind, kindRules: RuleTable): TypeSchema {
  const table: RuleTable = { ...OBJECT_META, ...kindRules };
  const rules = new Map(Object.entries(table));
  const rule = (path: string): FieldRule | undefined => rules.get(path);
  return {
    gvk,
    builtIn: BUILT_IN_GROUPS.has(gvk.group),
    rule,
    listRule(path) {
      const found = rule(path);
      return found?.kind === 'list' ? found : ATOMIC_LIST;
    },
    isAtomicMap(path) {
      const found = rule(path);
      return found?.kind === 'map' && found.mapType === 'atomic';
    },
  };
}

/** The schema path of a field below `parent`. */
export function fieldPath(parent: string, name: string): string {
  return parent ? `${parent}.${name}` : name;
}

/** The schema path of the items of the list at `parent`. */
export function itemPath(parent: string): string {
  return `${parent}[]`;
}
