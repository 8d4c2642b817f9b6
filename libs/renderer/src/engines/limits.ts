/**
 * The default limits of one template evaluation (`--eval-cpu-limit`, `--eval-memory-limit`).
 * They stop runaway templates, never real ones. Measured with bench/renderer/eval-limits.ts
 * (one CUE worker, V8's baseline compiler as `oam render` runs it; CPU of the worker threads,
 * V8's helpers included, for a whole app: an upper bound of one evaluation):
 * - every built-in with sample properties: at most 230 ms cold (expose, template compiled),
 *   30 ms warm; CUE memory 29-31 MiB;
 * - webservice with 200 env vars and 50 ports, scaler and gateway: 180 ms cold, 100 ms warm;
 * - storage with 200 volumes (80 emptyDir, 60 ConfigMaps with data, 60 PVCs) on a webservice:
 *   3.0-3.3 s, CUE memory 184 MiB, the largest figures of all.
 */

/**
 * CPU time: the thread's own, so a busy machine does not fail a template that is merely slow.
 * 5 s is 1.5 times the 200-volume storage trait and 20 times anything else built in.
 */
export const DEFAULT_EVAL_CPU_LIMIT_MS = 5_000;

/**
 * Memory: CUE's WebAssembly memory (per worker, which keeps its compiled templates), or a
 * Handlebars worker's heap. 256 MiB holds the 200-volume storage trait (184 MiB with the Go
 * heap limit at 75% of 512 MiB; it also renders under a 192 MiB cap) and keeps a controller
 * within 1 GiB while a memory bomb runs: a template's own schema export evaluates it too, so
 * two workers can reach the cap at once beside a ~400 MB controller (measured by
 * `npm run bench containment`: 1.48 GB peak with 512 MiB). 20,000 volumes (a 778 KB app) went
 * past 1.2 GB before limits existed.
 */
export const DEFAULT_EVAL_MEMORY_LIMIT_BYTES = 256 * 1024 ** 2;
