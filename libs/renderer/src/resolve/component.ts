import type { Trait } from '#api';
import { RenderError, type ErrorLocation } from '../errors.js';
import type { SourceInfo } from '../parse/index.js';
import type { ResolvedComponent, ResolvedTrait } from './app-spec.js';
import type { DefinitionCatalog } from './catalog.js';
import { checkTraits } from './checks.js';
import { judgeStandaloneTraits } from './standalone-traits.js';
import { unknownType } from './unknown-type.js';

/** A parsed object and where it came from. */
export type Sourced<T> = { object: T; source: SourceInfo };

/** A component as written (inline in an Application or a standalone Component), before lookup. */
export interface ComponentInput {
  type: string;
  properties: Record<string, unknown>;
  where: ErrorLocation;
  lineOf: SourceInfo['lineOf'];
  /** Where `properties` and `type` sit in the source object, for error lines. */
  propPath: (string | number)[];
  typePath: (string | number)[];
}

/**
 * Where an error about a field points: the line of its key, so a missing
 * `properties.cpu` points at `properties:`, not at the first property.
 */
export function fieldLine(source: SourceInfo): SourceInfo['lineOf'] {
  return (path) => source.keyLineOf?.(path) ?? source.lineOf(path);
}

export interface TraitInput {
  type: string;
  properties: Record<string, unknown>;
  origin: ResolvedTrait['origin'];
  where: ErrorLocation;
  /** The line of the trait's `type:`, where an unknown type is reported. */
  typeLine?: number;
  lineOf: (path: readonly (string | number)[]) => number | undefined;
}

export function traitObjectInput(t: Sourced<Trait>): TraitInput {
  return {
    type: t.object.spec.type,
    properties: t.object.spec.properties ?? {},
    origin: {
      kind: 'Trait',
      name: t.object.metadata.name!,
      ...(t.object.metadata.creationTimestamp ? { created: t.object.metadata.creationTimestamp } : {}),
    },
    where: {
      file: t.source.file,
      line: t.source.line,
      object: `Trait "${t.object.metadata.name}" (${t.object.spec.type})`,
    },
    typeLine: t.source.lineOf(['spec', 'type']),
    lineOf: (p) => fieldLine(t.source)(['spec', 'properties', ...p]),
  };
}

/**
 * Looks up one component's definition and its traits' in the catalog. Every
 * problem is pushed onto `errors` (a standalone Trait skipped as the controller
 * skips it, onto `warnings`); undefined when the component's own type is
 * unknown (its traits are still checked, so all errors show at once).
 */
export function resolveComponent(
  name: string,
  base: ComponentInput,
  traitInputs: TraitInput[],
  dependsOn: string[],
  namespace: string,
  catalog: DefinitionCatalog,
  errors: RenderError[],
  warnings: RenderError[] = [],
): ResolvedComponent | undefined {
  const definition = catalog.componentDefinition(base.type, namespace);
  if (!definition) {
    errors.push(
      new RenderError(unknownType(catalog, 'ComponentDefinition', base.type, namespace), {
        ...base.where,
        line: base.lineOf(base.typePath) ?? base.where.line,
        path: 'type',
      }),
    );
  }
  const traits: ResolvedTrait[] = [];
  for (const t of traitInputs) {
    const traitDef = catalog.traitDefinition(t.type, namespace);
    if (!traitDef) {
      errors.push(
        new RenderError(unknownType(catalog, 'TraitDefinition', t.type, namespace), {
          ...t.where,
          line: t.typeLine ?? t.where.line,
          path: 'type',
        }),
      );
      continue;
    }
    traits.push({
      type: t.type,
      properties: t.properties,
      definition: traitDef,
      origin: t.origin,
      where: t.where,
      lineOfProperty: t.lineOf,
    });
  }
  if (!definition) return undefined;
  const judged = judgeStandaloneTraits(base.type, definition, traits);
  warnings.push(...judged.warnings);
  const component: ResolvedComponent = {
    name,
    type: base.type,
    properties: base.properties,
    definition,
    dependsOn,
    traits: judged.kept,
    where: base.where,
    lineOfProperty: (p) => base.lineOf([...base.propPath, ...p]),
  };
  errors.push(...checkTraits(component));
  return component;
}
