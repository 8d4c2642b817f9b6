import { createHash } from 'node:crypto';
import type { RendererHandle } from '#renderer';

type HealthEngine = RendererHandle['health'];

/**
 * Remembers health evaluations by their full CUE source (policy, parameters,
 * context and the live objects it reads), least recently used first out.
 * A request carries only what its policy reads (the engine's `policyContext`),
 * so most evaluations repeat exactly, across applications in the same state
 * too; CUE is the costliest step of observing.
 * Failures are not kept: a timeout is retried next time. An entry is a
 * hash and a small verdict (~200 bytes): room for every application's few
 * policies at 3,000+ applications, so converging ones do not evict each other.
 * Requests that arrive while the same one is being evaluated wait for it
 * (applications converging together ask the same at the same time): one
 * evaluation, and its failure, if any, is theirs too.
 */
export function cachedHealthEngine(engine: HealthEngine, maxEntries = 50_000): HealthEngine {
  const results = new Map<string, Record<string, unknown>>();
  const pending = new Map<string, Promise<Record<string, unknown>>>();
  return {
    policyContext: (source, context) => engine.policyContext(source, context),
    async evaluateSource(label, source) {
      const key = createHash('sha256').update(label).update('\0').update(source).digest('base64');
      const hit = results.get(key);
      if (hit) {
        results.delete(key);
        results.set(key, hit);
        return hit;
      }
      const running = pending.get(key);
      if (running) return running;
      const evaluation = engine.evaluateSource(label, source);
      pending.set(key, evaluation);
      try {
        const value = await evaluation;
        results.set(key, value);
        if (results.size > maxEntries) results.delete(results.keys().next().value!);
        return value;
      } finally {
        pending.delete(key);
      }
    },
  };
}
