import { setPriority } from 'node:os';

/**
 * A worker thread's scheduling priority. On Linux a thread id is a valid target of
 * setpriority(2), and niceness is per thread: a lowered worker yields the CPU to the event
 * loop and to the other workers' ordinary templates, without stopping.
 */
export interface ThreadPriority {
  /** Lowers the thread to the least priority; false if this system refuses. */
  lower(tid: number): boolean;
  /** Back to the ordinary priority; false if refused (raising needs privileges not every process has). */
  restore(tid: number): boolean;
}

const LOWEST = 19;
const ORDINARY = 0;

/** setpriority(2) on the thread id; a refusal (EACCES, EPERM, ESRCH) is answered as false for the caller to act on. */
function trySetPriority(tid: number, priority: number): boolean {
  try {
    setPriority(tid, priority);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SYSTEM_ERROR') return false;
    throw err;
  }
}

export const osThreadPriority: ThreadPriority = {
  lower: (tid) => trySetPriority(tid, LOWEST),
  restore: (tid) => trySetPriority(tid, ORDINARY),
};
