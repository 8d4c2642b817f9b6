import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** The repository's `definitions/` folder, found relative to this file. */
export const DEFINITIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'definitions');

export interface DefinitionFile {
  /** Path relative to `definitions/`, e.g. `components/webservice.yaml`. */
  path: string;
  /** The file name without `.yaml`: by convention the definition's name. */
  stem: string;
  /** The folder it sits in: `components` or `traits`. */
  folder: string;
  object: Record<string, unknown>;
}

function listYaml(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const full = join(dir, e.name);
      if (e.isDirectory()) return listYaml(full);
      return /\.ya?ml$/.test(e.name) ? [full] : [];
    });
}

/** Every definition in `definitions/`: one YAML document per file, parse errors thrown with the path. */
export function loadDefinitionFiles(dir = DEFINITIONS_DIR): DefinitionFile[] {
  return listYaml(dir).map((full) => {
    const path = relative(dir, full);
    const docs = parseAllDocuments(readFileSync(full, 'utf8'));
    if (!Array.isArray(docs) || docs.length !== 1)
      throw new Error(`${path}: expected exactly one YAML document`);
    const [doc] = docs;
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const object = doc.toJS() as Record<string, unknown>;
    return { path, stem: basename(full).replace(/\.ya?ml$/, ''), folder: dirname(path), object };
  });
}

/** The definition named `name` in `folder`, or an error listing what exists. */
export function definitionNamed(files: DefinitionFile[], folder: string, name: string): DefinitionFile {
  const found = files.find((f) => f.folder === folder && f.stem === name);
  if (!found) {
    const names = files.filter((f) => f.folder === folder).map((f) => f.stem);
    throw new Error(`no ${folder}/${name}.yaml (have: ${names.join(', ')})`);
  }
  return found;
}
