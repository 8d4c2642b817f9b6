import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../output/user-error.js';
import { EXIT } from '../output/exit-codes.js';

/** `OAM_HOME` (default ~/.oam): the local plane's record, state and logs. */
export function oamHome(): string {
  return process.env.OAM_HOME || join(homedir(), '.oam');
}

export const planeFile = (home = oamHome()): string => join(home, 'plane.json');
export const defaultStateDir = (home = oamHome()): string => join(home, 'server');
export const logFile = (home = oamHome()): string => join(home, 'logs', 'server.log');
/** The local REST API's tokens (one full-access token, created on first start, mode 0600). */
export const apiTokensFile = (home = oamHome()): string => join(home, 'api-tokens.yaml');
/** Set by `oam up` for the plane it starts in the background, so plane.json can say where its output goes. */
export const LOG_FILE_ENV = 'OAM_PLANE_LOG_FILE';

/**
 * What a client needs to reach the running local plane, written by `oam server`
 * once it serves (and the controller runs), removed when it stops.
 */
export interface PlaneRecord {
  pid: number;
  /** The API server's URL, e.g. https://127.0.0.1:40123. */
  apiServer: string;
  kubeconfig: string;
  stateDir: string;
  version: string;
  startedAt: string;
  /** Whether the OAM controller runs inside it. */
  controller: boolean;
  simulatedWorkloads: boolean;
  /** Where its output goes when `oam up` started it in the background. */
  logFile?: string;
  /** The REST API, when it runs (not with --no-api): its URL and the tokens file holding its bearer token. */
  api?: { url: string; tokensFile: string };
}

/** The record as written, or undefined when there is none (a torn or foreign file counts as none). */
export function readPlane(home = oamHome()): PlaneRecord | undefined {
  const file = planeFile(home);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as PlaneRecord;
    return typeof parsed.pid === 'number' && typeof parsed.apiServer === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole (temporary file, then rename), so a reader never sees half of it. */
export function writePlane(record: PlaneRecord, home = oamHome()): void {
  ensureWritableDir(home);
  const tmp = `${planeFile(home)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, planeFile(home));
}

/** Removes the record, but only this process's (another plane may have replaced it). */
export function removePlane(pid: number, home = oamHome()): void {
  if (readPlane(home)?.pid === pid) rmSync(planeFile(home), { force: true });
}

export function removeStalePlane(home = oamHome()): void {
  rmSync(planeFile(home), { force: true });
}

/** Signal 0 asks the kernel whether the process exists; EPERM means it does, as someone else's. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A plane started by `oam up` outlives its parent; where nothing reaps orphans
 * (a container's init), it lingers as a zombie after exiting, which signal 0 still finds.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

export type PlaneState =
  { state: 'running'; record: PlaneRecord } | { state: 'stale'; record: PlaneRecord } | { state: 'none' };

export function planeState(home = oamHome()): PlaneState {
  const record = readPlane(home);
  if (!record) return { state: 'none' };
  return isAlive(record.pid) ? { state: 'running', record } : { state: 'stale', record };
}

/** One line for a directory that cannot be created or written, instead of an EACCES stack. */
export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const probe = join(dir, `.write-test-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message;
    throw new UserError(
      `cannot write to ${dir} (${why}): set OAM_HOME to a writable directory`,
      EXIT.CLUSTER,
    );
  }
}

export function staleMessage(record: PlaneRecord): string {
  return `removed a stale ${planeFile()} (pid ${record.pid} is not running; the plane at ${record.apiServer} stopped without cleaning up)`;
}
