import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../output/exit-codes.js';
import { UserError } from '../output/user-error.js';
import { cliVersion } from '../version.js';
import { oamHome } from './plane.js';

/**
 * The shape of `$OAM_HOME` this oam reads and writes: `plane.json`, `server/`
 * (the API server's durable state, certificates, kubeconfig), `logs/`,
 * `api-tokens.yaml`, and `layout.json` saying which layout it is.
 */
export const LAYOUT = 1;
export const layoutFile = (home = oamHome()): string => join(home, 'layout.json');

/** What an older oam left, before layout.json existed; any of these makes a home layout 0. */
const LAYOUT_0_FILES = ['plane.json', 'server', 'logs', 'api-tokens.yaml'];

/**
 * How to bring a home from layout N to N+1, in place, keeping every object.
 * 0 → 1: the files are the same; stamping layout.json is the whole change.
 */
const MIGRATIONS: Record<number, (home: string) => void> = { 0: () => undefined };

interface LayoutRecord {
  layout: number;
  writtenBy: string;
}

/**
 * Before anything writes to `home`: a new home is stamped with this layout;
 * one an older oam wrote is migrated step by step (the returned lines say
 * so); one a newer oam wrote, or whose layout.json cannot be read, is refused
 * (exit 3) with what to do. Never resets a home. Idempotent, so two oam
 * starting at once may both run it.
 */
export function ensureLayout(home = oamHome()): string[] {
  const file = layoutFile(home);
  const found = existsSync(file)
    ? readLayout(file, home)
    : LAYOUT_0_FILES.some((f) => existsSync(join(home, f)))
      ? 0
      : undefined;
  if (found === LAYOUT) return [];
  if (found === undefined) {
    writeLayout(home);
    return [];
  }
  if (found > LAYOUT) {
    const by = readWriter(file);
    throw new UserError(
      `${home} was written by ${by ? `oam ${by}` : 'a newer oam'} (state layout ${found}); this is oam ${cliVersion()}, which knows layout ${LAYOUT} and older: run that newer oam, or set OAM_HOME to another directory (nothing in ${home} was changed)`,
      EXIT.CLUSTER,
    );
  }
  for (let from = found; from < LAYOUT; from++) MIGRATIONS[from](home);
  writeLayout(home);
  return [
    `migrated ${home} from state layout ${found} (an older oam) to ${LAYOUT}; everything in it was kept`,
  ];
}

function readLayout(file: string, home: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw unreadable(file, home, (err as Error).message);
  }
  const layout = (parsed as Partial<LayoutRecord> | null)?.layout;
  if (!Number.isInteger(layout) || (layout as number) < 0)
    throw unreadable(file, home, `"layout" is ${JSON.stringify(layout)}, not a layout number`);
  return layout as number;
}

function readWriter(file: string): string | undefined {
  const by = (JSON.parse(readFileSync(file, 'utf8')) as Partial<LayoutRecord>).writtenBy;
  return typeof by === 'string' ? by : undefined;
}

function unreadable(file: string, home: string, why: string): UserError {
  return new UserError(
    `cannot tell which oam wrote ${home}: ${file} is unreadable (${why}); fix it (e.g. {"layout": ${LAYOUT}}) or remove it to have the state checked again, or set OAM_HOME to another directory (nothing was changed)`,
    EXIT.CLUSTER,
  );
}

/**
 * Best effort: a home that cannot be written stays unstamped (`oam up` has
 * already refused it with its own message; `oam server --state-dir` elsewhere
 * still serves, as it does without plane.json).
 */
function writeLayout(home: string): void {
  const record: LayoutRecord = { layout: LAYOUT, writtenBy: cliVersion() };
  const tmp = `${layoutFile(home)}.${process.pid}.tmp`;
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, layoutFile(home));
  } catch {
    rmSync(tmp, { force: true });
  }
}
