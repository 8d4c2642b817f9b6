import type { CrdManager, PrinterColumn } from '../resources/crds.js';
import { age } from './duration.js';
import { evaluateJsonPath } from './jsonpath.js';
import type { ResourceInfo } from '../resources/builtin.js';
import { type StoredObject } from '#kube-core';
import { BUILTIN_COLUMNS, CRD_DEFAULT_COLUMNS, DEFAULT_COLUMNS, type ColumnSpec } from './columns.js';

export interface TableOptions {
  /** includeObject=None|Metadata|Object (default Metadata). */
  includeObject?: string;
  noHeaders?: boolean;
}

function crdColumn(c: PrinterColumn): ColumnSpec {
  const type = (
    ['integer', 'number', 'boolean', 'date'].includes(c.type) ? c.type : 'string'
  ) as ColumnSpec['type'];
  return {
    name: c.name,
    type,
    priority: c.priority ?? 0,
    description: c.description ?? `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    ...(c.format ? { format: c.format } : {}),
    cell: (obj) => {
      const values = evaluateJsonPath(obj, c.jsonPath);
      if (!values.length) return null;
      const v =
        values.length === 1
          ? values[0]
          : values.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(',');
      if (type === 'date') return age(v);
      if (type === 'string' && typeof v === 'object') return JSON.stringify(v);
      return v;
    },
  };
}

/** The columns kubectl gets for a resource: the built-in printer, the CRD's additionalPrinterColumns, or the default. */
export function columnsFor(info: ResourceInfo, crds: CrdManager): ColumnSpec[] {
  if (info.crd) {
    const custom = crds.printerColumns(info);
    const nameCol = CRD_DEFAULT_COLUMNS[0];
    return custom ? [nameCol, ...custom.map(crdColumn)] : CRD_DEFAULT_COLUMNS;
  }
  return BUILTIN_COLUMNS.get(info.kind) ?? DEFAULT_COLUMNS;
}

function rowObject(obj: StoredObject, includeObject: string): unknown {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** A meta.k8s.io/v1 Table for objects (a list, a single get, or one watch event). */
export function toTable(
  columns: ColumnSpec[],
  objects: StoredObject[],
  listMeta: Record<string, unknown>,
  opts: TableOptions = {},
): Record<string, unknown> {
  const includeObject = opts.includeObject ?? 'Metadata';
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: opts.noHeaders
      ? null
      : columns.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format ?? '',
          description: c.description ?? `${c.name} of the object`,
          priority: c.priority ?? 0,
        })),
    rows: objects.map((obj) => {
      const cells = columns.map((c) => {
        try {
          return c.cell(obj) ?? null;
        } catch (err) {
          return `<error: ${(err as Error).message}>`;
        }
      });
      const object = rowObject(obj, includeObject);
      return object === undefined ? { cells } : { cells, object };
    }),
  };
}
