/**
 * What kube's Service REST storage does to a Service between defaulting and validation
 * (storage/rest.go beginCreate/beginUpdate, then strategy.go dropTypeDependentFields):
 * keep clusterIP and clusterIPs in step, settle the IP families, allocate cluster IPs.
 */
import { ApiError } from '../errors.js';
import { invalid } from '../objects/meta.js';
import type { ResourceInfo } from '../resources/builtin.js';
import { type StoredObject } from '#kube-core';
import { type FieldCause, invalidRendered } from '../validation/field-errors.js';
import { AllocationError, type ClusterIpAllocator } from './allocator.js';
import { initIpFamilyFields } from './ip-families.js';
import {
  NONE,
  dropTypeDependentFields,
  isHeadless,
  listOf,
  needsClusterIp,
  normalizeClusterIps,
  patchAllocatedValues,
  type ServiceSpec,
} from './service-fields.js';

export interface ServiceIpWrite {
  info: ResourceInfo;
  allocator: ClusterIpAllocator;
  /** The stored Service, on update. */
  before?: StoredObject;
  dryRun: boolean;
}

const specOf = (svc: StoredObject): ServiceSpec => {
  if (!svc.spec || typeof svc.spec !== 'object') svc.spec = {};
  return svc.spec as ServiceSpec;
};
const rendered = (ips: string[]) => (ips.length ? JSON.stringify(ips) : 'null');

export function prepareServiceIps(svc: StoredObject, write: ServiceIpWrite): void {
  const name = svc.metadata.name ?? '';
  const spec = specOf(svc);
  const before = write.before ? structuredClone(specOf(write.before)) : undefined;
  if (before) patchAllocatedValues(spec, before);
  normalizeClusterIps(spec, before);
  const causes = initIpFamilyFields(spec, before);
  if (!causes.length && before) causes.push(...immutableClusterIps(spec, before));
  if (causes.length) throw invalid(write.info, name, causes);
  // New Services, Services leaving ExternalName, and Services stored before this server allocated IPs.
  if (!before || !needsClusterIp(before) || !listOf(before.clusterIPs).length) allocate(spec, name, write);
  if (before) dropTypeDependentFields(spec, before);
  // kube stores the internalTrafficPolicy it once defaulted but drops it from every read of an
  // ExternalName Service (defaultOnReadInternalTrafficPolicy); not storing it reads the same.
  if (!needsClusterIp(spec)) delete spec.internalTrafficPolicy;
}

/** Cluster IPs never change once set (ValidateServiceUpdate's validateUpgradeDowngradeClusterIPs, single-stack). */
function immutableClusterIps(spec: ServiceSpec, before: ServiceSpec): FieldCause[] {
  if (!needsClusterIp(spec) || !needsClusterIp(before) || (isHeadless(spec) && isHeadless(before))) return [];
  const [now, then] = [listOf(spec.clusterIPs), listOf(before.clusterIPs)];
  if (!then.length) return [];
  if (!now.length)
    return [invalidRendered('spec.clusterIPs[0]', 'null', 'primary clusterIP can not be unset')];
  return then
    .slice(0, now.length)
    .flatMap((ip, i) =>
      ip === now[i]
        ? []
        : [invalidRendered(`spec.clusterIPs[${i}]`, rendered(now), 'may not change once set')],
    );
}

/** allocClusterIPs: every family gets its requested IP or the next free one; headless gets none. */
function allocate(spec: ServiceSpec, name: string, write: ServiceIpWrite): void {
  const ips = [...listOf(spec.clusterIPs)];
  if (!needsClusterIp(spec) || ips[0] === NONE) return;
  try {
    listOf(spec.ipFamilies).forEach((_family, i) => {
      if (ips[i]) write.allocator.check(ips[i], write.dryRun);
      else ips[i] = write.allocator.next(write.dryRun);
    });
  } catch (err) {
    if (!(err instanceof AllocationError)) throw err;
    throw allocationFailed(err, spec, name, write.info);
  }
  if (!ips.length) return;
  spec.clusterIPs = ips;
  spec.clusterIP = ips[0];
}

function allocationFailed(
  err: AllocationError,
  spec: ServiceSpec,
  name: string,
  info: ResourceInfo,
): ApiError {
  if (err.full) {
    const message = `failed to allocate a serviceIP for Service ${JSON.stringify(name)}: ${err.message}`;
    return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, {
      causes: [{ message }],
    });
  }
  const requested = listOf(spec.clusterIPs);
  const ip = requested.find((value) => value) ?? '';
  return invalid(info, name, [
    invalidRendered('spec.clusterIPs', rendered(requested), `failed to allocate IP ${ip}: ${err.message}`),
  ]);
}
