/**
 * A set of field paths (structured-merge-diff's fieldpath.Set): a trie whose nodes hold
 * the path elements that are members at that level and the children below them. Sets are
 * immutable once built; operations return new sets.
 */
import { isJsonObject, type JsonObject } from '#kube-core';
import { compareElements, elementKind, type Path, type PathElement } from './element.js';

export class FieldSet {
  private readonly members = new Set<PathElement>();
  private readonly children = new Map<PathElement, FieldSet>();

  static of(paths: Iterable<Path>): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  /** Builds a set from a managedFields `fieldsV1` object; unknown element kinds are skipped as kube does. */
  static fromFieldsV1(fields: unknown, where = 'fieldsV1'): FieldSet {
    if (!isJsonObject(fields)) throw new Error(`${where}: expected an object, got ${JSON.stringify(fields)}`);
    const set = new FieldSet();
    for (const [key, value] of Object.entries(fields)) {
      if (key === '.' || !elementKind(key)) continue;
      const child = FieldSet.fromFieldsV1(value, `${where}.${key}`);
      const selfMarked = isJsonObject(value) && '.' in value;
      if (child.isEmpty() || selfMarked) set.members.add(key);
      if (!child.isEmpty()) set.children.set(key, child);
    }
    return set;
  }

  /** Mutating insert, for building a set before it is shared. */
  insert(path: Path): this {
    if (!path.length) return this;
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

  union(other: FieldSet): FieldSet {
    const out = this.clone();
    for (const pe of other.members) out.members.add(pe);
    for (const [pe, child] of other.children) {
      const mine = out.children.get(pe);
      out.children.set(pe, mine ? mine.union(child) : child.clone());
    }
    return out;
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
    const out = new FieldSet();
    for (const pe of this.members) if (!other.members.has(pe)) out.members.add(pe);
    for (const [pe, child] of this.children) {
      const theirs = other.children.get(pe);
      out.setChild(pe, theirs ? child.difference(theirs) : child.clone());
    }
    return out;
  }

  /** Like difference, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const pe of this.members) if (!other.members.has(pe)) out.members.add(pe);
    for (const [pe, child] of this.children) {
      if (other.members.has(pe)) continue;
      const theirs = other.children.get(pe);
      out.setChild(pe, theirs ? child.recursiveDifference(theirs) : child.clone());
    }
    return out;
  }

  /** EnsureNamedFieldsAreMembers: every field element on the way to a member is a member too. */
  withFieldsAsMembers(): FieldSet {
    const out = this.clone();
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

  /** The FieldsV1 JSON: members map to {}, a child that is also a member carries "." last. */
  toFieldsV1(): JsonObject {
    const out: JsonObject = {};
    for (const pe of this.sortedElements()) {
      const child = this.children.get(pe);
      if (!child) out[pe] = {};
      else out[pe] = this.members.has(pe) ? { ...child.toFieldsV1(), '.': {} } : child.toFieldsV1();
    }
    return out;
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

  private clone(): FieldSet {
    const out = new FieldSet();
    for (const pe of this.members) out.members.add(pe);
    for (const [pe, child] of this.children) out.children.set(pe, child.clone());
    return out;
  }
}
