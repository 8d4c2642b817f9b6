import { type TypedObject } from '#kube-core';

/** One input file's text, as the caller read it (the renderer does no I/O). */
export interface SourceFile {
  /** Shown in error messages: a path relative to where the user ran the command, or `<stdin>`. */
  path: string;
  text: string;
}

/** Where a parsed object came from, and how to find a field of it in the file. */
export interface SourceInfo {
  file: string;
  /** 1-based line of the document's first key. */
  line: number;
  /** Index of the document within its file (0-based). */
  document: number;
  /** The 1-based line of a field, e.g. `['spec', 'components', 1, 'properties', 'port']`. */
  lineOf(path: readonly (string | number)[]): number | undefined;
  /** The 1-based line of a field's key (`properties:` rather than its first entry); of its nearest existing ancestor when missing. */
  keyLineOf?(path: readonly (string | number)[]): number | undefined;
}

export interface SourcedObject {
  object: TypedObject;
  source: SourceInfo;
}

/** An object's identity in messages: `Application "shop"`. */
export function describeObject(obj: { kind?: unknown; metadata?: { name?: unknown } }): string {
  const kind = typeof obj.kind === 'string' ? obj.kind : 'object';
  const name = typeof obj.metadata?.name === 'string' ? ` "${obj.metadata.name}"` : '';
  return `${kind}${name}`;
}

/** A source for objects built in code (tests, the controller): no file, no lines. */
export function inMemorySource(label: string): SourceInfo {
  return { file: label, line: 0, document: 0, lineOf: () => undefined };
}
