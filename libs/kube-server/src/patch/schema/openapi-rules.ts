/**
 * A custom resource's list and map semantics for server-side apply, read from its CRD's
 * openAPIV3Schema (`x-kubernetes-list-type`, `-list-map-keys`, `-map-type`), in the rule
 * table's paths (`spec.items[].ports`). A list without a list type is atomic, as for SMD.
 */
import { isJsonObject, type JsonObject } from '#kube-core';
import { fieldPath, itemPath } from './lookup.js';
import type { FieldRule, RuleTable } from './rules.js';

const tables = new WeakMap<object, RuleTable>();

/** The rules of one version's schema, read once per schema object (a stored CRD's never changes). */
export function rulesFromOpenApi(schema: object): RuleTable {
  let table = tables.get(schema);
  if (!table) tables.set(schema, (table = readRules(schema as JsonObject)));
  return table;
}

function readRules(root: JsonObject): RuleTable {
  const table: RuleTable = {};
  const walk = (node: unknown, path: string): void => {
    if (!isJsonObject(node)) return;
    const rule = ruleOf(node);
    if (rule && path) table[path] = rule;
    if (isJsonObject(node.properties))
      for (const [name, child] of Object.entries(node.properties)) walk(child, fieldPath(path, name));
    if (node.items !== undefined) walk(node.items, itemPath(path));
  };
  walk(root, '');
  return table;
}

function ruleOf(node: JsonObject): FieldRule | undefined {
  const listType = node['x-kubernetes-list-type'];
  if (listType === 'set') return { kind: 'list', strategy: 'replace', listType: 'set' };
  if (listType === 'map') {
    const keys = Array.isArray(node['x-kubernetes-list-map-keys'])
      ? node['x-kubernetes-list-map-keys'].map(String)
      : [];
    return { kind: 'list', strategy: 'replace', listType: 'map', mapKeys: keys, ...keyDefaults(node, keys) };
  }
  if (node['x-kubernetes-map-type'] === 'atomic') return { kind: 'map', mapType: 'atomic' };
  return undefined;
}

/** Key fields with a default count as set to it when an item leaves them out. */
function keyDefaults(node: JsonObject, keys: string[]): { keyDefaults?: Record<string, unknown> } {
  const properties =
    isJsonObject(node.items) && isJsonObject(node.items.properties) ? node.items.properties : {};
  const defaults: Record<string, unknown> = {};
  for (const key of keys) {
    const property = properties[key];
    if (isJsonObject(property) && property.default !== undefined) defaults[key] = property.default;
  }
  return Object.keys(defaults).length ? { keyDefaults: defaults } : {};
}
