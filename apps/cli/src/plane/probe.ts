import { ACTORS } from '#api';
import { existsSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeTransport } from '#runtime';
import { httpTrace } from '../output/verbose.js';
import type { PlaneRecord } from './plane.js';

/** Whether the recorded plane answers `/version` (a recycled pid does not). */
export async function planeAnswers(
  record: PlaneRecord,
  timeoutMs = 3000,
): Promise<{ ok: true; version: Record<string, unknown> } | { ok: false; error: string }> {
  if (!existsSync(record.kubeconfig)) return { ok: false, error: `${record.kubeconfig} is missing` };
  const kc = new KubeConfig();
  kc.loadFromFile(record.kubeconfig);
  const transport = new KubeTransport(kc, { timeoutMs, userAgent: ACTORS.cli, onResponse: httpTrace() });
  try {
    const version = await transport.request<Record<string, unknown>>({
      verb: 'get',
      method: 'GET',
      path: '/version',
    });
    return { ok: true, version };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  } finally {
    transport.close();
  }
}
