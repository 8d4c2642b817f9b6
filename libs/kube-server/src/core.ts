import type { CrdManager } from './resources/crds.js';
import type { Registry } from './resources/registry.js';
import type { Store } from './store/store.js';

export type Logger = (entry: Record<string, unknown>) => void;

/** What every part of the server shares: the store, the served resources, the CRD schemas, the log. */
export interface Core {
  store: Store;
  registry: Registry;
  crds: CrdManager;
  log: Logger;
}

/** Options every write carries (from query parameters, or from an in-process controller). */
export interface WriteOptions {
  dryRun?: boolean;
  /** The field manager: ?fieldManager= or the client's user agent. */
  manager: string;
  force?: boolean;
  /** Strict | Warn | Ignore (kube's fieldValidation). */
  fieldValidation?: string;
  /** Collects warnings for the response's Warning headers (unknown fields under fieldValidation=Warn). */
  warnings?: string[];
  /**
   * An in-process controller's write (the workload simulator): it binds pods by setting
   * spec.nodeName on update, as kube's scheduler does through pods/binding, and its writes skip
   * the built-in kinds' schema checks (see `admit`).
   */
  internal?: boolean;
  /** The body was decoded for this request alone (an HTTP request's): the writer may change it instead of copying it. */
  ownsBody?: boolean;
}
