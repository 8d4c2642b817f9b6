/**
 * A set of field paths (structured-merge-diff's fieldpath.Set): a trie whose nodes hold
 * the path elements that are members at that level and the children below them. Sets are
 * immutable once built (`insert` is for building one): operations return new sets that share
 * the unchanged children, or the set itself when the result is the same set. A set keeps its
 * FieldsV1 JSON once made, and a set decoded from JSON this module made keeps that JSON, so a
 * manager whose fields did not change costs nothing to encode again.
 */
import { isJsonObject, type JsonObject } from '#kube-core';
import { compareElements, elementKind, type Path, type PathElement } from './element.js';

/** The FieldsV1 JSON `toFieldsV1` made (frozen, so still what its set encodes to). */
const encoded = new WeakSet<object>();
const EMPTY: JsonObject = Object.freeze({});

export class FieldSet {
  private readonly members = new Set<PathElement>();
  private readonly children = new Map<PathElement, FieldSet>();
  /** This set's FieldsV1 JSON, once made or decoded from what `toFieldsV1` made. */
  private json: JsonObject | undefined;

  static of(paths: Iterable<Path>): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  /** Builds a set from a managedFields `fieldsV1` object; unknown element kinds are skipped as kube does. */
  static fromFieldsV1(fields: unknown, where = 'fieldsV1'): FieldSet {
    const ours = isJsonObject(fields) && encoded.has(fields);
    return FieldSet.decode(fields, where, ours, ours);
  }

  /**
   * `ours`: `fields` is (within) JSON that `toFieldsV1` made, where a value is its child's JSON
   * but for a "." the encoder added; `isEncoding`: `fields` is exactly this set's JSON.
   */
  private static decode(fields: unknown, where: string, ours: boolean, isEncoding: boolean): FieldSet {
    if (!isJsonObject(fields)) throw new Error(`${where}: expected an object, got ${JSON.stringify(fields)}`);
    const set = new FieldSet();
    for (const [key, value] of Object.entries(fields)) {
      if (key === '.' || !elementKind(key)) continue;
      const selfMarked = isJsonObject(value) && '.' in value;
      const child = FieldSet.decode(value, `${where}.${key}`, ours, ours && !selfMarked);
      if (child.isEmpty() || selfMarked) set.members.add(key);
      if (!child.isEmpty()) set.children.set(key, child);
    }
    if (isEncoding) set.json = fields;
    return set;
  }

  /** Mutating insert, for building a set before it is shared. */
  insert(path: Path): this {
    if (!path.length) return this;
    this.json = undefined;
    const [head, ...rest] = path;
    if (!rest.length) {
      this.members.add(head);
      return this;
    }
    let next = this.children.get(head);
    if (!next) this.children.set(head, (next = new FieldSet()));
    next.insert(rest);
    return this;
  }

  has(path: Path): boolean {
    if (!path.length) return false;
    const parent = this.node(path.slice(0, -1));
    return parent?.members.has(path[path.length - 1]) ?? false;
  }

  /** The subset below one element of this level. */
  child(pe: PathElement): FieldSet | undefined {
    return this.children.get(pe);
  }

  /** True when a member lies strictly below `path`. */
  hasMemberBelow(path: Path): boolean {
    const node = this.node(path);
    return node !== undefined && !node.isEmpty();
  }

  isEmpty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  /** Whether both sets hold the same paths. */
  equals(other: FieldSet): boolean {
    if (other === this) return true;
    if (this.members.size !== other.members.size || this.children.size !== other.children.size) return false;
    for (const pe of this.members) if (!other.members.has(pe)) return false;
    for (const [pe, child] of this.children) {
      const theirs = other.children.get(pe);
      if (!theirs || !child.equals(theirs)) return false;
    }
    return true;
  }

  union(other: FieldSet): FieldSet {
    if (other === this || other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    let out: FieldSet | undefined;
    for (const pe of other.members) if (!this.members.has(pe)) (out ??= this.shallowCopy()).members.add(pe);
    for (const [pe, child] of other.children) {
      const mine = this.children.get(pe);
      const merged = mine ? mine.union(child) : child;
      if (merged !== mine) (out ??= this.shallowCopy()).children.set(pe, merged);
    }
    return out ?? this;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const pe of this.members) if (other.members.has(pe)) out.members.add(pe);
    for (const [pe, child] of this.children) {
      const theirs = other.children.get(pe);
      if (theirs) out.setChild(pe, child.intersection(theirs));
    }
    return out;
  }

  /** Members of this set not in `other` (children compared path by path). */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty() || this.isEmpty()) return this;
    const out = new FieldSet();
    let same = true;
    for (const pe of this.members) {
      if (!other.members.has(pe)) out.members.add(pe);
      else same = false;
    }
    for (const [pe, child] of this.children) {
      const theirs = other.children.get(pe);
      const kept = theirs ? child.difference(theirs) : child;
      if (kept !== child) same = false;
      out.setChild(pe, kept);
    }
    return same ? this : out;
  }

  /** Like difference, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const pe of this.members) if (!other.members.has(pe)) out.members.add(pe);
    for (const [pe, child] of this.children) {
      if (other.members.has(pe)) continue;
      const theirs = other.children.get(pe);
      out.setChild(pe, theirs ? child.recursiveDifference(theirs) : child);
    }
    return out;
  }

  /** EnsureNamedFieldsAreMembers: every field element on the way to a member is a member too. */
  withFieldsAsMembers(): FieldSet {
    const out = this.shallowCopy();
    for (const [pe, child] of this.children) {
      if (elementKind(pe) === 'field') out.members.add(pe);
      out.children.set(pe, child.withFieldsAsMembers());
    }
    return out;
  }

  /** Every member path, in structured-merge-diff's order. */
  paths(prefix: PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    for (const pe of this.sortedElements()) {
      if (this.members.has(pe)) out.push([...prefix, pe]);
      const child = this.children.get(pe);
      if (child) out.push(...child.paths([...prefix, pe]));
    }
    return out;
  }

  /** The FieldsV1 JSON (frozen, made once per set): members map to {}, a child that is also a member carries "." last. */
  toFieldsV1(): JsonObject {
    const json = this.encode();
    encoded.add(json);
    return json;
  }

  private encode(): JsonObject {
    if (this.json) return this.json;
    const out: JsonObject = {};
    for (const pe of this.sortedElements()) {
      const child = this.children.get(pe);
      if (!child) out[pe] = EMPTY;
      else out[pe] = this.members.has(pe) ? Object.freeze({ ...child.encode(), '.': EMPTY }) : child.encode();
    }
    return (this.json = Object.freeze(out));
  }

  private sortedElements(): PathElement[] {
    return [...new Set([...this.members, ...this.children.keys()])].sort(compareElements);
  }

  private node(path: Path): FieldSet | undefined {
    if (!path.length) return this;
    return this.children.get(path[0])?.node(path.slice(1));
  }

  private setChild(pe: PathElement, child: FieldSet): void {
    if (!child.isEmpty()) this.children.set(pe, child);
  }

  /** A new top level over the same (immutable) children, for an operation to change. */
  private shallowCopy(): FieldSet {
    const out = new FieldSet();
    for (const pe of this.members) out.members.add(pe);
    for (const [pe, child] of this.children) out.children.set(pe, child);
    return out;
  }
}
