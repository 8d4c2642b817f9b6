import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ControllerContext, type RunningServer, type ServerController } from '../index.js';

const version = (server: RunningServer) =>
  new Promise<Record<string, unknown>>((resolve, reject) => {
    const req = request(`${server.url}/version`, { ca: server.caCert }, (r) => {
      let body = '';
      r.on('data', (c) => (body += c));
      r.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    req.end();
  });

/** The workload simulator is libs/simulator's; the server only runs what its caller passes in. */
describe('startServer: the simulator is the caller’s', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kube-server-sim-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs without one, and /version claims no simulated workloads', async () => {
    const server = await startServer({ port: 0, stateDir: dir });
    try {
      expect(await version(server)).not.toHaveProperty('simulatedWorkloads');
    } finally {
      await server.stop();
    }
  });

  it('refuses simulateWorkloads without a simulator to run', async () => {
    await expect(startServer({ port: 0, stateDir: dir, simulateWorkloads: true })).rejects.toThrow(
      'simulateWorkloads needs a simulator',
    );
  });

  it('makes the simulator from `simulation`, runs it once listening, and stops it first', async () => {
    const seen: Array<string | { readyDelayMs: number }> = [];
    const simulator = (options?: { readyDelayMs: number }): ServerController => {
      seen.push(options ?? 'no options');
      return {
        name: 'fake-simulator',
        start: (ctx: ControllerContext) => void seen.push(typeof ctx.api.list),
        stop: () => void seen.push('stopped'),
      };
    };
    const server = await startServer({
      port: 0,
      stateDir: dir,
      simulateWorkloads: true,
      simulation: { readyDelayMs: 5 },
      simulator,
    });
    expect(seen).toEqual([{ readyDelayMs: 5 }, 'function']);
    expect(await version(server)).toMatchObject({ simulatedWorkloads: true });
    await server.stop();
    expect(seen).toEqual([{ readyDelayMs: 5 }, 'function', 'stopped']);
  });

  it('leaves the simulator unmade when simulateWorkloads is off', async () => {
    let made = false;
    const server = await startServer({
      port: 0,
      stateDir: dir,
      simulator: () => {
        made = true;
        return { name: 'unused', start: () => undefined };
      },
    });
    await server.stop();
    expect(made).toBe(false);
  });
});
