import { ANNOTATIONS, LABELS } from '#api';
import { type KubeObject } from '#kube-core';
import { rendererOf } from './join.js';
import type { JoinSources } from './sources.js';

/**
 * For an owner (Application or Component) that no longer wants an object:
 * whether the object belongs to a standalone Component someone else now
 * renders (the Component itself, or the oldest other Application referencing
 * it) under the same component name. Such an object is left in place for
 * that renderer to take over (same UID, the Pods keep running), never deleted.
 */
export function releaseFor(src: JoinSources, owner: KubeObject): (live: KubeObject) => boolean {
  return (live) => {
    const component = live.metadata?.annotations?.[ANNOTATIONS.fromComponent];
    const namespace = live.metadata?.namespace;
    if (!component || !namespace) return false;
    const renderer = rendererOf(src, namespace, component);
    if (!renderer) return false; // the Component is gone: its objects go as usual
    const next = renderer.kind === 'Application' ? renderer.app : renderer.component;
    // Only what the next renderer renders under the same component name is taken over; the rest is pruned.
    const renderedAs = renderer.kind === 'Application' ? renderer.entry : component;
    return (
      next.metadata.uid !== owner.metadata?.uid &&
      !next.metadata.deletionTimestamp &&
      live.metadata?.labels?.[LABELS.component] === renderedAs
    );
  };
}
