/** Paths of JSON Schema nodes that describe a value but carry no `description`. */
export function schemasWithoutDescription(schema: unknown, path = 'parameters'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const missing: string[] = [];
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  for (const [name, child] of Object.entries(properties)) {
    const childPath = `${path}.${name}`;
    if (typeof (child as { description?: unknown }).description !== 'string') missing.push(childPath);
    missing.push(...schemasWithoutDescription(child, childPath));
  }
  if (node.items) missing.push(...schemasWithoutDescription(node.items, `${path}[]`));
  if (typeof node.additionalProperties === 'object') {
    const extra = node.additionalProperties as { description?: unknown };
    if (typeof extra.description !== 'string') missing.push(`${path}.*`);
    missing.push(...schemasWithoutDescription(extra, `${path}.*`));
  }
  return missing;
}
