/** IPv4 address arithmetic for the service CIDR (the local plane is a single-stack IPv4 cluster). */
import { isIPv4, isIPv6 } from 'node:net';

export type IpFamily = 'IPv4' | 'IPv6';

/**
 * A service CIDR as kube's ipallocator sees it: the network address and (IPv4) the
 * broadcast address are never handed out; `offset` is the start of the upper band that
 * dynamic allocation prefers (KEP-3070), leaving the lower band for static IPs.
 */
export interface Ipv4Range {
  cidr: string;
  first: number;
  last: number;
  offset: number;
}

export function ipFamilyOf(ip: string): IpFamily | undefined {
  if (isIPv4(ip)) return 'IPv4';
  if (isIPv6(ip)) return 'IPv6';
  return undefined;
}

export function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

export function numberToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** kube's calculateRangeOffset: min(max(16, size/16), 256), none for ranges of 16 or fewer. */
function rangeOffset(size: number): number {
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 16)), 256);
}

export function parseIpv4Cidr(cidr: string): Ipv4Range {
  const [address, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  if (!isIPv4(address) || !Number.isInteger(bits) || bits < 1 || bits > 30) {
    throw new Error(`service CIDR ${cidr} is not an IPv4 CIDR with a prefix of 1 to 30 bits`);
  }
  const size = 2 ** (32 - bits);
  const network = ipv4ToNumber(address) - (ipv4ToNumber(address) % size);
  return {
    cidr: `${numberToIpv4(network)}/${bits}`,
    first: network + 1,
    last: network + size - 2,
    offset: rangeOffset(size),
  };
}

export function networkAddress(range: Ipv4Range): string {
  return numberToIpv4(range.first - 1);
}

export function inRange(range: Ipv4Range, ip: string): boolean {
  if (!isIPv4(ip)) return false;
  const n = ipv4ToNumber(ip);
  return n >= range.first && n <= range.last;
}
