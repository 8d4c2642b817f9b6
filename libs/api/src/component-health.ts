import type { Application } from './application.js';

/** One component of an Application's spec, with the health the controller reported for it and its traits. */
export interface ComponentHealth {
  name: string;
  /** Its type, or `componentRef NAME` for a reference to a standalone Component. */
  type: string;
  healthy?: boolean;
  message?: string;
  traits: { type: string; healthy?: boolean; message?: string }[];
}

/**
 * The health tree's components: the spec's components (in order) joined with
 * `status.services` by name, and each trait with its reported health by type.
 * What `oam status` and the REST API's views both show. Pure.
 */
export function componentHealth(app: Pick<Application, 'spec' | 'status'>): ComponentHealth[] {
  const services = new Map((app.status?.services ?? []).map((s) => [s.name, s]));
  return (app.spec?.components ?? []).map((c) => {
    const s = services.get(c.name);
    const traitHealth = new Map((s?.traits ?? []).map((t) => [t.type, t]));
    return {
      name: c.name,
      type: c.type ?? `componentRef ${c.componentRef}`,
      healthy: s?.healthy,
      message: s?.message,
      traits: (c.traits ?? []).map((t) => ({
        type: t.type,
        healthy: traitHealth.get(t.type)?.healthy,
        message: traitHealth.get(t.type)?.message,
      })),
    };
  });
}
