/** The names the control plane's parts find each other by: namespaces, Leases, field managers. */

/**
 * Where definitions shared by every namespace live, unless told otherwise:
 * KubeVela's `vela-system`, so KubeVela users' definitions are found where
 * they keep them, and files exported by `vela def get` (which carry that
 * namespace) are system ones here too.
 */
export const DEFAULT_SYSTEM_NAMESPACE = 'vela-system';

/** The controller's own namespace: its Leases and, on a cluster, its Deployment and the REST API's. */
export const CONTROLLER_NAMESPACE = 'oam-system';
/** The Lease the controller renews while it runs; the CLI reads it to tell whether a controller runs, and which version. */
export const HEARTBEAT_LEASE = 'oam-controller-heartbeat';
/** The Lease whose holder reconciles, when several replicas run with leader election. */
export const LEADER_LEASE = 'oam-controller-leader';

/**
 * The name each program of the platform goes by wherever it shows who acted:
 * its user agent, the source of its Events, the `logger` field of its logs.
 */
export const ACTORS = {
  controller: 'oam-controller',
  cli: 'oam-cli',
  api: 'oam-api',
} as const;

/** Who owns which fields under server-side apply: each writer, by its name. */
export const FIELD_MANAGERS = {
  ...ACTORS,
  /**
   * Holds only fields being handed to someone else (an HPA's `spec.replicas`),
   * so server-side apply keeps them while the controller stops applying them.
   */
  handover: `${ACTORS.controller}-handover`,
} as const;
