/** CPU time of processes and threads from /proc (Linux), for benchmarks that measure from outside. */
import { readdirSync, readFileSync } from 'node:fs';
import { statCpuMs } from '#kube-core';

/** User + system CPU in ms from a /proc stat file (the renderer's parser, which limits evaluations by it). */
function statFileCpuMs(path: string): number {
  return statCpuMs(readFileSync(path, 'utf8'));
}

/** CPU time (user + sys) a process used so far, in ms. */
export function cpuMs(pid: number): number {
  return statFileCpuMs(`/proc/${pid}/stat`);
}

/** CPU time (user + sys) of each thread of a process so far, in ms, by thread id. */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(Number(tid), statFileCpuMs(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** CPU used by each thread of a process between two `threadCpuMs` readings: its main thread and the others (busiest first). */
export function threadSplit(
  from: Map<number, number>,
  to: Map<number, number>,
  pid: number,
): { main: number; others: number[] } {
  const used = (tid: number) => (to.get(tid) ?? 0) - (from.get(tid) ?? 0);
  const others = [...to.keys()].filter((tid) => tid !== pid).map(used);
  return { main: used(pid), others: others.sort((a, b) => b - a) };
}
