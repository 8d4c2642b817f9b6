// The calling thread's Linux thread id, read by a worker at start and sent with its `ready`,
// so that the pool can read that thread's own CPU time (/proc/self/task/<tid>/stat).
import { readFileSync } from 'node:fs';

/**
 * The thread id, or undefined where /proc is not readable (not Linux, a sandbox): the pool
 * then limits evaluations by wall time.
 * @returns {number | undefined}
 */
export function threadId() {
  try {
    // The first field of a stat line is the id itself.
    const tid = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ', 1)[0]);
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined; // no /proc here: the pool says so once and uses wall time
  }
}
