import { oamResource } from '#api';
import type { Session } from '../cluster/session.js';
import { formatDuration } from '../output/age.js';
import { EXIT } from '../output/exit-codes.js';
import type { Progress } from '../output/progress.js';
import { formatTree } from '../output/status-tree.js';
import { componentAsApp, fullViewOf, viewOf, type AppView } from './app-view.js';

/** An Application (or standalone Component) written by a command, and the generation that write produced. */
export interface AwaitedApp {
  namespace: string;
  name: string;
  generation?: number;
  /** Default Application; a standalone Component is judged as the application of one it deploys as. */
  kind?: 'Application' | 'Component';
}

export interface WaitOptions {
  /**
   * While this returns a message, the app is not judged yet (e.g. a rollback
   * the controller has not taken): the message is shown as its progress.
   */
  pending?: (app: AppObject) => string | undefined;
}

type AppObject = Parameters<typeof viewOf>[0];

/**
 * Polls each Application until the controller has observed the applied
 * generation and reports every component healthy; a render failure at that
 * generation ends the wait at once (it will not heal by itself). Prints the
 * final status tree of each; exit 0 healthy, 2 failed or timed out.
 */
export async function waitHealthy(
  session: Session,
  apps: AwaitedApp[],
  timeoutMs: number,
  progress: Progress,
  options: WaitOptions = {},
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const latest = new Map<AwaitedApp, AppObject>();
  const done = new Set<AwaitedApp>();
  let failure: { app: AwaitedApp; message: string } | undefined;
  while (done.size < apps.length && !failure) {
    const states: { key: string; text: string }[] = [];
    for (const app of apps) {
      if (done.has(app)) continue;
      const client = session.client(oamResource(app.kind ?? 'Application'));
      const object = await session.call(() => client.get(app.namespace, app.name));
      const live = (app.kind === 'Component' ? componentAsApp(object) : object) as AppObject;
      latest.set(app, live);
      const pending = options.pending?.(live);
      const judged: Judgement = pending
        ? { state: 'waiting', lines: [`${app.name}: ${pending}`] }
        : judge(live, app.generation ?? 0);
      if (judged.state === 'healthy') {
        done.add(app);
        progress.say(`${app.name} is healthy`);
        continue;
      }
      if (judged.state === 'failed') {
        failure = { app, message: judged.message };
        break;
      }
      states.push(...judged.lines.map((text, i) => ({ key: `${app.namespace}/${app.name}/${i}`, text })));
    }
    if (done.size === apps.length || failure) break;
    progress.update(states);
    if (Date.now() >= deadline) {
      const app = apps.find((a) => !done.has(a))!;
      const live = latest.get(app);
      const pending = live && options.pending?.(live);
      failure = {
        app,
        message: pending
          ? `${app.name}: not done after ${formatDuration(timeoutMs)}: ${pending}; is the controller running?`
          : timeoutMessage(live, app, timeoutMs),
      };
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  progress.stop();
  for (const app of apps) {
    const live = latest.get(app);
    if (live)
      process.stdout.write(
        formatTree({ ...(await fullViewOf(live, session)), kind: app.kind ?? 'Application' }),
      );
  }
  if (failure) {
    process.stderr.write(`error: ${failure.message}\n`);
    return EXIT.UNHEALTHY;
  }
  return EXIT.OK;
}

type Judgement =
  { state: 'healthy' } | { state: 'failed'; message: string } | { state: 'waiting'; lines: string[] };

function judge(app: AppObject, generation: number): Judgement {
  const view = viewOf(app);
  const name = view.name;
  const observed = view.observedGeneration ?? 0;
  if (observed < generation)
    return {
      state: 'waiting',
      lines: [`${name}: waiting for the controller (generation ${generation})`],
    };
  const rendered = app.status?.conditions?.find((c) => c.type === 'Rendered');
  if (rendered?.status === 'False' && (rendered.observedGeneration ?? observed) >= generation)
    return {
      state: 'failed',
      message: `${name}: the controller cannot render it: ${rendered.message ?? rendered.reason}`,
    };
  if (view.healthy) return { state: 'healthy' };
  const components = view.components;
  if (components.length === 0)
    return { state: 'waiting', lines: [`${name}: ${view.phase ?? 'waiting for status'}`] };
  const ready = components.filter((c) => c.healthy).length;
  return {
    state: 'waiting',
    lines: [
      `${name}: ${ready}/${components.length} ready`,
      ...components.map(
        (c) => `${c.name}: ${c.healthy ? 'healthy' : 'waiting'}${c.message ? ` (${c.message})` : ''}`,
      ),
    ],
  };
}

function timeoutMessage(app: AppObject | undefined, applied: AwaitedApp, timeoutMs: number): string {
  const after = `not healthy after ${formatDuration(timeoutMs)}`;
  if (!app) return `${applied.name}: ${after}`;
  const view: AppView = viewOf(app);
  if ((view.observedGeneration ?? 0) < (applied.generation ?? 0))
    return `${applied.name}: ${after}: the controller has not processed generation ${applied.generation} (observed ${view.observedGeneration ?? 'none'}); is it running?`;
  const bad = view.components.find((c) => !c.healthy);
  if (bad)
    return `${applied.name}: ${after}: component ${bad.name}: ${bad.message ?? 'no health reported yet'}`;
  const failing = view.conditions.find((c) => c.status === 'False');
  return `${applied.name}: ${after}: ${failing ? `${failing.type}: ${failing.message ?? failing.reason}` : `phase ${view.phase ?? 'unknown'}`}`;
}
