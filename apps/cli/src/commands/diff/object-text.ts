import { toKubeYaml, type KubeObject } from '#kube-core';

/** Fields the server changes on every write, or that only say who wrote what: noise in a diff. */
const VOLATILE = ['managedFields', 'resourceVersion', 'generation', 'uid', 'creationTimestamp'] as const;

/**
 * An object as the diff shows it: YAML with sorted keys (so two reads of
 * one object line up), volatile metadata left out, and a Secret's values
 * masked (`***`, or `*** (before)`/`*** (after)` where they differ), as kubectl does.
 */
export function objectTexts(before: KubeObject | undefined, after: KubeObject | undefined): [string, string] {
  const a = before && clean(before);
  const b = after && clean(after);
  if (a?.kind === 'Secret' || b?.kind === 'Secret') maskSecrets(a, b);
  return [a ? toYaml(a) : '', b ? toYaml(b) : ''];
}

function clean(object: KubeObject): KubeObject & Record<string, unknown> {
  const copy = structuredClone(object) as KubeObject & Record<string, unknown>;
  const metadata = (copy.metadata ?? {}) as Record<string, unknown>;
  for (const key of VOLATILE) delete metadata[key];
  return copy;
}

function maskSecrets(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): void {
  for (const field of ['data', 'stringData']) {
    const before = (a?.[field] ?? {}) as Record<string, unknown>;
    const after = (b?.[field] ?? {}) as Record<string, unknown>;
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const same = before[key] === after[key];
      if (key in before) before[key] = same ? '***' : '*** (before)';
      if (key in after) after[key] = same ? '***' : '*** (after)';
    }
  }
}

function toYaml(object: unknown): string {
  return toKubeYaml(object, { sortKeys: true });
}
