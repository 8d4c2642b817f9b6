import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '#kube-core';
import { EXIT } from '../output/exit-codes.js';
import { ensureLayout } from './layout.js';
import { UserError } from '../output/user-error.js';
import {
  ensureWritableDir,
  isAlive,
  logFile,
  oamHome,
  planeState,
  readPlane,
  removeStalePlane,
  staleMessage,
  type PlaneRecord,
  LOG_FILE_ENV,
} from './plane.js';

export interface EnsurePlaneOptions {
  /** Told what happens: "starting the local plane…", a stale record removed. */
  say: (line: string) => void;
  /** How long a cold start may take (certificates, CRDs, built-in definitions). */
  timeoutMs?: number;
  /** Told what is being waited for (a terminal's spinner), and undefined when the wait is over. */
  activity?: (text: string | undefined) => void;
}

/**
 * The running local plane, started in the background when none runs:
 * `oam server --port 0` detached, its output appended to
 * `$OAM_HOME/logs/server.log`, ready once it has written plane.json (which it
 * does after the API server serves and the controller runs).
 */
export async function ensurePlane(
  options: EnsurePlaneOptions,
): Promise<{ record: PlaneRecord; started: boolean }> {
  const state = planeState();
  if (state.state === 'running') return { record: state.record, started: false };
  const home = oamHome();
  ensureWritableDir(home);
  for (const line of ensureLayout(home)) options.say(line);
  // Two `oam up` at once must not start two planes on one state directory: one starts, the other waits.
  const lock = join(home, 'plane.lock');
  const timeoutMs = options.timeoutMs ?? 90_000;
  const owner = await eventually(
    () => {
      const now = planeState(home);
      if (now.state === 'running') return { record: now.record };
      return tryLock(lock) ? { record: undefined } : undefined;
    },
    'another oam up to finish starting the local plane',
    { timeoutMs, intervalMs: 100 },
  ).catch(() => {
    throw new UserError(
      `another oam is starting the local plane and it is not ready after ${timeoutMs / 1000} s (lock ${lock}; see ${logFile(home)})`,
      EXIT.CLUSTER,
    );
  });
  if (owner.record) {
    options.say(`local plane ready at ${owner.record.apiServer} (started by another oam at the same time)`);
    return { record: owner.record, started: false };
  }
  try {
    return await startPlane(home, options);
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Takes the start lock (a file holding our pid); a lock whose process is gone is taken over. */
function tryLock(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const holder = Number(readFileSync(lock, 'utf8').trim());
    if (!Number.isInteger(holder) || holder <= 0 || !isAlive(holder)) rmSync(lock, { force: true });
    return false;
  }
}

async function startPlane(
  home: string,
  options: EnsurePlaneOptions,
): Promise<{ record: PlaneRecord; started: boolean }> {
  const state = planeState(home);
  if (state.state === 'stale') {
    options.say(staleMessage(state.record));
    removeStalePlane(home);
  }
  const log = logFile(home);
  ensureWritableDir(dirname(log));
  const fd = openSync(log, 'a');
  const logStart = statSync(log).size;
  writeSync(fd, `--- ${new Date().toISOString()} oam up: starting the local plane\n`);
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const child = spawn(process.execPath, [main, 'server', '--port', '0'], {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, OAM_HOME: home, [LOG_FILE_ENV]: log },
  });
  closeSync(fd);
  let exited: number | null | undefined;
  child.on('exit', (code, signal) => (exited = code ?? (signal ? 128 : null)));
  child.on('error', () => (exited = -1));
  child.unref();
  options.say(`starting the local plane in the background (logs: ${log})`);
  options.activity?.('starting the local plane: API server, CRDs, controller');
  try {
    const record = await eventually(
      () => {
        if (exited !== undefined) throw new PlaneExited(exited);
        const r = readPlane(home);
        return r && r.pid === child.pid ? r : undefined;
      },
      'the local plane to start',
      { timeoutMs: options.timeoutMs ?? 90_000, intervalMs: 100 },
    );
    options.activity?.(undefined);
    return { record, started: true };
  } catch (err) {
    options.activity?.(undefined);
    if (child.pid && exited === undefined && isAlive(child.pid)) child.kill('SIGTERM');
    const tail = lastError(log, logStart);
    const why =
      err instanceof PlaneExited
        ? `it exited with code ${err.code}`
        : `it was not ready within ${(options.timeoutMs ?? 90_000) / 1000} s`;
    throw new UserError(
      `the local plane did not start: ${why}${tail ? `: ${tail}` : ''} (full log: ${log})`,
      EXIT.CLUSTER,
    );
  }
}

class PlaneExited extends Error {
  constructor(readonly code: number | null) {
    super(`exited with ${code}`);
  }
}

/** The most telling line the failed start wrote: its `error:` line, else its last line. */
function lastError(log: string, from: number): string | undefined {
  if (!existsSync(log)) return undefined;
  const lines = readFileSync(log, 'utf8').slice(from).split('\n').filter(Boolean);
  const error = lines.find((l) => l.startsWith('error: ') || l.startsWith('oam: internal error'));
  return (error ?? lines.at(-1))?.replace(/^error: /, '');
}
