import { realClock, type Clock } from '../clock/clock.js';

export interface EventuallyOptions {
  /** Gives up after this long. Generous by default: it bounds a failure, it never defines a pass. */
  timeoutMs?: number;
  /** Pause between checks. */
  intervalMs?: number;
  clock?: Clock;
}

/**
 * Polls `check` until it returns something other than `undefined` or `false`,
 * and returns that. On timeout it fails with `what`, the last value seen and
 * the last error thrown, so a failing wait says where it stood.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  options: EventuallyOptions | number = {},
): Promise<T> {
  const {
    timeoutMs = 30_000,
    intervalMs = 25,
    clock = realClock,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = clock.now() + timeoutMs;
  let lastValue: unknown;
  let lastError: unknown;
  let seen = false;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      lastValue = value;
      seen = true;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (clock.now() >= deadline) {
      const parts = [`timed out after ${timeoutMs} ms waiting for ${what}`];
      if (lastError !== undefined) parts.push(`last error: ${describeValue(lastError)}`);
      else if (seen) parts.push(`last value: ${describeValue(lastValue)}`);
      throw new Error(parts.join('; '));
    }
    await clock.sleep(intervalMs);
  }
}

/** A value or an error as a failing wait reports it: an error's message, else its JSON. */
export function describeValue(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
