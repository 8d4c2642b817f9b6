import { RenderError } from '../errors.js';
import { classifyObject, type OamObject } from './classify.js';
import { DEFAULT_YAML_LIMITS, loadYamlDocuments, type YamlLimits } from './load-yaml.js';
import type { SourceFile } from './source.js';

export { classifyObject, INPUT_KINDS, type OamObject } from './classify.js';
export { loadYamlDocuments, DEFAULT_YAML_LIMITS, type YamlLimits } from './load-yaml.js';
export {
  describeObject,
  inMemorySource,
  type SourceFile,
  type SourceInfo,
  type SourcedObject,
} from './source.js';
export { formatPath, describeValue } from './field-path.js';

/** Parses and validates every document of every file; collects all errors rather than stopping at the first. */
export function parseSources(
  files: readonly SourceFile[],
  limits: YamlLimits = DEFAULT_YAML_LIMITS,
): { objects: OamObject[]; errors: RenderError[]; warnings: RenderError[] } {
  const objects: OamObject[] = [];
  const errors: RenderError[] = [];
  const notRun: string[] = [];
  for (const file of files) {
    const loaded = loadYamlDocuments(file, limits);
    errors.push(...loaded.errors);
    for (const item of loaded.objects) {
      const result = classifyObject(item);
      errors.push(...result.errors);
      if (result.value) objects.push(result.value);
      if (result.notRun) notRun.push(result.notRun);
    }
  }
  return { objects, errors, warnings: notRun.length > 0 ? [notRunWarning(notRun)] : [] };
}

/** One warning for every workflow step and policy definition given: accepted, not run. */
function notRunWarning(objects: readonly string[]): RenderError {
  const shown = objects.slice(0, 10).join(', ');
  const more = objects.length > 10 ? ` and ${objects.length - 10} more` : '';
  return new RenderError(
    `not run (rendering runs no workflow steps or policies): ${shown}${more}`,
    {},
    'user',
  );
}
