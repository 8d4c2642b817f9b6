import {
  API_VERSION,
  ApplicationSchema,
  ComponentDefinitionSchema,
  ComponentSchema,
  GROUP,
  TraitDefinitionSchema,
  TraitSchema,
  type Application,
  type Component,
  type ComponentDefinition,
  type Trait,
  type TraitDefinition,
} from '#api';
import type { z } from 'zod';
import { RenderError } from '../errors.js';
import { describeObject, type SourceInfo, type SourcedObject } from './source.js';
import { formatZodIssue } from './zod-issues.js';

/** An input object after validation, tagged by kind and carrying where it came from. */
export type OamObject =
  | { kind: 'Application'; object: Application; source: SourceInfo }
  | { kind: 'Component'; object: Component; source: SourceInfo }
  | { kind: 'Trait'; object: Trait; source: SourceInfo }
  | { kind: 'ComponentDefinition'; object: ComponentDefinition; source: SourceInfo }
  | { kind: 'TraitDefinition'; object: TraitDefinition; source: SourceInfo };

const SCHEMAS: Record<OamObject['kind'], z.ZodType> = {
  Application: ApplicationSchema,
  Component: ComponentSchema,
  Trait: TraitSchema,
  ComponentDefinition: ComponentDefinitionSchema,
  TraitDefinition: TraitDefinitionSchema,
};
export const INPUT_KINDS = Object.keys(SCHEMAS) as OamObject['kind'][];

/**
 * Checks an object against its kind's schema. Every problem is reported
 * (not just the first), each with the line of the offending field.
 */
/**
 * KubeVela kinds a definitions folder holds beside ours: accepted as input and
 * listed as not run, never an error.
 */
export const NOT_RUN_KINDS: readonly string[] = ['WorkflowStepDefinition', 'PolicyDefinition'];

export function classifyObject(item: SourcedObject): {
  value?: OamObject;
  errors: RenderError[];
  /** A kind that is accepted but not run (NOT_RUN_KINDS): its description. */
  notRun?: string;
} {
  const { object, source } = item;
  const where = { file: source.file, line: source.line, object: describeObject(object) };
  if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    return { errors: [new RenderError('not a Kubernetes object: apiVersion and kind are required', where)] };
  }
  const kind = object.kind as OamObject['kind'];
  if (NOT_RUN_KINDS.includes(object.kind) && object.apiVersion.startsWith(`${GROUP}/`))
    return { errors: [], notRun: `${describeObject(object)} (${source.file}:${source.line})` };
  if (!(kind in SCHEMAS) || !object.apiVersion.startsWith(`${GROUP}/`)) {
    const detail =
      `unknown kind "${object.kind}" (apiVersion ${object.apiVersion}); ` +
      `expected ${API_VERSION} ${INPUT_KINDS.join(', ')}`;
    return { errors: [new RenderError(detail, where)] };
  }
  if (object.apiVersion !== API_VERSION) {
    const detail = `apiVersion ${object.apiVersion} is not supported for ${kind}; use ${API_VERSION}`;
    return { errors: [new RenderError(detail, { ...where, path: 'apiVersion' })] };
  }
  const parsed = SCHEMAS[kind].safeParse(object, { reportInput: true });
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => {
      const { path, detail } = formatZodIssue(issue);
      return new RenderError(detail, {
        ...where,
        line: source.lineOf(issue.path as (string | number)[]) ?? source.line,
        path,
      });
    });
    return { errors };
  }
  if (!object.metadata?.name) {
    return { errors: [new RenderError('required', { ...where, path: 'metadata.name' })] };
  }
  return { value: { kind, object: parsed.data, source } as OamObject, errors: [] };
}
