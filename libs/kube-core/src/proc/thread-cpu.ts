import { readFileSync } from 'node:fs';

/**
 * User + system CPU in ms from the text of a /proc stat file (fields 14 and 15 of proc(5),
 * in clock ticks of 10 ms). Counted from after the command name, which may itself hold
 * spaces and parentheses.
 */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The CPU time one thread of this process has used so far, in ms, or undefined when it
 * cannot be read (no /proc, or the thread has ended).
 */
export function threadCpuMs(tid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  } catch {
    return undefined; // the caller falls back to wall time, and says so
  }
  return statCpuMs(stat);
}
