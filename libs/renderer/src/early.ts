/**
 * The renderer's second entry point (`#renderer-early`), deliberately tiny: it
 * loads no module of the renderer's own, so a one-shot command can start the
 * CUE worker before `#renderer` (zod, yaml, the parsers: about 150 ms of CPU)
 * loads, and the two overlap.
 */
export { startCueWorker } from './engines/cue/v14/early-worker.js';
