/**
 * The Service spec fields around cluster IPs, and how kube-apiserver keeps them consistent
 * across writes (pkg/registry/core/service/storage/rest.go and strategy.go).
 */

export interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  selector?: Record<string, string>;
  [key: string]: unknown;
}

export const NONE = 'None';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const listOf = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
export const sameList = (a: unknown, b: unknown): boolean => {
  const [l, r] = [listOf(a), listOf(b)];
  return l.length === r.length && l.every((v, i) => v === r[i]);
};

/** ExternalName Services are DNS aliases: no cluster IP, no IP families. */
export const needsClusterIp = (spec: ServiceSpec): boolean => spec.type !== 'ExternalName';

export const isHeadless = (spec: ServiceSpec): boolean => str(spec.clusterIP) === NONE;

export const hasSelector = (spec: ServiceSpec): boolean =>
  Boolean(spec.selector && typeof spec.selector === 'object' && Object.keys(spec.selector).length);

/**
 * patchAllocatedValues: a client that resubmits the manifest it created the Service from
 * (no clusterIP) keeps the IPs allocated for it instead of asking to clear them.
 */
export function patchAllocatedValues(spec: ServiceSpec, before: ServiceSpec): void {
  if (!needsClusterIp(before) || !needsClusterIp(spec)) return;
  if (!str(spec.clusterIP) && str(before.clusterIP)) spec.clusterIP = before.clusterIP;
  if (!listOf(spec.clusterIPs).length && listOf(before.clusterIPs).length)
    spec.clusterIPs = [...listOf(before.clusterIPs)];
}

/** normalizeClusterIPs: old clients write only clusterIP; clusterIPs[0] follows it. */
export function normalizeClusterIps(spec: ServiceSpec, before: ServiceSpec | undefined): void {
  const ip = str(spec.clusterIP);
  if (!before) {
    if (ip && !listOf(spec.clusterIPs).length) spec.clusterIPs = [ip];
    return;
  }
  const oldIp = str(before.clusterIP);
  if (listOf(before.clusterIPs).length && !listOf(spec.clusterIPs).length && oldIp === ip) {
    spec.clusterIPs = [...listOf(before.clusterIPs)];
  }
  if (oldIp === ip) return;
  if (oldIp && !ip) {
    if (sameList(before.clusterIPs, spec.clusterIPs)) delete spec.clusterIPs;
  } else if (sameList(before.clusterIPs, spec.clusterIPs)) {
    spec.clusterIPs = [ip];
  }
}

/**
 * dropTypeDependentFields: switching to ExternalName wipes the IP fields the server filled
 * in, unless the client changed them too (then validation tells it they must go).
 */
export function dropTypeDependentFields(spec: ServiceSpec, before: ServiceSpec): void {
  if (!needsClusterIp(before) || needsClusterIp(spec)) return;
  if (str(before.clusterIP) === str(spec.clusterIP) && sameList(before.clusterIPs, spec.clusterIPs)) {
    delete spec.clusterIP;
    delete spec.clusterIPs;
  }
  if (sameList(before.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
  if (str(before.ipFamilyPolicy) === str(spec.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
}
