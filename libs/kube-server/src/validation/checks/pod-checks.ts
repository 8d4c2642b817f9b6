/** The pod spec checks users hit most (core/validation ValidatePodSpec), at any base path. */
import { type FieldCause, duplicate, invalid, notFound, notSupported, required } from '../field-errors.js';
import { isDns1123Label, isValidPortName, isValidPortNum } from '../syntax.js';
import { asList, asObj, validateMetadataMaps } from './meta-checks.js';
import { validateResources } from './resources-checks.js';

function validatePorts(ports: unknown, base: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const names = new Set<string>();
  asList(ports).forEach((raw, i) => {
    const port = asObj(raw);
    const at = `${base}[${i}]`;
    if (typeof port.name === 'string' && port.name.length > 0) {
      for (const msg of isValidPortName(port.name)) causes.push(invalid(`${at}.name`, port.name, msg));
      if (names.has(port.name)) causes.push(duplicate(`${at}.name`, port.name));
      names.add(port.name);
    }
    if (port.containerPort === undefined || port.containerPort === 0) {
      causes.push(required(`${at}.containerPort`));
    } else if (typeof port.containerPort === 'number') {
      for (const msg of isValidPortNum(port.containerPort)) {
        causes.push(invalid(`${at}.containerPort`, port.containerPort, msg));
      }
    }
    if (typeof port.hostPort === 'number' && port.hostPort !== 0) {
      for (const msg of isValidPortNum(port.hostPort))
        causes.push(invalid(`${at}.hostPort`, port.hostPort, msg));
    }
  });
  return causes;
}

function validateVolumeMounts(mounts: unknown, base: string, volumes: ReadonlySet<string>): FieldCause[] {
  const causes: FieldCause[] = [];
  asList(mounts).forEach((raw, i) => {
    const mount = asObj(raw);
    const at = `${base}[${i}]`;
    if (typeof mount.name !== 'string' || mount.name.length === 0) causes.push(required(`${at}.name`));
    else if (!volumes.has(mount.name)) causes.push(notFound(`${at}.name`, mount.name));
    if (typeof mount.mountPath !== 'string' || mount.mountPath.length === 0)
      causes.push(required(`${at}.mountPath`));
  });
  return causes;
}

interface ContainerContext {
  names: Set<string>;
  volumes: ReadonlySet<string>;
}

function validateContainerList(containers: unknown[], base: string, ctx: ContainerContext): FieldCause[] {
  const { names } = ctx;
  const causes: FieldCause[] = [];
  containers.forEach((raw, i) => {
    const ctr = asObj(raw);
    const at = `${base}[${i}]`;
    if (typeof ctr.name !== 'string' || ctr.name.length === 0) {
      causes.push(required(`${at}.name`));
    } else {
      for (const msg of isDns1123Label(ctr.name)) causes.push(invalid(`${at}.name`, ctr.name, msg));
      if (names.has(ctr.name)) causes.push(duplicate(`${at}.name`, ctr.name));
      names.add(ctr.name);
    }
    if (typeof ctr.image !== 'string' || ctr.image.length === 0) causes.push(required(`${at}.image`));
    causes.push(...validatePorts(ctr.ports, `${at}.ports`));
    causes.push(...validateVolumeMounts(ctr.volumeMounts, `${at}.volumeMounts`, ctx.volumes));
    causes.push(...validateResources(ctr.resources, `${at}.resources`));
  });
  return causes;
}

function validateVolumes(volumes: unknown, base: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const names = new Set<string>();
  asList(volumes).forEach((raw, i) => {
    const name = asObj(raw).name;
    const at = `${base}[${i}].name`;
    if (typeof name !== 'string' || name.length === 0) return causes.push(required(at));
    for (const msg of isDns1123Label(name)) causes.push(invalid(at, name, msg));
    if (names.has(name)) causes.push(duplicate(at, name));
    names.add(name);
  });
  return causes;
}

/** ValidatePodSpec's container/volume rules; `base` is e.g. `spec` or `spec.template.spec`. */
export function validatePodSpec(spec: unknown, base: string): FieldCause[] {
  const podSpec = asObj(spec);
  const containers = asList(podSpec.containers);
  const volumes = new Set(asList(podSpec.volumes).map((v) => asObj(v).name as string));
  const ctx: ContainerContext = { names: new Set<string>(), volumes };
  const causes = validateVolumes(podSpec.volumes, `${base}.volumes`);
  causes.push(...validateContainerList(asList(podSpec.initContainers), `${base}.initContainers`, ctx));
  if (containers.length === 0) causes.push(required(`${base}.containers`));
  causes.push(...validateContainerList(containers, `${base}.containers`, ctx));
  return causes;
}

/**
 * A pod template: its labels/annotations, its spec, and the restart policies the
 * owning controller allows (an unset policy is defaulted to Always, as kube does).
 */
export function validatePodTemplate(
  template: unknown,
  base: string,
  allowedRestartPolicies: string[],
): FieldCause[] {
  const tpl = asObj(template);
  const causes = [
    ...validateMetadataMaps(tpl.metadata, `${base}.metadata`),
    ...validatePodSpec(tpl.spec, `${base}.spec`),
  ];
  const policy = asObj(tpl.spec).restartPolicy ?? 'Always';
  if (!allowedRestartPolicies.includes(policy as string)) {
    causes.push(notSupported(`${base}.spec.restartPolicy`, policy, allowedRestartPolicies));
  }
  return causes;
}
