/**
 * Unknown-field detection for built-in kinds (fieldValidation=Strict/Warn).
 * The field lists come from @kubernetes/client-node's generated models
 * (`attributeTypeMap`, generated from the Kubernetes OpenAPI document), which
 * describe every property of every type, unlike the kubernetes-models
 * validators that accept any extra key.
 */
import * as models from '@kubernetes/client-node/dist/gen/models/all.js';

interface Attribute {
  baseName: string;
  type: string;
}

type FieldTable = Map<string, string>;

const modelTable = models as Record<string, { attributeTypeMap?: Attribute[] } | undefined>;
const tables = new Map<string, FieldTable | null>();

/** Property name -> type name for a generated model, or null for non-models (free-form). */
function fieldsOf(typeName: string): FieldTable | null {
  const cached = tables.get(typeName);
  if (cached !== undefined) return cached;
  const attributes = modelTable[typeName]?.attributeTypeMap;
  const table = attributes ? new Map(attributes.map((a) => [a.baseName, a.type])) : null;
  tables.set(typeName, table);
  return table;
}

const ARRAY = /^Array<(.+)>$/;
const MAP = /^\{ \[key: string\]: (.+); \}$/;

function walk(value: unknown, typeName: string, path: string, out: string[]): void {
  if (value === null || typeof value !== 'object') return;
  const arrayOf = ARRAY.exec(typeName);
  if (arrayOf) {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, arrayOf[1], `${path}[${i}]`, out));
    return;
  }
  const mapOf = MAP.exec(typeName);
  if (mapOf) {
    if (!Array.isArray(value)) {
      for (const [key, item] of Object.entries(value)) walk(item, mapOf[1], `${path}[${key}]`, out);
    }
    return;
  }
  const fields = fieldsOf(typeName);
  if (!fields || Array.isArray(value)) return;
  for (const [key, item] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    const childType = fields.get(key);
    if (childType === undefined) out.push(childPath);
    else walk(item, childType, childPath, out);
  }
}

/** Paths of fields the model does not define, in kube's strict-decoding form (`spec.template.spec.containers[0].foo`). */
export function unknownFieldsOfModel(modelName: string, obj: object): string[] {
  if (!fieldsOf(modelName))
    throw new Error(`no generated model named ${modelName} to check unknown fields against`);
  const out: string[] = [];
  walk(obj, modelName, '', out);
  return out;
}

/** The JSON field names a generated model defines (e.g. ObjectMeta's). */
export function modelFieldNames(modelName: string): ReadonlySet<string> {
  const fields = fieldsOf(modelName);
  if (!fields) throw new Error(`no generated model named ${modelName}`);
  return new Set(fields.keys());
}
