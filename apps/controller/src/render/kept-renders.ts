import { deepFreeze, IdleCache, type Clock } from '#kube-core';
import type { AppSpec, RenderedApp, RendererHandle } from '#renderer';

/** How long an owner's last render is kept unused (as long as the renderer keeps template results). */
const RENDER_IDLE_MS = 60_000;

/**
 * Each owner's last render, with the resolved spec it rendered (the same
 * object while ResolveMemo keeps it: the same inputs) and its revision. A
 * reconcile woken by a live object's change then renders nothing: no
 * template validation, cache-key hashing or assembly. The pipeline drops an
 * owner's render when a reconcile finds it settled (a resync); any other goes
 * after RENDER_IDLE_MS unused.
 */
export class KeptRenders {
  private readonly renders: IdleCache<string, { spec: AppSpec; revision: string; rendered: RenderedApp }>;

  constructor(
    private readonly renderer: RendererHandle['renderer'],
    clock?: Clock,
  ) {
    this.renders = new IdleCache({ idleMs: RENDER_IDLE_MS, maxEntries: 20_000, clock });
  }

  /** The owner's render of `spec` at `revision`: the kept one when it is of the same, else a new one (kept). */
  async render(
    key: string,
    spec: AppSpec,
    revision: { name: string; revision: number },
  ): Promise<RenderedApp> {
    const held = this.renders.get(key);
    if (held?.spec === spec && held.revision === revision.name) return held.rendered;
    const rendered = deepFreeze(
      await this.renderer.render({ ...spec, revision: { name: revision.name, number: revision.revision } }),
    );
    this.renders.set(key, { spec, revision: revision.name, rendered });
    return rendered;
  }

  drop(key: string): void {
    this.renders.delete(key);
  }
}
