import { LABELS, type Definition } from '#api';
import { isJsonObject, type TypedObject } from '#kube-core';
import {
  createRenderer,
  DEFAULT_CLUSTER,
  parseSources,
  RenderError,
  RenderErrors,
  type RenderContext,
  type SourceFile,
  type SourceInfo,
} from '#renderer';

export interface VettedDefinition {
  definition: Definition;
  source: SourceInfo;
}

export interface VetResult {
  definitions: VettedDefinition[];
  /** One line each, `file:line: Kind "name": message`, template errors at their line in the file. */
  errors: string[];
  /** Same form: what went wrong rendering with sample parameters (maybe the sample's fault). */
  warnings: string[];
}

/**
 * Checks definitions offline through the renderer: the YAML and each
 * definition's schema, then its template compiled, its parameter schema read,
 * and one trial render with sample parameters (which is when Handlebars
 * reports its syntax errors). Anything that is not a definition is an error.
 */
export async function vetDefinitions(
  files: readonly SourceFile[],
  limits: { cpuLimitMs?: number; memoryLimitBytes?: number } = {},
): Promise<VetResult> {
  const parsed = parseSources(files);
  const errors = parsed.errors.map((e) => e.message);
  const warnings: string[] = [];
  const definitions: VettedDefinition[] = [];
  for (const o of parsed.objects) {
    if (o.kind === 'ComponentDefinition' || o.kind === 'TraitDefinition')
      definitions.push({ definition: o.object as Definition, source: o.source });
    else
      errors.push(
        `${o.source.file}:${o.source.line}: ${o.kind} "${o.object.metadata?.name}": not a definition (only ComponentDefinition and TraitDefinition here)`,
      );
  }
  const handle = createRenderer({ ...limits });
  try {
    for (const d of definitions) {
      const { error, warning } = await vetOne(d.definition, handle.compiler);
      if (error) errors.push(locate(error, d));
      if (warning) warnings.push(`${locate(warning, d)} (a trial render with sample parameters)`);
    }
  } finally {
    await handle.close();
  }
  return { definitions, errors, warnings };
}

/** Handlebars reports these only when a template first runs, yet they are faults of the template whatever the values. */
const HANDLEBARS_COMPILE =
  /Parse error|Lexical error|unknown helper|not available in definitions|insert text unquoted/;

/**
 * A fault of the template itself is an error: it does not compile, or (CUE)
 * its parameter schema cannot be read. A failure of the trial render with
 * sample values is a warning (the sample may just be a value no one would
 * pass), except Handlebars' compile errors, which only show when it runs.
 */
async function vetOne(
  definition: Definition,
  compiler: ReturnType<typeof createRenderer>['compiler'],
): Promise<{ error?: RenderError; warning?: RenderError }> {
  let schema;
  try {
    schema = await compiler.compile(definition).parameterSchema();
  } catch (err) {
    const own = templateFault(err);
    if (own) return { error: own };
    throw err;
  }
  try {
    await compiler.compile(definition).evaluate({
      parameter: sample(schema) as Record<string, unknown>,
      context: sampleContext(definition),
    });
    return {};
  } catch (err) {
    const own = templateFault(err);
    if (!own) {
      if ((err instanceof RenderErrors ? err.errors : [err]).every((e) => e instanceof RenderError))
        return {};
      throw err;
    }
    return HANDLEBARS_COMPILE.test(own.detail) ? { error: own } : { warning: own };
  }
}

/** Only the template's own faults: a sample value that misses a constraint is not one. */
function templateFault(err: unknown): RenderError | undefined {
  const errors = err instanceof RenderErrors ? err.errors : [err];
  return errors.find((e): e is RenderError => e instanceof RenderError && e.source !== 'user');
}

/** `template line N` becomes the line in the file (the block scalar starts below the `template:` key). */
function locate(error: RenderError, d: VettedDefinition): string {
  const engine = d.definition.spec.schematic.cue ? 'cue' : 'handlebars';
  const keyLine =
    d.source.keyLineOf?.(['spec', 'schematic', engine, 'template']) ??
    d.source.lineOf(['spec', 'schematic', engine, 'template']);
  const m = /template line (\d+)/.exec(error.detail);
  const line = m && keyLine ? keyLine + Number(m[1]) : d.source.line;
  const label = `${d.definition.kind} "${d.definition.metadata.name}"`;
  const detail = error.detail
    .replace(/^definition error: /, '')
    .replace(`${label}, `, '')
    .replace(`${label}: `, '');
  return `${d.source.file}:${line}: ${label}: ${detail}`;
}

/**
 * Values a template can render with: defaults, else the simplest value of
 * each required field's type; optional fields only when they have a default
 * and `withDefaults` is set (as the renderer fills them in before a template runs).
 */
export function sample(schema: unknown, withDefaults = true): unknown {
  if (!isJsonObject(schema)) return undefined;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  const first = Array.isArray(branches) && isJsonObject(branches[0]) ? branches[0] : undefined;
  // A branch that only adds `required` (one of these fields must be set) refines this object; any other picks a type.
  if (first && schema.type === undefined && schema.properties === undefined)
    return sample(first, withDefaults);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 'example';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return typeof schema.minItems === 'number' && schema.minItems > 0
        ? [sample(schema.items, withDefaults)]
        : [];
    default: {
      const properties = isJsonObject(schema.properties) ? schema.properties : {};
      const required = [schema.required, first?.required].flatMap((r) =>
        Array.isArray(r) ? (r as string[]) : [],
      );
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(properties)) {
        if (!isJsonObject(prop)) continue;
        if (prop.default === undefined ? required.includes(name) : withDefaults)
          out[name] = sample(prop, withDefaults);
      }
      return out;
    }
  }
}

function sampleContext(definition: Definition): RenderContext {
  const base: RenderContext = {
    name: 'vet',
    appName: 'vet',
    namespace: 'default',
    appRevision: 'vet-v1',
    appRevisionNum: 1,
    appLabels: {},
    appAnnotations: {},
    appComponents: ['vet'],
    components: [{ name: 'vet', type: definition.metadata.name ?? '', properties: {} }],
    componentType: definition.metadata.name ?? '',
    revision: 'vet-v1',
    cluster: DEFAULT_CLUSTER.name,
    clusterVersion: DEFAULT_CLUSTER.version,
    publishVersion: '',
    workflowName: 'vet',
  };
  if (definition.kind === 'ComponentDefinition') return base;
  const workload: TypedObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'vet' },
    spec: {
      selector: { matchLabels: { [LABELS.component]: 'vet' } },
      template: {
        metadata: { labels: { [LABELS.component]: 'vet' } },
        spec: { containers: [{ name: 'vet', image: 'example', ports: [{ containerPort: 80 }] }] },
      },
    },
  } as TypedObject;
  return { ...base, output: workload, outputs: {} };
}
