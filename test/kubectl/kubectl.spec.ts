import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runKubectlScenario } from './scenario.js';

/**
 * The machine's kubectl (KUBECTL, else `kubectl` on PATH) runs the scenario
 * against the embedded server, or against CONFORMANCE_KUBECONFIG when set (a
 * real kube-apiserver, test/real-cluster/), so the two transcripts can be compared.
 * On failure the whole transcript is printed.
 */
const kubectl = process.env.KUBECTL ?? 'kubectl';
const workDir = mkdtempSync(join(tmpdir(), 'oam-kubectl-'));
let kubeconfig = process.env.CONFORMANCE_KUBECONFIG ?? '';
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (kubeconfig) return;
  const { startEmbedded } = await import('../conformance/embedded.js');
  const server = await startEmbedded();
  stop = server.stop;
  kubeconfig = join(server.stateDir, 'kubeconfig');
}, 60_000);

afterAll(async () => {
  await stop?.();
  rmSync(workDir, { recursive: true, force: true });
});

it('kubectl scenario: get, apply, server-side apply, patch, edit, scale, get -w, api-resources, CRD, printer columns, delete', async () => {
  const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  try {
    const transcript = await runKubectlScenario({ kubectl, kubeconfig, workDir, runId });
    expect(readFileSync(transcript, 'utf8')).not.toMatch(/\[exit [^0][^ \]]*\]/);
  } catch (err) {
    const transcript = join(workDir, 'kubectl-transcript.txt');
    process.stderr.write(
      `\n----- kubectl transcript -----\n${readFileSync(transcript, 'utf8')}\n------------------------------\n`,
    );
    throw err;
  }
}, 180_000);
