/**
 * The printed columns of a resource: each built-in kind's are in its record (resources/kinds.ts,
 * from the per-group printers in columns-*.ts); these are the fallbacks for kinds without one.
 */
import { AGE, CREATED, NAME, type ColumnSpec } from './column-helpers.js';

export type { ColumnSpec } from './column-helpers.js';
/** Columns per built-in kind name, as kube-apiserver's printers define them (what `kubectl get` shows). */
export { BUILTIN_COLUMNS } from '../resources/builtin.js';

/** Resources without a printer get Name and Created At, as kube's default table convertor does. */
export const DEFAULT_COLUMNS: ColumnSpec[] = [NAME, CREATED];
export const CRD_DEFAULT_COLUMNS: ColumnSpec[] = [NAME, AGE];
