/** core/v1 Service checks (core/validation ValidateService). */
import { type FieldCause, duplicate, forbidden, invalid, required } from '../field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isValidPortName, isValidPortNum } from '../syntax.js';
import { type Obj, asList, asObj, validateLabels } from './meta-checks.js';

function validateTargetPort(target: unknown, field: string): FieldCause[] {
  if (typeof target === 'number') return isValidPortNum(target).map((msg) => invalid(field, target, msg));
  if (typeof target === 'string') return isValidPortName(target).map((msg) => invalid(field, target, msg));
  return [];
}

function validateServicePorts(spec: Obj): FieldCause[] {
  const ports = asList(spec.ports);
  const requireName = ports.length > 1;
  const names = new Set<string>();
  const causes: FieldCause[] = [];
  ports.forEach((raw, i) => {
    const port = asObj(raw);
    const at = `spec.ports[${i}]`;
    if (typeof port.name !== 'string' || port.name.length === 0) {
      if (requireName) causes.push(required(`${at}.name`));
    } else {
      for (const msg of isDns1123Label(port.name)) causes.push(invalid(`${at}.name`, port.name, msg));
      if (names.has(port.name)) causes.push(duplicate(`${at}.name`, port.name));
      names.add(port.name);
    }
    if (typeof port.port === 'number' || port.port === undefined) {
      const value = port.port ?? 0;
      for (const msg of isValidPortNum(value)) causes.push(invalid(`${at}.port`, value, msg));
    }
    causes.push(...validateTargetPort(port.targetPort, `${at}.targetPort`));
    const type = spec.type ?? 'ClusterIP';
    if (type === 'ClusterIP' && typeof port.nodePort === 'number' && port.nodePort !== 0) {
      causes.push(forbidden(`${at}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
    }
  });
  return causes;
}

export function validateService(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  const causes: FieldCause[] = [];
  const headless = spec.clusterIP === 'None';
  if (spec.type === 'ExternalName') {
    // The registry wipes the IP fields it filled in; these are the ones the client sent.
    for (const key of ['clusterIPs', 'ipFamilies'])
      if (asList(spec[key]).length)
        causes.push(forbidden(`spec.${key}`, 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null)
      causes.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const name = spec.externalName;
    if (typeof name !== 'string' || name.length === 0) {
      causes.push(required('spec.externalName'));
    } else {
      const cleaned = name.endsWith('.') ? name.slice(0, -1) : name;
      for (const msg of isDns1123Subdomain(cleaned)) causes.push(invalid('spec.externalName', name, msg));
    }
  } else if (asList(spec.ports).length === 0 && !headless) {
    causes.push(required('spec.ports'));
  }
  causes.push(...validateServicePorts(spec));
  causes.push(...validateLabels(spec.selector, 'spec.selector'));
  return causes;
}
