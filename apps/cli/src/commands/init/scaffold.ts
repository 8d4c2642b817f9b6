import { toKubeYaml } from '#kube-core';
import { API_VERSION, type Definition } from '#api';
import { sample } from '../def/vet.js';

export const DEFAULT_TYPE = 'webservice';
export const DEFAULT_IMAGE = 'crccheck/hello-world';
/** The port crccheck/hello-world listens on. */
const DEFAULT_PORT = 8000;

export interface ScaffoldInput {
  name: string;
  definition: Definition;
  image: string;
  /** The trait to attach: scaler for Deployments and StatefulSets, labels for anything else. */
  trait: 'scaler' | 'labels';
}

export interface ScaffoldFile {
  path: string;
  text: string;
}

/**
 * The component's properties: the image (and an exposed port for a
 * webservice), plus whatever else its schema requires without a default.
 * Undefined for a type that takes no image (k8s-objects: raw objects).
 */
export function componentProperties(
  schema: Record<string, unknown>,
  image: string,
  type: string,
): Record<string, unknown> | undefined {
  const declared = (schema.properties ?? {}) as Record<string, unknown>;
  if (!('image' in declared)) return undefined;
  const properties = (sample(schema, false) ?? {}) as Record<string, unknown>;
  properties.image = image;
  // Strings get "example"; a schedule has to be one.
  if ('schedule' in properties) properties.schedule = '*/5 * * * *';
  if (type === 'webservice') properties.ports = [{ port: DEFAULT_PORT, expose: true }];
  return properties;
}

export function traitFor(definition: Definition): 'scaler' | 'labels' {
  const kind =
    definition.kind === 'ComponentDefinition' ? definition.spec.workload?.definition?.kind : undefined;
  return kind === 'Deployment' || kind === 'StatefulSet' ? 'scaler' : 'labels';
}

function traitProperties(trait: 'scaler' | 'labels', name: string): Record<string, unknown> {
  return trait === 'scaler' ? { replicas: 1 } : { 'app.kubernetes.io/part-of': name };
}

/** `app.yaml`, or with split `component.yaml` and `trait.yaml`; objects carry no namespace (`up -n` decides). */
export function scaffold(
  input: ScaffoldInput,
  properties: Record<string, unknown>,
  split: boolean,
): ScaffoldFile[] {
  const type = input.definition.metadata.name!;
  const yaml = (o: unknown) => toKubeYaml(o);
  if (!split)
    return [
      {
        path: 'app.yaml',
        text: `# ${input.name}: one ${type} component with a ${input.trait} trait. Deploy it with \`oam up -f app.yaml\`;
# \`oam def show ${type}\` lists every property the component takes.
${yaml({
  apiVersion: API_VERSION,
  kind: 'Application',
  metadata: { name: input.name },
  spec: {
    components: [
      {
        name: input.name,
        type,
        properties,
        traits: [{ type: input.trait, properties: traitProperties(input.trait, input.name) }],
      },
    ],
  },
})}`,
      },
    ];
  return [
    {
      path: 'component.yaml',
      text: `# Owned by the developer: what runs. Deploys by itself: \`oam up -f component.yaml\`.
# \`oam def show ${type}\` lists every property it takes.
${yaml({
  apiVersion: API_VERSION,
  kind: 'Component',
  metadata: { name: input.name },
  spec: { type, properties },
})}`,
    },
    {
      path: 'trait.yaml',
      text: `# Owned by the operator: how it runs. Targets the Component "${input.name}" by name:
# \`oam up -f trait.yaml\` (after the Component). \`oam def ls --type trait\` lists the traits.
${yaml({
  apiVersion: API_VERSION,
  kind: 'Trait',
  metadata: { name: `${input.name}-${input.trait}` },
  spec: {
    type: input.trait,
    target: { component: input.name },
    properties: traitProperties(input.trait, input.name),
  },
})}`,
    },
  ];
}
