import type { Application, Definition } from '#api';
import {
  classifyObject,
  inMemorySource,
  resolveObjects,
  type AppSpec,
  type DefinitionCatalog,
  type OamObject,
  type RenderError,
} from '#renderer';
import { deepCopy, hashOf, IdleCache, type Clock, type KubeObject } from '#kube-core';

export interface Resolved {
  spec?: AppSpec;
  errors: RenderError[];
  warnings: RenderError[];
  /** Every definition the render will use, for the revision hash. */
  definitions: Definition[];
}

/**
 * Validates the cached Application (or standalone Component) and joins it
 * with its definitions and `joined` Components and Traits (the renderer's
 * resolve step, fed from the caches instead of files).
 */
export function resolveApplication(
  app: KubeObject,
  catalog: DefinitionCatalog,
  joined: readonly OamObject[] = [],
): Resolved {
  // No file: messages start at the object (`Application "hello", components[0] ...`).
  const classified = classifyObject({ object: deepCopy(app) as never, source: inMemorySource('') });
  if (!classified.value) return { errors: classified.errors, warnings: [], definitions: [] };
  const resolved = resolveObjects([classified.value, ...joined], catalog);
  const spec = resolved.apps[0];
  if (resolved.errors.length > 0 || !spec)
    return { errors: resolved.errors, warnings: resolved.warnings, definitions: [] };
  const definitions = spec.components.flatMap((c) => [c.definition, ...c.traits.map((t) => t.definition)]);
  return { spec, errors: [], warnings: resolved.warnings, definitions };
}

/**
 * resolveApplication, remembered per owner while what it reads is the same:
 * the owner's identity, labels, annotations and spec, the catalog, and each
 * definition it resolved to (the same cached object). Validating an
 * Application against its schema and resolving it took ~1.2 ms per
 * reconcile; most reconciles (a status write, a live object's change) come
 * with an unchanged spec. Only resolves without joined standalone Components
 * or Traits and without errors are remembered, and only while in use: a
 * settled application is not resolved again until a resync, so at rest this
 * holds nothing (what the render pipeline keeps per resolve goes with it).
 */
export class ResolveMemo {
  private readonly last: IdleCache<
    string,
    { fingerprint: string; catalog: DefinitionCatalog; resolved: Resolved }
  >;

  constructor(options: { clock?: Clock; idleMs?: number; maxEntries?: number } = {}) {
    this.last = new IdleCache({
      idleMs: options.idleMs ?? RESOLVE_IDLE_MS,
      maxEntries: options.maxEntries ?? 20_000,
      clock: options.clock,
    });
  }

  resolve(owner: KubeObject, catalog: DefinitionCatalog, joined: readonly OamObject[] = []): Resolved {
    if (joined.length > 0) return resolveApplication(owner, catalog, joined);
    const key = keyOf(owner);
    const { apiVersion, kind, metadata, spec } = owner;
    const fingerprint = hashOf({
      apiVersion,
      kind,
      uid: metadata?.uid,
      labels: metadata?.labels,
      annotations: metadata?.annotations,
      spec,
    });
    const held = this.last.get(key);
    if (
      held?.fingerprint === fingerprint &&
      held.catalog === catalog &&
      stillResolves(held.resolved, catalog)
    )
      return held.resolved;
    const resolved = resolveApplication(owner, catalog, joined);
    if (resolved.spec && resolved.errors.length === 0) this.last.set(key, { fingerprint, catalog, resolved });
    else this.last.delete(key);
    return resolved;
  }

  /** Forgets an owner (it is gone). */
  forget(owner: { kind?: string; metadata?: { namespace?: string; name?: string } }): void {
    this.last.delete(keyOf(owner));
  }
}

/** How long an unused resolve is kept (as long as the renderer keeps template results). */
const RESOLVE_IDLE_MS = 60_000;

const keyOf = (o: { kind?: string; metadata?: { namespace?: string; name?: string } }) =>
  `${o.kind}|${o.metadata?.namespace}/${o.metadata?.name}`;

/** Every definition the spec resolved to is still the one the catalog holds for its type. */
function stillResolves(resolved: Resolved, catalog: DefinitionCatalog): boolean {
  const spec = resolved.spec!;
  return spec.components.every(
    (c) =>
      catalog.componentDefinition(c.type, spec.namespace) === c.definition &&
      c.traits.every((t) => catalog.traitDefinition(t.type, spec.namespace) === t.definition),
  );
}

/** What `policies` and `workflow` hold that this controller stores but does not run. */
export function unsupportedFields(app: Application): string[] {
  const found: string[] = [];
  const policies = app.spec.policies ?? [];
  if (policies.length > 0) found.push(`spec.policies (${policies.map((p) => p.type).join(', ')})`);
  if (app.spec.workflow) found.push('spec.workflow');
  return found;
}
