import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../store/store.js';
import { type StoredObject } from '#kube-core';
import { AllocationError, ClusterIpAllocator, SERVICES_KEY } from './allocator.js';
import { ipv4ToNumber, parseIpv4Cidr } from './cidr.js';

const svc = (name: string, clusterIPs: string[]): StoredObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'default' },
  spec: { clusterIP: clusterIPs[0], clusterIPs },
});

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AllocationError) return { message: err.message, full: err.full };
    throw err;
  }
  throw new Error('expected an AllocationError');
};

describe('parseIpv4Cidr', () => {
  it('leaves out the network and broadcast addresses and reserves a lower band like kube (KEP-3070)', () => {
    expect(parseIpv4Cidr('10.96.0.0/12')).toEqual({
      cidr: '10.96.0.0/12',
      first: ipv4ToNumber('10.96.0.1'),
      last: ipv4ToNumber('10.111.255.254'),
      offset: 256,
    });
    expect(parseIpv4Cidr('10.0.0.7/24')).toMatchObject({ cidr: '10.0.0.0/24', offset: 16 });
    expect(parseIpv4Cidr('10.0.0.0/28').offset).toBe(0);
  });
});

describe('ClusterIpAllocator', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-ips-'));
    store = new Store(join(dir, 'db'), 100);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands out free IPs from the upper band first, then the lower band, then fails as full', () => {
    // 10.0.0.0/28: 14 usable addresses, no lower band; the first is the kubernetes Service's.
    const allocator = new ClusterIpAllocator(store, '10.0.0.0/28');
    const seen = new Set<string>();
    for (let i = 0; i < 13; i++) {
      const ip = allocator.next(false);
      expect(seen.has(ip)).toBe(false);
      seen.add(ip);
      store.put(SERVICES_KEY, svc(`s${i}`, [ip]));
    }
    expect(seen.has('10.0.0.1')).toBe(false);
    expect(failure(() => allocator.next(false))).toEqual({ message: 'range is full', full: true });
  });

  it('prefers the upper band of a larger range', () => {
    const allocator = new ClusterIpAllocator(store, '10.0.0.0/24');
    for (let i = 0; i < 20; i++)
      expect(ipv4ToNumber(allocator.next(false))).toBeGreaterThan(ipv4ToNumber('10.0.0.16'));
  });

  it('follows committed writes: IPs are taken when stored and free again when the Service goes', () => {
    const allocator = new ClusterIpAllocator(store, '10.0.0.0/24');
    store.put(SERVICES_KEY, svc('a', ['10.0.0.5']));
    expect(failure(() => allocator.check('10.0.0.5', false)).message).toBe(
      'provided IP is already allocated',
    );
    expect(() => allocator.check('10.0.0.5', true)).not.toThrow();
    store.remove(SERVICES_KEY, 'default', 'a');
    expect(() => allocator.check('10.0.0.5', false)).not.toThrow();
    store.put(SERVICES_KEY, svc('b', ['10.0.0.6']));
    store.put(SERVICES_KEY, { ...svc('b', []), spec: { type: 'ExternalName' } });
    expect(() => allocator.check('10.0.0.6', false)).not.toThrow();
  });

  it('reads the IPs in use from the stored Services at start', () => {
    store.put(SERVICES_KEY, svc('a', ['10.0.0.9']));
    const allocator = new ClusterIpAllocator(store, '10.0.0.0/24');
    expect(failure(() => allocator.check('10.0.0.9', false)).message).toBe(
      'provided IP is already allocated',
    );
    expect(failure(() => allocator.check('10.0.0.1', false)).message).toBe(
      'provided IP is already allocated',
    );
  });

  it('words out-of-range IPs as kube does, for real and dry-run allocations', () => {
    const allocator = new ClusterIpAllocator(store, '10.0.0.0/24');
    expect(failure(() => allocator.check('10.0.1.1', false)).message).toBe(
      'the provided network does not match the current range',
    );
    expect(failure(() => allocator.check('10.0.0.255', true)).message).toBe(
      'the provided IP (10.0.0.255) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    );
    expect(allocator.next(true)).toBe('10.0.0.0');
  });
});
