import { LineCounter, parseAllDocuments, isMap, isNode, isScalar, isSeq, type Document } from 'yaml';
import { RenderError } from '../errors.js';
import { type TypedObject } from '#kube-core';
import type { SourceFile, SourcedObject } from './source.js';

export interface YamlLimits {
  /** Largest file accepted, in bytes. */
  maxFileBytes: number;
  /** Most aliases one document may expand (guards against "billion laughs"). */
  maxAliasCount: number;
}

export const DEFAULT_YAML_LIMITS: YamlLimits = { maxFileBytes: 3 * 1024 * 1024, maxAliasCount: 100 };

/**
 * Splits a multi-document YAML file into objects, each with its file and
 * line. Syntax errors, duplicate keys, alias bombs, oversized files and
 * documents that are not maps are reported with line and column; empty
 * documents are skipped.
 */
export function loadYamlDocuments(
  file: SourceFile,
  limits: YamlLimits = DEFAULT_YAML_LIMITS,
): { objects: SourcedObject[]; errors: RenderError[] } {
  const bytes = Buffer.byteLength(file.text, 'utf8');
  if (bytes > limits.maxFileBytes) {
    const detail = `file is ${formatBytes(bytes)}, over the limit of ${formatBytes(limits.maxFileBytes)}`;
    return { objects: [], errors: [new RenderError(detail, { file: file.path })] };
  }
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(file.text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const objects: SourcedObject[] = [];
  const errors: RenderError[] = [];
  const list = Array.isArray(docs) ? docs : [docs];
  list.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      // Only the first: later syntax errors in a document are usually echoes of it.
      const e = doc.errors[0];
      const pos = lineCounter.linePos(e.pos[0]);
      errors.push(
        new RenderError(firstLine(e.message), { file: file.path, line: pos.line, column: pos.col }),
      );
      return;
    }
    // An empty document, e.g. after a trailing `---`.
    if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) return;
    const start = lineCounter.linePos(doc.contents.range?.[0] ?? 0).line;
    if (!isMap(doc.contents)) {
      errors.push(
        new RenderError('expected a YAML map (a Kubernetes object)', { file: file.path, line: start }),
      );
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: limits.maxAliasCount });
    } catch (err) {
      // The yaml package signals alias bombs (and similar) by throwing from toJS.
      const detail = `cannot load document: ${(err as Error).message}`;
      errors.push(new RenderError(detail, { file: file.path, line: start }));
      return;
    }
    objects.push({
      object: value as TypedObject,
      source: {
        file: file.path,
        line: start,
        document: index,
        lineOf: (path) => lineOf(doc, lineCounter, path),
        keyLineOf: (path) => keyLineOf(doc, lineCounter, path),
      },
    });
  });
  return { objects, errors };
}

function lineOf(doc: Document, counter: LineCounter, path: readonly (string | number)[]): number | undefined {
  // Walk up the path until a node exists: an error about a missing field points at its parent.
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

/** Like lineOf, but the line of the field's key (`properties:`), not of its value (the first property). */
function keyLineOf(
  doc: Document,
  counter: LineCounter,
  path: readonly (string | number)[],
): number | undefined {
  for (let depth = path.length; depth >= 1; depth--) {
    const parent = doc.getIn(path.slice(0, depth - 1), true);
    const last = path[depth - 1];
    const node = isMap(parent)
      ? parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === last)?.key
      : isSeq(parent) && typeof last === 'number'
        ? parent.items[last]
        : undefined;
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
