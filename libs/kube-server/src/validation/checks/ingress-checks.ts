/** networking.k8s.io/v1 Ingress checks (networking/validation ValidateIngressSpec). */
import { type FieldCause, invalid, required } from '../field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isValidPortName, isValidPortNum } from '../syntax.js';
import { type Obj, asList, asObj } from './meta-checks.js';

const WILDCARD_FMT = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD = new RegExp(`^${WILDCARD_FMT}$`);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function validateHost(host: string, field: string): FieldCause[] {
  if (IPV4.test(host) || host.includes(':'))
    return [invalid(field, host, 'must be a DNS name, not an IP address')];
  if (host.startsWith('*')) {
    if (WILDCARD.test(host) && host.length <= 253) return [];
    return [
      invalid(
        field,
        host,
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character" +
          ` (e.g. '*.example.com', regex used for validation is '${WILDCARD_FMT}')`,
      ),
    ];
  }
  return isDns1123Subdomain(host).map((msg) => invalid(field, host, msg));
}

function validateBackend(raw: unknown, field: string): FieldCause[] {
  const backend = asObj(raw);
  if (backend.service && backend.resource)
    return [invalid(field, '', 'cannot set both resource and service backends')];
  if (backend.resource) return [];
  if (!backend.service) return [invalid(field, '', 'resource or service backend is required')];
  const service = asObj(backend.service);
  const causes: FieldCause[] = [];
  if (typeof service.name !== 'string' || service.name.length === 0)
    causes.push(required(`${field}.service.name`));
  // Backend service names follow Service names: DNS-1123 labels since RelaxedServiceNameValidation.
  else
    for (const msg of isDns1123Label(service.name))
      causes.push(invalid(`${field}.service.name`, service.name, msg));
  const port = asObj(service.port);
  const hasName = typeof port.name === 'string' && port.name.length > 0;
  const hasNumber = typeof port.number === 'number' && port.number !== 0;
  if (hasName && hasNumber) causes.push(invalid(field, '', 'cannot set both port name & port number'));
  else if (hasName)
    for (const msg of isValidPortName(port.name as string))
      causes.push(invalid(`${field}.service.port.name`, port.name, msg));
  else if (hasNumber)
    for (const msg of isValidPortNum(port.number as number))
      causes.push(invalid(`${field}.service.port.number`, port.number, msg));
  else causes.push(required(field, 'port name or number is required'));
  return causes;
}

function validatePath(raw: unknown, at: string): FieldCause[] {
  const path = asObj(raw);
  const causes: FieldCause[] = [];
  if (!path.pathType) {
    causes.push(required(`${at}.pathType`, 'pathType must be specified'));
  } else if (typeof path.path === 'string' && path.path.length > 0 && !path.path.startsWith('/')) {
    causes.push(invalid(`${at}.path`, path.path, 'must be an absolute path'));
  } else if (path.pathType !== 'ImplementationSpecific' && !path.path) {
    causes.push(invalid(`${at}.path`, path.path ?? '', 'must be an absolute path'));
  }
  causes.push(...validateBackend(path.backend, `${at}.backend`));
  return causes;
}

export function validateIngress(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  const causes: FieldCause[] = [];
  if (spec.defaultBackend) causes.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  asList(spec.rules).forEach((raw, i) => {
    const rule = asObj(raw);
    const at = `spec.rules[${i}]`;
    if (typeof rule.host === 'string' && rule.host.length > 0)
      causes.push(...validateHost(rule.host, `${at}.host`));
    asList(asObj(rule.http).paths).forEach((p, j) =>
      causes.push(...validatePath(p, `${at}.http.paths[${j}]`)),
    );
  });
  return causes;
}
