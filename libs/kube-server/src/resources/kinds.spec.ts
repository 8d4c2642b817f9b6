import { validateBuiltin, unknownFields } from '../validation/index.js';
import {
  BUILTIN_COLUMNS,
  BUILTIN_DEFAULTS,
  BUILTIN_KINDS,
  BUILTIN_RESOURCES,
  findBuiltinKind,
} from './builtin.js';
import { Registry } from './registry.js';

const id = (k: { group: string; version: string; kind: string }) => `${k.group}/${k.version}/${k.kind}`;

describe('the built-in kinds table (kinds.ts): one record per kind', () => {
  it('serves exactly the kinds it validates', () => {
    const served = new Set(
      new Registry()
        .all()
        .filter((r) => !r.crd)
        .map(id),
    );
    const validated = new Set(BUILTIN_KINDS.filter((k) => k.schema && k.model).map(id));
    expect([...served].sort()).toEqual([...validated].sort());
    expect(BUILTIN_RESOURCES.map(id)).toEqual(BUILTIN_KINDS.map(id));
  });

  it.each(BUILTIN_KINDS.map((k) => [id(k), k] as const))('validates %s with its own record', (_, k) => {
    expect(findBuiltinKind(k)).toBe(k);
    expect(k.resource).toMatchObject({ group: k.group, version: k.version, kind: k.kind });
    // Its schema and its field list run (an object missing everything may be invalid, never a crash).
    expect(() => validateBuiltin(k, { metadata: { name: 'x' } })).not.toThrow();
    expect(unknownFields(k, { metadata: { name: 'x' }, notAField: 1 })).toContain('notAField');
  });

  it('names each kind once per version, and each resource path once', () => {
    const kinds = BUILTIN_KINDS.map(id);
    expect(new Set(kinds).size).toBe(kinds.length);
    const paths = BUILTIN_KINDS.map((k) => `${k.group}/${k.version}/${k.resource.plural}`);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives a kind served twice (other version or group) the same columns, defaults and generation at each', () => {
    // Columns and defaults are looked up by kind name (an object's `kind`), generation by group and kind.
    for (const k of BUILTIN_KINDS) {
      if (k.columns) expect(BUILTIN_COLUMNS.get(k.kind)).toBe(k.columns);
      else expect(BUILTIN_COLUMNS.has(k.kind)).toBe(false);
      if (k.defaults) expect(BUILTIN_DEFAULTS.get(k.kind)).toBe(k.defaults);
      else expect(BUILTIN_DEFAULTS.has(k.kind)).toBe(false);
      const sameGroup = BUILTIN_KINDS.filter((o) => o.group === k.group && o.kind === k.kind);
      expect(sameGroup.map((o) => o.generation)).toEqual(sameGroup.map(() => k.generation));
    }
  });

  it('stores a shared kind under a record the table serves', () => {
    for (const k of BUILTIN_KINDS.filter((r) => r.resource.storage)) {
      const { group, plural } = k.resource.storage!;
      const stored = BUILTIN_KINDS.filter(
        (o) => o.group === group && o.resource.plural === plural && !o.resource.storage,
      );
      expect(stored).toHaveLength(1);
    }
  });
});
