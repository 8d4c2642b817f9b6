import type { JoinedPartStatus, RevisionPins } from '#api';
import type { JoinedInputs } from '../revisions/snapshot.js';

/** A Trait the render blamed and the input then left out (`status.joined[].rejected`). */
export interface RejectedTrait {
  name: string;
  generation?: number;
  message: string;
}

/**
 * `status.joined`: each standalone part rendered, at its generation, and
 * whether a rollback pins it; a pinned Trait not rendered (the restored
 * revision did not join it) is listed without a generation; a Trait the
 * render blamed, with why it was left out (`rejected`).
 */
export function joinedStatus(
  inputs: JoinedInputs | undefined,
  pinned: RevisionPins | undefined,
  rejected: readonly RejectedTrait[] = [],
): JoinedPartStatus[] {
  const out: JoinedPartStatus[] = rejected.map((r) => ({
    kind: 'Trait',
    name: r.name,
    ...(r.generation !== undefined ? { generation: r.generation } : {}),
    rejected: r.message,
  }));
  for (const [kind, parts, pins] of [
    ['Component', inputs?.components, pinned?.components],
    ['Trait', inputs?.traits, pinned?.traits],
  ] as const) {
    for (const [name, part] of Object.entries(parts ?? {}))
      out.push({
        kind,
        name,
        ...(part.generation !== undefined ? { generation: part.generation } : {}),
        ...(pins?.[name] !== undefined ? { pinned: true } : {}),
      });
    for (const name of Object.keys(pins ?? {})) if (!parts?.[name]) out.push({ kind, name, pinned: true });
  }
  return out.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}
