/** Index helpers shared by the store's label index and the simulator's Service lookups. */

/** The key of one label value in one namespace (NUL cannot occur in either). */
export const labelKey = (namespace: string, key: string, value: string) => `${namespace}\0${key}\0${value}`;

/** Adds `value` to the set at `at`, creating it. */
export function addTo(index: Map<string, Set<string>>, at: string, value: string): void {
  let set = index.get(at);
  if (!set) index.set(at, (set = new Set()));
  set.add(value);
}

/** Removes `value` from the set at `at`; an emptied set is dropped. */
export function removeFrom(index: Map<string, Set<string>>, at: string, value: string): void {
  const set = index.get(at);
  if (set?.delete(value) && !set.size) index.delete(at);
}
