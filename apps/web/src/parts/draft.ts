import type { Application, ApplicationBody } from '../api/client';

type Spec = Application['spec'];
type ComponentSpec = Spec['components'][number];
type TraitSpec = NonNullable<ComponentSpec['traits']>[number];
type Props = Record<string, unknown>;

export interface TraitDraft {
  key: string;
  type: string;
  properties: Props;
  /** The trait as loaded (edit): fields the form does not show are kept. */
  base?: TraitSpec;
}

export interface ComponentDraft {
  key: string;
  /** Empty: the application's name. */
  name: string;
  type: string;
  properties: Props;
  traits: TraitDraft[];
  base?: ComponentSpec;
}

export interface Draft {
  name: string;
  components: ComponentDraft[];
  /** The Application as loaded (edit): its resourceVersion, labels and other spec fields are kept. */
  base?: Application;
}

let counter = 0;
export const newKey = (): string => `k${++counter}`;

export function newComponent(type = ''): ComponentDraft {
  return { key: newKey(), name: '', type, properties: {}, traits: [] };
}

export function draftOf(app: Application): Draft {
  return {
    name: app.metadata.name ?? '',
    base: app,
    components: app.spec.components.map((c) => ({
      key: newKey(),
      name: c.name,
      type: c.type ?? '',
      properties: (c.properties as Props | undefined) ?? {},
      base: c,
      traits: (c.traits ?? []).map((t) => ({
        key: newKey(),
        type: t.type,
        properties: (t.properties as Props | undefined) ?? {},
        base: t,
      })),
    })),
  };
}

/** The Application the draft stands for: what the YAML pane shows and what Preview and Deploy send. */
export function applicationOf(draft: Draft, namespace: string): ApplicationBody {
  const base = draft.base;
  const metadata = base
    ? {
        name: base.metadata.name,
        namespace,
        resourceVersion: base.metadata.resourceVersion,
        ...(base.metadata.labels ? { labels: base.metadata.labels } : {}),
        ...(base.metadata.annotations ? { annotations: base.metadata.annotations } : {}),
      }
    : { name: draft.name, namespace };
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata,
    spec: {
      ...(base?.spec ?? {}),
      components: draft.components.map((c) => ({
        ...(c.base ?? {}),
        name: c.name || draft.name,
        type: c.type,
        properties: c.properties,
        ...(c.traits.length
          ? { traits: c.traits.map((t) => ({ ...(t.base ?? {}), type: t.type, properties: t.properties })) }
          : { traits: undefined }),
      })),
    },
  } as ApplicationBody;
}
