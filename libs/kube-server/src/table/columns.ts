/**
 * The printed columns of every built-in kind (what `kubectl get` shows), put
 * together from the per-group lists, plus the fallbacks for kinds without a printer.
 */
import { AGE, CREATED, NAME, type ColumnSpec } from './column-helpers.js';
import { CORE_COLUMNS } from './columns-core.js';
import { OTHER_COLUMNS } from './columns-other.js';
import { WORKLOAD_COLUMNS } from './columns-workloads.js';

export type { ColumnSpec } from './column-helpers.js';

/** Columns per built-in kind, as kube-apiserver's printers define them (what `kubectl get` shows). */
export const BUILTIN_COLUMNS: Record<string, ColumnSpec[]> = {
  ...CORE_COLUMNS,
  ...WORKLOAD_COLUMNS,
  ...OTHER_COLUMNS,
};

/** Resources without a printer get Name and Created At, as kube's default table convertor does. */
export const DEFAULT_COLUMNS: ColumnSpec[] = [NAME, CREATED];
export const CRD_DEFAULT_COLUMNS: ColumnSpec[] = [NAME, AGE];
