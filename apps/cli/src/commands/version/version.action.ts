import { connect, resolveTarget, targetLine, type Session } from '../../cluster/session.js';
import { isAlive, readHeartbeat } from '../../cluster/heartbeat.js';
import { formatDuration } from '../../output/age.js';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import { cliVersion } from '../../version.js';
import type { VersionFlags } from './index.js';

interface Versions {
  cli: string;
  apiServer?: { url: string; gitVersion?: string; platform?: string; error?: string };
  controller?: { version?: string; alive: boolean; lastBeat?: string; error?: string };
}

/**
 * Exit 0 whenever the CLI's own version is printed: the target's versions are
 * shown "when reachable", and an unreachable target is said in their place.
 * The target line goes to stderr with -o json.
 */
export async function runVersion(flags: VersionFlags): Promise<number> {
  const versions: Versions = { cli: cliVersion() };
  if (!flags.client) {
    const choice = resolveTarget(flags);
    const line = `${targetLine(choice)}\n`;
    if (flags.output === 'json') process.stderr.write(line);
    else process.stdout.write(line);
    let session: Session | undefined;
    try {
      session = await connect(choice, { startPlane: false, say: (l) => process.stderr.write(`${l}\n`) });
      await readServer(session, versions);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      versions.apiServer = {
        url: choice.kind === 'cluster' ? choice.server : 'local plane',
        error: err.message,
      };
    } finally {
      session?.close();
    }
  }
  if (flags.output === 'json') process.stdout.write(`${JSON.stringify(versions, null, 2)}\n`);
  else process.stdout.write(formatVersions(versions));
  return EXIT.OK;
}

async function readServer(session: Session, versions: Versions): Promise<void> {
  const info = await session.call(() =>
    session.transport.request<{ gitVersion?: string; platform?: string }>({
      verb: 'get',
      method: 'GET',
      path: '/version',
    }),
  );
  versions.apiServer = { url: session.url, gitVersion: info.gitVersion, platform: info.platform };
  try {
    const beat = await readHeartbeat(session);
    versions.controller = beat
      ? {
          version: beat.version,
          alive: isAlive(beat),
          lastBeat: Number.isNaN(beat.renewedAt) ? undefined : new Date(beat.renewedAt).toISOString(),
        }
      : { alive: false };
  } catch (err) {
    // Reading Leases may be forbidden where the API server answers: say so, keep the rest.
    if (!(err instanceof UserError)) throw err;
    versions.controller = { alive: false, error: err.message };
  }
}

function formatVersions(v: Versions): string {
  const lines = [`oam CLI:     ${v.cli}`];
  if (v.apiServer) {
    lines.push(
      v.apiServer.error
        ? `API server:  not reachable (${v.apiServer.error})`
        : `API server:  ${v.apiServer.gitVersion ?? 'unknown'} (${v.apiServer.url})`,
    );
  }
  const c = v.controller;
  if (c) {
    const beat = c.lastBeat
      ? `last heartbeat ${formatDuration(Date.now() - Date.parse(c.lastBeat))} ago`
      : '';
    lines.push(
      c.error
        ? `controller:  unknown (${c.error})`
        : !c.lastBeat
          ? 'controller:  not running (no heartbeat)'
          : `controller:  ${c.version ?? 'unknown version'} (${c.alive ? beat : `not running: ${beat}`})`,
    );
  }
  return `${lines.join('\n')}\n`;
}
