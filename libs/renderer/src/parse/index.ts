import type { RenderError } from '../errors.js';
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
): { objects: OamObject[]; errors: RenderError[] } {
  const objects: OamObject[] = [];
  const errors: RenderError[] = [];
  for (const file of files) {
    const loaded = loadYamlDocuments(file, limits);
    errors.push(...loaded.errors);
    for (const item of loaded.objects) {
      const result = classifyObject(item);
      errors.push(...result.errors);
      if (result.value) objects.push(result.value);
    }
  }
  return { objects, errors };
}
