/** Path of the user's properties in messages, as the renderer locates them. */
export const ROOT = 'properties';

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** Appends a map key or list index: `properties.ports[0].port`, `properties.labels["app.oam.dev/name"]`. */
export function childPath(parent: string, segment: string | number): string {
  if (typeof segment === 'number') return `${parent}[${segment}]`;
  return PLAIN_KEY.test(segment) ? `${parent}.${segment}` : `${parent}[${JSON.stringify(segment)}]`;
}

/**
 * An ajv instancePath (a JSON pointer such as `/ports/0/port`) as a property
 * path. Whether a segment is a list index or a map key comes from the data
 * itself, so a map key "0" stays `.0`-style rather than turning into `[0]`.
 */
export function pointerToPath(pointer: string, data: unknown): string {
  if (pointer === '') return ROOT;
  let path = ROOT;
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) {
      path = childPath(path, Number(key));
      node = node[Number(key)];
    } else {
      path = childPath(path, key);
      node =
        node !== null && typeof node === 'object' && Object.hasOwn(node, key)
          ? (node as Record<string, unknown>)[key]
          : undefined;
    }
  }
  return path;
}
