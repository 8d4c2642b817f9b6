/**
 * Service ClusterIP allocation, as kube-apiserver's ipallocator does it for one IPv4
 * service CIDR: dynamic IPs at random from the upper band first, static IPs anywhere
 * in the range, each IP held by at most one Service.
 *
 * The stored Services are the allocation record (kube keeps IPAddress objects; here the
 * store is already durable and every write is synchronous): the set of used IPs is read
 * from the store at start and follows its committed changes, so an IP is taken when a
 * Service holding it is written and released when that Service is deleted or stops
 * holding it — whichever path (delete, garbage collection, namespace deletion) removes it.
 */
import { randomInt } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { ChangeEvent } from '../store/types.js';
import { type StoredObject } from '#kube-core';
import {
  inRange,
  ipv4ToNumber,
  networkAddress,
  numberToIpv4,
  parseIpv4Cidr,
  type Ipv4Range,
} from './cidr.js';

/** kubeadm's default --service-cluster-ip-range. */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
export const SERVICES_KEY = '/services';

/** Why an IP could not be had; the caller words the Status (kube's ipallocator errors). */
export class AllocationError extends Error {
  constructor(
    message: string,
    /** ErrFull is an internal error in kube, the others are 422 Invalid. */
    readonly full = false,
  ) {
    super(message);
  }
}

const ERR_ALLOCATED = 'provided IP is already allocated';
const ERR_MISMATCHED_NETWORK = 'the provided network does not match the current range';

/** The IPv4 clusterIPs a stored Service holds ('None' and other families hold nothing here). */
function heldIps(obj: StoredObject | undefined): string[] {
  const spec = obj?.spec as { clusterIPs?: unknown } | undefined;
  return Array.isArray(spec?.clusterIPs)
    ? spec.clusterIPs.filter((ip): ip is string => typeof ip === 'string')
    : [];
}

export class ClusterIpAllocator {
  readonly range: Ipv4Range;
  private readonly used = new Set<number>();

  constructor(store: Store, cidr = DEFAULT_SERVICE_CIDR) {
    this.range = parseIpv4Cidr(cidr);
    for (const entry of store.list(SERVICES_KEY)) this.hold(heldIps(entry.object));
    // For the store's lifetime: closing the store drops its listeners.
    store.onWrite((event) => this.follow(event));
  }

  /** A free IP for a new Service; dryRun answers the network address, as kube's dry-run allocator does. */
  next(dryRun: boolean): string {
    if (dryRun) return networkAddress(this.range);
    const { first, last, offset } = this.range;
    const upper = this.scan(first + offset, last);
    const found = upper ?? (offset ? this.scan(first, first + offset - 1) : undefined);
    if (found === undefined) throw new AllocationError('range is full', true);
    return numberToIpv4(found);
  }

  /** Checks a requested IP can be had (dryRun checks only the range, like kube's dry-run allocator). */
  check(ip: string, dryRun: boolean): void {
    if (!inRange(this.range, ip)) {
      throw new AllocationError(
        dryRun
          ? `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.range.cidr}`
          : ERR_MISMATCHED_NETWORK,
      );
    }
    if (!dryRun && !this.isFree(ipv4ToNumber(ip))) throw new AllocationError(ERR_ALLOCATED);
  }

  /** ipIterator: from a random start in [from, to], wrapping around, the first free IP. */
  private scan(from: number, to: number): number | undefined {
    if (to < from) return undefined;
    const size = to - from + 1;
    const start = randomInt(size);
    for (let i = 0; i < size; i++) {
      const candidate = from + ((start + i) % size);
      if (this.isFree(candidate)) return candidate;
    }
    return undefined;
  }

  /** The first address is never free: in a real cluster the apiserver's own `kubernetes` Service holds it. */
  private isFree(n: number): boolean {
    return n !== this.range.first && !this.used.has(n);
  }

  private follow(event: ChangeEvent): void {
    if (event.resource !== SERVICES_KEY) return;
    this.release(heldIps(event.prev));
    if (event.type !== 'DELETED') this.hold(heldIps(event.object));
  }

  private hold(ips: string[]): void {
    for (const ip of ips) if (inRange(this.range, ip)) this.used.add(ipv4ToNumber(ip));
  }

  private release(ips: string[]): void {
    for (const ip of ips) if (inRange(this.range, ip)) this.used.delete(ipv4ToNumber(ip));
  }
}
