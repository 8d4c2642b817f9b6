import { ACTORS } from '#api';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeTransport, RestMapper, ResourceClient, type ResourceKind } from '#runtime';
import { EXIT } from '../output/exit-codes.js';
import { UserError } from '../output/user-error.js';
import { httpTrace } from '../output/verbose.js';
import { planeState } from '../plane/plane.js';
import { cliVersion } from '../version.js';
import { ensurePlane } from '../plane/start.js';
import { clusterError } from './kube-errors.js';
import { chooseTarget, type TargetChoice, type TargetFlags } from './target.js';

/** A connection to the target: the local plane or the kubeconfig's cluster. */
export class Session {
  readonly mapper: RestMapper;
  /** The server's `/version` reply, read when connecting (templates render for this version). */
  version?: ServerVersion;

  constructor(
    readonly transport: KubeTransport,
    readonly kind: 'local' | 'cluster',
    /** How messages name it: "the local plane", `cluster "prod"`. */
    readonly label: string,
    readonly url: string,
  ) {
    this.mapper = new RestMapper(transport);
  }

  client(kind: ResourceKind): ResourceClient {
    return new ResourceClient(this.transport, kind);
  }

  /** Runs a call, turning a refusal or silence into the one-line message for this target. */
  async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw clusterError(err, this.label);
    }
  }

  close(): void {
    this.transport.close();
  }
}

export interface ConnectOptions {
  /** Start the local plane when it is the target and none runs (`oam up`); otherwise say how. */
  startPlane: boolean;
  say: (line: string) => void;
  /** What is going on meanwhile (a terminal's spinner); undefined when it is over. */
  activity?: (text: string | undefined) => void;
}

/** The "→ …" line every command prints first. */
export function targetLine(choice: TargetChoice): string {
  if (choice.kind === 'cluster') return `→ cluster ${choice.context} (${choice.server})`;
  const plane = planeState();
  return plane.state === 'running'
    ? `→ local plane (${plane.record.apiServer})`
    : `→ local plane (not running yet)`;
}

export function resolveTarget(flags: TargetFlags): TargetChoice {
  return chooseTarget(flags);
}

/**
 * Connects to the chosen target and checks that it answers. A cluster that
 * does not answer is exit 3 (never replaced by the local plane); the local
 * plane is started when allowed.
 */
export async function connect(choice: TargetChoice, options: ConnectOptions): Promise<Session> {
  if (choice.kind === 'cluster') {
    const transport = new KubeTransport(choice.kubeConfig, {
      userAgent: ACTORS.cli,
      qps: 50,
      burst: 100,
      onResponse: httpTrace(),
    });
    const session = new Session(
      transport,
      'cluster',
      `cluster "${choice.context}" (${choice.server})`,
      choice.server,
    );
    await readVersion(session);
    return session;
  }
  let record;
  if (options.startPlane) {
    const ensured = await ensurePlane({ say: options.say, activity: options.activity });
    record = ensured.record;
    if (ensured.started) options.say(`local plane ready at ${record.apiServer}`);
  } else {
    const state = planeState();
    if (state.state !== 'running')
      throw new UserError(
        'no local plane is running: `oam up -f FILE` starts one (or run `oam server`)',
        EXIT.CLUSTER,
      );
    record = state.record;
  }
  if (record.version !== cliVersion())
    options.say(
      `note: the local plane runs oam ${record.version}, this is oam ${cliVersion()}: \`oam server stop\`, then \`oam up\`, restarts it on this version`,
    );
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(record.kubeconfig);
  } catch (err) {
    throw new UserError(
      `cannot read the local plane's kubeconfig ${record.kubeconfig}: ${(err as Error).message}`,
      EXIT.CLUSTER,
    );
  }
  const transport = new KubeTransport(kc, {
    userAgent: ACTORS.cli,
    qps: 50,
    burst: 100,
    onResponse: httpTrace(),
  });
  const session = new Session(transport, 'local', `the local plane (${record.apiServer})`, record.apiServer);
  await readVersion(session);
  return session;
}

/** What `/version` answers (strings, as Kubernetes writes them). */
export interface ServerVersion {
  major: string;
  minor: string;
  gitVersion: string;
  platform?: string;
}

/** Checks that the target answers, and keeps its version for rendering (`context.clusterVersion`). */
async function readVersion(session: Session): Promise<void> {
  const info = await session.call(() =>
    session.transport.request<Partial<ServerVersion> | undefined>({
      verb: 'get',
      method: 'GET',
      path: '/version',
      timeoutMs: 10_000,
    }),
  );
  if (info?.major && info.minor && info.gitVersion)
    session.version = {
      major: info.major,
      minor: info.minor,
      gitVersion: info.gitVersion,
      platform: info.platform,
    };
}
