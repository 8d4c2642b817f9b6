/**
 * The JSON text of a stored object, made once per write and shared by everyone who sends or
 * stores it: the response to the write, the SQLite row, every watch stream. The store freezes
 * what it stores (`freezeStored`), so the text of such an object never changes; anything else is
 * serialized each time. The store forgets a text once the write's commit has been told to its
 * listeners (`forgetJson`), so only objects read since their last change keep one.
 */
import { deepFreeze } from '#kube-core';

const stored = new WeakSet<object>();
const texts = new WeakMap<object, string>();

/** Deeply freezes an object the store keeps, and lets `jsonOf` keep its text. */
export function freezeStored<T extends object>(value: T): T {
  stored.add(deepFreeze(value));
  return value;
}

export function jsonOf(value: unknown): string {
  if (value === null || typeof value !== 'object' || !stored.has(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

export function forgetJson(value: object | undefined): void {
  if (value) texts.delete(value);
}
