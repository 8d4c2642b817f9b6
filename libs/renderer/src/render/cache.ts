import type { TemplateResult } from '../engines/engine.js';

/**
 * Template results keyed by a hash of (definition, parameters, context).
 * Entries are frozen deeply, so a hit can be handed out without copying and
 * no caller can corrupt it. Least recently used entries go first.
 */
export class RenderCache {
  private readonly entries = new Map<string, TemplateResult>();
  hits = 0;
  misses = 0;

  constructor(private readonly maxEntries = 2000) {}

  get(key: string): TemplateResult | undefined {
    const hit = this.entries.get(key);
    if (!hit) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, result: TemplateResult): TemplateResult {
    const frozen = deepFreeze(result);
    this.entries.set(key, frozen);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return frozen;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
