/**
 * The exit codes of every `oam` command (the README's table is this one):
 * a script can tell "fix your input" from "wait / look at the app" from
 * "fix your cluster access" from "our bug".
 */
export const EXIT = {
  /** Success: applied and healthy, printed, deleted. */
  OK: 0,
  /** Invalid input (a bad file, flag or property): nothing was applied. */
  INVALID: 1,
  /** Applied, but unhealthy or not healthy within --timeout (the message names the component). */
  UNHEALTHY: 2,
  /** The cluster does not answer, the OAM CRDs or controller are missing, or permission denied. */
  CLUSTER: 3,
  /** An internal error (a bug): rerun with -v for the stack trace and report it. */
  INTERNAL: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
