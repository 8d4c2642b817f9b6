/**
 * The default limits of one template evaluation (`--eval-cpu-limit`, `--eval-memory-limit`).
 * They stop runaway templates, never real ones: see bench/renderer/eval-limits.ts for the
 * figures they were chosen from.
 */

/** CPU time: the thread's own, so a busy machine does not fail a template that is merely slow. */
export const DEFAULT_EVAL_CPU_LIMIT_MS = 5_000;

/** Memory: CUE's WebAssembly memory, or a Handlebars worker's heap. */
export const DEFAULT_EVAL_MEMORY_LIMIT_BYTES = 512 * 1024 ** 2;
