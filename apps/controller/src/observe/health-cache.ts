import { createHash } from 'node:crypto';
import { isLimitHit, type RendererHandle } from '#renderer';

type HealthEngine = RendererHandle['health'];

/**
 * Remembers health evaluations by their full CUE source (policy, parameters,
 * context and the live objects it reads), least recently used first out.
 * A request carries only what its policy reads (the engine's `policyContext`),
 * so most evaluations repeat exactly, across applications in the same state
 * too; CUE is the costliest step of observing.
 * Failures are not kept (a wall-clock timeout is retried next time), except a CPU-time or
 * memory limit: that is the policy's own, and evaluating it again would only burn the same
 * CPU again. An entry is a
 * hash and a small verdict (~200 bytes): room for every application's few
 * policies at 3,000+ applications, so converging ones do not evict each other.
 * Requests that arrive while the same one is being evaluated wait for it
 * (applications converging together ask the same at the same time): one
 * evaluation, and its failure, if any, is theirs too.
 */
export function cachedHealthEngine(engine: HealthEngine, maxEntries = 50_000): HealthEngine {
  const results = new Map<string, Record<string, unknown>>();
  const pending = new Map<string, Promise<Record<string, unknown>>>();
  /** Evaluations that passed a limit, by the same key: few, and dropped with the oldest results. */
  const overLimit = new Map<string, unknown>();
  return {
    policyContext: (source, context) => engine.policyContext(source, context),
    async evaluateSource(label, source, scope) {
      const key = createHash('sha256').update(label).update('\0').update(source).digest('base64');
      const hit = results.get(key);
      if (hit) {
        results.delete(key);
        results.set(key, hit);
        return hit;
      }
      if (overLimit.has(key)) throw overLimit.get(key);
      const running = pending.get(key);
      if (running) return running;
      const evaluation = engine.evaluateSource(label, source, scope);
      pending.set(key, evaluation);
      try {
        const value = await evaluation;
        results.set(key, value);
        if (results.size > maxEntries) results.delete(results.keys().next().value!);
        return value;
      } catch (err) {
        if (isLimitHit(err)) {
          overLimit.set(key, err);
          if (overLimit.size > 1000) overLimit.delete(overLimit.keys().next().value!);
        }
        throw err;
      } finally {
        pending.delete(key);
      }
    },
  };
}
