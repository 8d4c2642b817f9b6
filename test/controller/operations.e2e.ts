import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '#definitions';
import { eventually } from '#kube-core';
import { ensureBuilt } from '../support/build.js';
import { ControllerCluster, helloApp } from './harness.js';

/**
 * Two `oam controller --leader-elect --metrics-port 0` processes, as two
 * replicas of deploy/ run them, against the embedded server: /healthz,
 * /readyz and /metrics scraped over HTTP; the leader killed with SIGKILL (no
 * lease release), the standby takes over once the lease expires and
 * converges. Waits for state throughout, never for a duration.
 */
const root = projectRoot();
let cluster: ControllerCluster;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt(root);
  cluster = await ControllerCluster.start();
}, 240_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await cluster?.stop();
});

interface Replica {
  proc: ChildProcess;
  port: number;
  exited: Promise<unknown>;
}

async function startReplica(): Promise<Replica> {
  const proc = spawn(
    process.execPath,
    [
      join(root, 'bin', 'oam.js'),
      'controller',
      '--kubeconfig',
      cluster.server.kubeconfigPath,
      // client-go's default lease timings: shorter ones are lost to a busy machine's pauses.
      '--leader-elect',
      '--metrics-port',
      '0',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(proc);
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  const started = await eventually(() => {
    const line = stderr.split('\n').find((l) => l.includes('"oam controller started"'));
    return line ? (JSON.parse(line) as { metricsPort: number }) : undefined;
  }, 'a replica to start');
  return { proc, port: started.metricsPort, exited };
}

async function scrape(port: number, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.text() };
}

const leaderState = async (r: Replica): Promise<string> =>
  (JSON.parse((await scrape(r.port, '/readyz')).body) as { leader: string }).leader;

/** The value of one sample line of the exposition format, e.g. `oam_applications{status="running"}`. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : undefined;
}

describe('the controller in operation', () => {
  it('serves health and Prometheus metrics; a SIGKILLed leader is replaced by the standby, which converges', async () => {
    const first = await startReplica();
    await eventually(async () => (await leaderState(first)) === 'leader', 'the first replica to lead');
    const second = await startReplica();
    expect(await scrape(second.port, '/healthz')).toEqual({ status: 200, body: '{"status":"ok"}' });
    const ready = await scrape(second.port, '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ok', caches: 'synced', leader: 'standby' });

    const ns = await cluster.namespace('ops');
    await cluster.applyApp(helloApp(ns));
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'hello to be running');
    const metrics = await eventually(async () => {
      const m = await scrape(first.port, '/metrics');
      return sample(m.body, 'oam_applications{status="running"}') === 1 ? m : undefined;
    }, 'the leader to count one running application');
    expect(metrics.status).toBe(200);
    const body = metrics.body;
    expect(
      sample(body, 'controller_runtime_reconcile_total{controller="application",result="success"}'),
    ).toBeGreaterThan(0);
    // Counters that never moved have no sample yet, only their TYPE line.
    expect(body).toContain('# TYPE controller_runtime_reconcile_errors_total counter');
    expect(
      sample(body, 'controller_runtime_reconcile_time_seconds_count{controller="application"}'),
    ).toBeGreaterThan(0);
    expect(sample(body, 'workqueue_depth{name="application"}')).toBeDefined();
    expect(body).toContain('# TYPE workqueue_retries_total counter');
    expect(body).toContain('workqueue_queue_duration_seconds_bucket{le="0.001",name="application"}');
    expect(sample(body, 'rest_client_requests_total{verb="patch",code="200"}')).toBeGreaterThan(0);
    // The standby has reconciled nothing.
    const standby = (await scrape(second.port, '/metrics')).body;
    expect(
      sample(standby, 'controller_runtime_reconcile_total{controller="application",result="success"}'),
    ).toBeUndefined();

    first.proc.kill('SIGKILL');
    await first.exited;
    await eventually(async () => (await leaderState(second)) === 'leader', 'the standby to take over', {
      timeoutMs: 60_000,
    });
    const later = await cluster.namespace('ops-after');
    await cluster.applyApp(helloApp(later));
    await cluster.appStatus(
      later,
      'hello',
      (s) => s.status === 'running',
      'an app created after the kill to run',
    );
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
