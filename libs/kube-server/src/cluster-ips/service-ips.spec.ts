import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../errors.js';
import type { ResourceInfo } from '../resources/builtin.js';
import { Store } from '../store/store.js';
import { type StoredObject } from '#kube-core';
import { ClusterIpAllocator } from './allocator.js';
import { prepareServiceIps } from './service-ips.js';

const info: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  singular: 'service',
  namespaced: true,
  verbs: [],
};

const svc = (spec: Record<string, unknown>): StoredObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default' },
  spec: { type: 'ClusterIP', ...spec },
});

describe('prepareServiceIps', () => {
  let dir: string;
  let store: Store;
  let allocator: ClusterIpAllocator;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'service-ips-'));
    store = new Store(join(dir, 'db'), 100);
    allocator = new ClusterIpAllocator(store, '10.0.0.0/24');
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const prepare = (obj: StoredObject, before?: StoredObject, dryRun = false) => {
    prepareServiceIps(obj, { info, allocator, before, dryRun });
    return obj.spec as Record<string, unknown>;
  };
  const causes = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof ApiError) return err.details.causes?.map((c) => `${c.field}: ${c.message}`);
      throw err;
    }
    throw new Error('expected an ApiError');
  };

  it('a headless Service without selector defaults to dual-stack families, as kube does on any cluster', () => {
    expect(prepare(svc({ clusterIP: 'None' }))).toMatchObject({
      clusterIPs: ['None'],
      ipFamilyPolicy: 'RequireDualStack',
      ipFamilies: ['IPv4', 'IPv6'],
    });
  });

  it('a dry run shows the network address and holds nothing', () => {
    expect(prepare(svc({}), undefined, true)).toMatchObject({
      clusterIP: '10.0.0.0',
      clusterIPs: ['10.0.0.0'],
    });
  });

  it('refuses dual-stack and IPv6 on this single-stack IPv4 cluster', () => {
    expect(causes(() => prepare(svc({ ipFamilyPolicy: 'RequireDualStack', selector: { a: 'b' } })))).toEqual([
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ]);
    expect(causes(() => prepare(svc({ clusterIP: 'fd00::1' })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: ["fd00::1"]: IPv6 is not configured on this cluster',
    ]);
    expect(causes(() => prepare(svc({ clusterIP: 'nope' })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });

  it('allocates when a Service leaves ExternalName, and keeps the policy it had on update', () => {
    const before = svc({ type: 'ExternalName', externalName: 'db.example.com' });
    const spec = prepare(svc({}), before);
    expect(spec.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    const live = svc({ ...spec });
    expect(prepare(svc({ ipFamilyPolicy: undefined }), live)).toMatchObject({
      clusterIP: spec.clusterIP,
      ipFamilyPolicy: 'SingleStack',
    });
  });
});
