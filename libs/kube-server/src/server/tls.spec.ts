import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startServer } from '../index.js';
import { certificateSans, loadOrCreateTls, servingSans } from './tls.js';

describe('serving certificate and kubeconfig address', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kube-tls-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('issues the serving certificate again, from the same CA, when the names it must cover change', () => {
    const first = loadOrCreateTls(dir);
    expect(certificateSans(first.cert)).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(loadOrCreateTls(dir).cert).toBe(first.cert);
    const second = loadOrCreateTls(dir, ['api.example.test', '10.1.2.3']);
    expect(second.caCert).toBe(first.caCert);
    expect(certificateSans(second.cert)).toEqual([
      'localhost',
      '127.0.0.1',
      '::1',
      'api.example.test',
      '10.1.2.3',
    ]);
    expect(readFileSync(join(dir, 'apiserver.crt'), 'utf8')).toBe(second.cert);
  });

  it('covers every IPv4 address of the machine when listening on 0.0.0.0', () => {
    const ipv4 = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a?.family === 'IPv4')
      .map((a) => a?.address);
    expect(servingSans('0.0.0.0')).toEqual(expect.arrayContaining(ipv4));
    expect(servingSans('192.0.2.7')).toEqual(['192.0.2.7']);
  });

  it('on 0.0.0.0 writes a kubeconfig that connects through loopback', async () => {
    const server = await startServer({ port: 0, host: '0.0.0.0', stateDir: dir });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const kc = new k8s.KubeConfig();
      kc.loadFromFile(server.kubeconfigPath);
      const list = await kc.makeApiClient(k8s.CoreV1Api).listNamespace();
      expect(list.items.map((n) => n.metadata?.name)).toContain('default');
    } finally {
      await server.stop();
    }
  });
});
