/**
 * ipFamilyPolicy and ipFamilies as kube-apiserver settles them before allocating
 * (alloc.go initIPFamilyFields) on a single-stack IPv4 cluster, with the loose
 * pre-validation it runs first (ValidateServiceClusterIPsRelatedFields).
 */
import {
  type FieldCause,
  duplicate,
  invalid,
  invalidRendered,
  notSupported,
  required,
} from '../validation/field-errors.js';
import { ipFamilyOf } from './cidr.js';
import { NONE, hasSelector, isHeadless, listOf, sameList, type ServiceSpec } from './service-fields.js';

/** The one family this cluster serves. */
export const CLUSTER_FAMILY = 'IPv4';
const OTHER_FAMILY = 'IPv6';
const FAMILIES = ['IPv4', 'IPv6'];
const POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const CLUSTER_IPS = 'spec.clusterIPs';

/** Go's field errors print slices and pointers as JSON. */
const rendered = (value: unknown) => JSON.stringify(value ?? null);

function validateClusterIpFields(spec: ServiceSpec, before: ServiceSpec | undefined): FieldCause[] {
  const causes: FieldCause[] = [];
  const ip = spec.clusterIP ?? '';
  const ips = listOf(spec.clusterIPs);
  if (ip && !ips.length) causes.push(required(CLUSTER_IPS));
  else if (ip && ips[0] !== ip)
    causes.push(invalidRendered(CLUSTER_IPS, rendered(ips), 'first value must match `clusterIP`'));
  else if (!ip && ips.length)
    causes.push(
      invalidRendered(CLUSTER_IPS, rendered(ips), 'must be empty when `clusterIP` is not specified'),
    );

  const families = listOf(spec.ipFamilies);
  families.forEach((family, i) => {
    if (!FAMILIES.includes(family)) causes.push(notSupported(`spec.ipFamilies[${i}]`, family, FAMILIES));
    if (families.indexOf(family) < i) causes.push(duplicate(`spec.ipFamilies[${i}]`, family));
  });
  if (spec.ipFamilyPolicy !== undefined && !POLICIES.includes(spec.ipFamilyPolicy))
    causes.push(notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, POLICIES));

  // IPs the Service already had stay valid (IsValidIPForLegacyField).
  const existing = listOf(before?.clusterIPs);
  let badIps = false;
  ips.forEach((value, i) => {
    if (i === 0 && value === NONE) {
      if (ips.length > 1) {
        badIps = true;
        causes.push(invalidRendered(CLUSTER_IPS, rendered(ips), "'None' must be the first and only value"));
      }
    } else if (!existing.includes(value) && !ipFamilyOf(value)) {
      badIps = true;
      causes.push(
        invalid(
          `${CLUSTER_IPS}[${i}]`,
          value,
          'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        ),
      );
    }
  });
  if (ips.length > 2)
    causes.push(invalidRendered(CLUSTER_IPS, rendered(ips), 'may only hold up to 2 values'));
  if (badIps) return causes;
  if (ips.length > 1 && ipFamilyOf(ips[0]) === ipFamilyOf(ips[1]))
    causes.push(
      invalidRendered(CLUSTER_IPS, rendered(ips), 'may specify no more than one IP for each IP family'),
    );
  if (!isHeadless(spec)) {
    ips.slice(0, families.length).forEach((value, i) => {
      const family = families[i];
      if (family === 'IPv4' && ipFamilyOf(value) === 'IPv6')
        causes.push(
          invalid(
            `${CLUSTER_IPS}[${i}]`,
            value,
            `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      if (family === 'IPv6' && ipFamilyOf(value) !== 'IPv6')
        causes.push(
          invalid(
            `${CLUSTER_IPS}[${i}]`,
            value,
            `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
    });
  }
  return causes;
}

/** Policy and families checked against what the Service asks and what this cluster has. */
function checkPolicy(spec: ServiceSpec, before: ServiceSpec | undefined): FieldCause[] {
  const causes: FieldCause[] = [];
  const policy = spec.ipFamilyPolicy;
  const reduced = (now: unknown, then: unknown) =>
    listOf(now).length > 0 && listOf(now).length < listOf(then).length;
  if (before && policy !== 'SingleStack') {
    if (reduced(spec.clusterIPs, before.clusterIPs))
      causes.push(
        invalidRendered(
          'spec.ipFamilyPolicy',
          rendered(policy),
          "must be 'SingleStack' to release the secondary cluster IP",
        ),
      );
    if (reduced(spec.ipFamilies, before.ipFamilies))
      causes.push(
        invalidRendered(
          'spec.ipFamilyPolicy',
          rendered(policy),
          "must be 'SingleStack' to release the secondary IP family",
        ),
      );
  }
  if (policy === 'SingleStack') {
    const many = "must be 'RequireDualStack' or 'PreferDualStack' when multiple";
    if (listOf(spec.clusterIPs).length === 2)
      causes.push(
        invalidRendered('spec.ipFamilyPolicy', rendered(policy), `${many} cluster IPs are specified`),
      );
    if (listOf(spec.ipFamilies).length === 2)
      causes.push(
        invalidRendered('spec.ipFamilyPolicy', rendered(policy), `${many} IP families are specified`),
      );
  }
  return causes;
}

/** Fills ipFamilyPolicy and ipFamilies; returns the causes of a 422 when the Service cannot have them. */
export function initIpFamilyFields(spec: ServiceSpec, before: ServiceSpec | undefined): FieldCause[] {
  if (spec.type === 'ExternalName') return [];
  if (spec.ipFamilyPolicy === undefined) {
    // Never switch a Service between single- and dual-stack without being told to.
    if (before?.ipFamilyPolicy) spec.ipFamilyPolicy = before.ipFamilyPolicy;
    else if (isHeadless(spec) && !hasSelector(spec)) spec.ipFamilyPolicy = 'RequireDualStack';
    else spec.ipFamilyPolicy = 'SingleStack';
  }
  const invalidFields = validateClusterIpFields(spec, before);
  if (invalidFields.length) return invalidFields;

  if (before && spec.ipFamilyPolicy === 'SingleStack') {
    // Switching to SingleStack with the lists untouched is clear intent: keep only the primary.
    if (sameList(before.clusterIPs, spec.clusterIPs) && listOf(spec.clusterIPs).length > 1)
      spec.clusterIPs = listOf(spec.clusterIPs).slice(0, 1);
    if (sameList(before.ipFamilies, spec.ipFamilies) && listOf(spec.ipFamilies).length > 1)
      spec.ipFamilies = listOf(spec.ipFamilies).slice(0, 1);
  }
  const causes = checkPolicy(spec, before);
  const ips = listOf(spec.clusterIPs);
  const families = [...listOf(spec.ipFamilies)];
  for (const [i, value] of ips.entries()) {
    if (value === NONE) break;
    if (i < families.length) continue;
    const family = ipFamilyOf(value) as string;
    if (family === CLUSTER_FAMILY) families.push(family);
    else
      causes.push(
        invalidRendered(`${CLUSTER_IPS}[${i}]`, rendered(ips), `${family} is not configured on this cluster`),
      );
  }
  if (causes.length) return causes;
  spec.ipFamilies = families;

  // Headless without selector: any family goes (the endpoints are the user's), dual unless told otherwise.
  if (isHeadless(spec) && !hasSelector(spec)) {
    if (!families.length) families.push(CLUSTER_FAMILY);
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack')
      families.push(families[0] === CLUSTER_FAMILY ? OTHER_FAMILY : CLUSTER_FAMILY);
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack')
    causes.push(
      invalidRendered(
        'spec.ipFamilyPolicy',
        rendered(spec.ipFamilyPolicy),
        'this cluster is not configured for dual-stack services',
      ),
    );
  families.forEach((family, i) => {
    if (family !== CLUSTER_FAMILY)
      causes.push(invalid(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster'));
  });
  if (!families.length) families.push(CLUSTER_FAMILY);
  return causes;
}
