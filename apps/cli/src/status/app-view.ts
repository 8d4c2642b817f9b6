import { componentHealth, type Application, type Condition } from '#api';
import type { KubeObject } from '#kube-core';
import { isNotFound } from '#runtime';
import type { Session } from '../cluster/session.js';
import { objectHealth, type ObjectHealth } from './object-health.js';

/** What `oam status` shows, and what `-o json|yaml` prints: the app, its components, their objects and traits. */
export interface AppView {
  name: string;
  namespace: string;
  kind: 'Application' | 'Component';
  /** status.status: rendering, runningWorkflow, running, unhealthy, deleting (absent before the controller's first write). */
  phase?: string;
  healthy: boolean;
  generation?: number;
  observedGeneration?: number;
  revision?: { name: string; revision: number };
  components: ComponentView[];
  conditions: Pick<Condition, 'type' | 'status' | 'reason' | 'message'>[];
  /** Why there is no health to show (a standalone Component, not reconciled yet). */
  note?: string;
}

export interface ComponentView {
  name: string;
  type: string;
  healthy?: boolean;
  message?: string;
  traits: { type: string; healthy?: boolean; message?: string }[];
  objects: ObjectView[];
}

export interface ObjectView extends ObjectHealth {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  trait?: string;
}

type AppObject = KubeObject & Pick<Application, 'spec' | 'status'>;

/** The view of an Application from its object alone (no requests): what `up`'s progress and `ls` need. */
export function viewOf(app: AppObject): AppView {
  const status = app.status ?? {};
  const components: ComponentView[] = componentHealth(app).map((c) => ({ ...c, objects: [] }));
  const phase = status.status;
  return {
    name: app.metadata?.name ?? '',
    namespace: app.metadata?.namespace ?? 'default',
    kind: 'Application',
    phase,
    healthy: phase === 'running' && components.length > 0 && components.every((c) => c.healthy === true),
    generation: app.metadata?.generation,
    observedGeneration: status.observedGeneration,
    revision: status.latestRevision
      ? { name: status.latestRevision.name, revision: status.latestRevision.revision }
      : undefined,
    components,
    conditions: (status.conditions ?? []).map(({ type, status: s, reason, message }) => ({
      type,
      status: s,
      reason,
      message,
    })),
  };
}

/** The full view: every applied object read back, with its own health. */
export async function fullViewOf(app: AppObject, session: Session): Promise<AppView> {
  const view = viewOf(app);
  const byComponent = new Map(view.components.map((c) => [c.name, c]));
  for (const ref of app.status?.appliedResources ?? []) {
    const live = await readObject(session, ref);
    const object: ObjectView = {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      name: ref.name,
      namespace: ref.namespace,
      // KubeVela records a component's own extra outputs under the pseudo-trait AuxiliaryWorkload.
      trait: ref.trait === 'AuxiliaryWorkload' ? undefined : ref.trait,
      ...(live ? objectHealth(live) : { healthy: false, message: 'missing' }),
    };
    const component = ref.component ? byComponent.get(ref.component) : undefined;
    if (component) component.objects.push(object);
  }
  return view;
}

async function readObject(
  session: Session,
  ref: { apiVersion: string; kind: string; namespace?: string; name: string },
): Promise<KubeObject | undefined> {
  try {
    const kind = await session.mapper.kindFor(ref);
    return await session.client(kind).get(ref.namespace, ref.name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    if ((err as Error).name === 'NoKindMatchError') return undefined;
    throw err;
  }
}

/**
 * A standalone Component as an application of one, as the controller reports
 * it (same status shape): its component named as in `services[]` (the
 * Application's name for it when one renders it), its traits those the
 * controller observed (the operator's Traits are not in its spec).
 */
export function componentAsApp(component: KubeObject & { spec?: { type?: string } }): AppObject {
  const status = (component as { status?: AppObject['status'] }).status;
  const service = status?.services?.[0];
  return {
    ...component,
    spec: {
      components: [
        {
          name: service?.name ?? component.metadata?.name ?? '',
          type: component.spec?.type,
          traits: (service?.traits ?? []).map((t) => ({ type: t.type })),
        },
      ],
    },
    status,
  } as AppObject;
}

/** A standalone Component: an application of one once the controller reconciled it; before, no health to show. */
export function componentViewOf(component: KubeObject & { spec?: { type?: string } }): AppView {
  const status = (component as { status?: AppObject['status'] }).status;
  if (status?.status) return { ...viewOf(componentAsApp(component)), kind: 'Component' };
  return {
    name: component.metadata?.name ?? '',
    namespace: component.metadata?.namespace ?? 'default',
    kind: 'Component',
    healthy: false,
    generation: component.metadata?.generation,
    components: [
      { name: component.metadata?.name ?? '', type: component.spec?.type ?? '', traits: [], objects: [] },
    ],
    conditions: [],
    note: 'the controller has not reconciled this Component yet: no health to report',
  };
}
