/* global WebAssembly, TextDecoder, performance */
// Loads the renderer's CUE evaluator (libs/renderer/cue-wasm: cuelang.org/go v0.14.1 compiled
// to WebAssembly, shipped gzipped in cue-wasm/dist/) and exposes its functions with types.
// Plain JS because Node 20 cannot start a .ts file in a worker; meant to run inside one
// (cue14.worker.mjs), one Go runtime per thread.
//
// Nothing the Go runtime writes reaches the process's stdout or stderr: Go's wasm_exec.js
// writes through `globalThis.fs.writeSync` and reports exits through `go.exit`, and both are
// replaced here before it loads, so a panic trace is captured (and returned in the error),
// never printed.
import { capMemory } from './wasm-memory-cap.mjs';
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { threadId } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

/** @typedef {{ path: string; message: string; line?: number }} CueError */
/** @typedef {{ output?: Record<string, unknown>; outputs: [string, Record<string, unknown>][]; patch?: Record<string, unknown>; errs?: unknown }} CueRenderValue */
/** @typedef {{ valid: boolean; errors: CueError[]; parameter?: Record<string, unknown>; declared?: boolean }} CueVetValue */
/** @typedef {{ path: string[]; line: number; marks: Record<string, string> }} CueAnnotation */

/** CUE rejected the input (a template, properties, a context): the runtime is fine. */
export class CueEvalError extends Error {
  /**
   * @param {string} message
   * @param {CueError[]} [errors]
   */
  constructor(message, errors = []) {
    super(message);
    this.name = 'CueEvalError';
    /** Every CUE error, each with its field path. */
    this.errors = errors;
  }
}

/** The Go runtime died (out of memory, an unrecovered panic): this instance is unusable. */
export class CueRuntimeDiedError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'CueRuntimeDiedError';
    /** Whether it died for want of memory (its memory cap, when it has one). */
    this.outOfMemory = /out of memory/.test(message);
  }
}

/** How much of the Go runtime's own output is kept for error messages. */
const CAPTURE_LIMIT = 64 * 1024;

/**
 * The folder holding cue.wasm.gz and wasm_exec.js: libs/renderer/cue-wasm/dist, found from
 * this file whether it runs from the sources or from the compiled dist/ tree.
 * @returns {string}
 */
export function defaultAssetDir() {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const candidate of [
      join(dir, 'cue-wasm', 'dist'),
      join(dir, 'libs', 'renderer', 'cue-wasm', 'dist'),
    ]) {
      if (existsSync(join(candidate, 'cue.wasm.gz')) && existsSync(join(candidate, 'wasm_exec.js')))
        return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find libs/renderer/cue-wasm/dist/cue.wasm.gz');
    dir = parent;
  }
}

let loaded = false;

/**
 * Loads the module once per thread (a second Go runtime in the same thread would share
 * `globalThis.fs` and the exported functions) and returns its typed functions.
 * @param {{ assetDir?: string; longRunning?: boolean; memoryLimitBytes?: number }} [options]
 *   `longRunning`: the process renders for long (a controller, the API server), so V8 may
 *   optimise the module (below). `memoryLimitBytes`: the module's memory cannot grow past it
 *   (./wasm-memory-cap.mjs); a template that needs more kills this runtime with "out of memory".
 */
export async function loadCue(options = {}) {
  if (loaded) throw new Error('the CUE module is already loaded in this thread');
  loaded = true;
  const dir = options.assetDir ?? defaultAssetDir();
  let captured = '';
  const decoder = new TextDecoder('utf-8');
  const capture = (/** @type {Uint8Array} */ buf) => {
    captured = (captured + decoder.decode(buf)).slice(-CAPTURE_LIMIT);
    return buf.length;
  };
  const enosys = () => Object.assign(new Error('not implemented'), { code: 'ENOSYS' });
  const unsupported = (/** @type {unknown[]} */ ...args) => {
    const callback = args[args.length - 1];
    if (typeof callback === 'function') callback(enosys());
  };
  // Go's wasm_exec.js keeps this `fs` if one is present: every write lands in `captured`.
  const g = /** @type {any} */ (globalThis);
  g.fs = new Proxy(
    {
      constants: {
        O_WRONLY: -1,
        O_RDWR: -1,
        O_CREAT: -1,
        O_TRUNC: -1,
        O_APPEND: -1,
        O_EXCL: -1,
        O_DIRECTORY: -1,
      },
      writeSync: (/** @type {number} */ _fd, /** @type {Uint8Array} */ buf) => capture(buf),
      write(
        /** @type {number} */ _fd,
        /** @type {Uint8Array} */ buf,
        /** @type {number} */ offset,
        /** @type {number} */ length,
        /** @type {number | null} */ _position,
        /** @type {(err: Error | null, n?: number) => void} */ callback,
      ) {
        callback(null, capture(buf.subarray(offset, offset + length)));
      },
      fsync: (/** @type {number} */ _fd, /** @type {(err: null) => void} */ callback) => callback(null),
    },
    { get: (target, key) => (key in target ? target[/** @type {keyof target} */ (key)] : unsupported) },
  );
  await import(pathToFileURL(join(dir, 'wasm_exec.js')).href);
  const go = new g.Go();
  // Go's garbage collector runs on the one thread it has here, and by default it starts a
  // cycle every 4 MB allocated (a render allocates several): GOGC=400 cut a warm render's CPU
  // by about a quarter. The heap stays small (a few MB live), and the limit keeps a process
  // that compiles many templates from growing without bound. Set before start, so the
  // runtime's own start-up (package initialisation) runs with it too.
  // Under a memory cap, the collector works harder before the cap rather than after it.
  const cap = options.memoryLimitBytes;
  const softMiB = cap ? Math.min(512, Math.floor((cap * 0.75) / 2 ** 20)) : 512;
  go.env = { GOGC: '400', GOMEMLIMIT: `${softMiB}MiB` };
  /** @type {number | undefined} */
  let exitCode;
  go.exit = (/** @type {number} */ code) => {
    exitCode = code;
  };
  const started = performance.now();
  // Which of V8's WebAssembly compilers run. The flag is process-wide and the first module
  // compiled keeps it (a later change does not reach it; no other WebAssembly runs here).
  // A short process (`oam render`) keeps to the baseline compiler: optimising in the
  // background doubled a one-shot render's CPU (0.5 → 1.1 CPU-s). A long-running one lets
  // V8 optimise the hot functions: 3,000 webservice + hpa + gateway renders on 2 workers
  // took 23 CPU-s instead of 34, the optimising compiles included, and were already cheaper
  // after the first 500; each worker holds about 25 MB more.
  setFlagsFromString(options.longRunning ? '--no-liftoff-only' : '--liftoff-only');
  // Functions are compiled on their first call (V8's default for WebAssembly); validating them
  // only then too saves about 50 ms of CPU per load. The module is our own Go build.
  setFlagsFromString('--wasm-lazy-validation');
  const bytes = cap ? capMemory(moduleBytes(dir), cap).bytes : moduleBytes(dir);
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  // run() resolves only when the Go program exits; main() registers its functions, then blocks.
  const exited = go.run(instance).then(() => {
    exitCode ??= 0;
  });
  const api = g.__oamCue;
  if (!api) throw new CueRuntimeDiedError(`the CUE module did not start: ${lastLines(captured)}`);
  const loadMs = performance.now() - started;

  /**
   * Calls one Go function and unwraps its {"ok", "value" | "error"} reply.
   * @param {string} name
   * @param {unknown[]} args
   */
  const call = (name, ...args) => {
    if (go.exited) throw died();
    /** @type {unknown} */
    let reply;
    try {
      reply = api[name](...args);
    } catch (err) {
      throw died(err);
    }
    if (go.exited || typeof reply !== 'string') throw died();
    const parsed = JSON.parse(reply);
    if (!parsed.ok) throw new CueEvalError(parsed.error ?? 'CUE failed', parsed.errors ?? []);
    return parsed.value;
  };
  /** @param {unknown} [cause] */
  const died = (cause) => {
    const why = lastLines(captured) || (cause instanceof Error ? cause.message : 'the Go runtime exited');
    return new CueRuntimeDiedError(
      `the CUE evaluator died${exitCode !== undefined ? ` (exit code ${exitCode})` : ''}: ${why}`,
    );
  };

  /**
   * Handle → the parts of `context` its template reads (null: all of it), from compile.
   * @type {Map<string, (string | null | false)[][] | null>}
   */
  const contextReads = new Map();
  /**
   * `context` as JSON, with only the parts the template reads: what no one reads is never
   * decoded or evaluated by CUE (a trait's `context.output` is the whole workload).
   * @param {string} handle
   * @param {unknown} context
   */
  const contextJSON = (handle, context) => {
    const reads = contextReads.get(handle);
    return JSON.stringify(reads ? pruneContext(context, reads) : context);
  };

  return {
    /** Milliseconds spent gunzipping, instantiating and starting the module. */
    loadMs,
    /** Whether V8 may optimise the module's code (`options.longRunning`). */
    longRunning: options.longRunning === true,
    /** Resolves when the Go runtime exits (it should not, except by dying). */
    exited,
    /** Whether the Go runtime has died: every later call throws CueRuntimeDiedError. */
    get dead() {
      return Boolean(go.exited);
    },
    /** The size of the module's memory, in bytes: it only grows, so this is its peak so far. */
    get memoryBytes() {
      return /** @type {WebAssembly.Memory} */ (instance.exports.mem).buffer.byteLength;
    },
    /** What the Go runtime wrote (normally nothing): kept, never printed. */
    get captured() {
      return captured;
    },
    /** @returns {{ cue: string; go: string }} */
    version: () => /** @type {any} */ (call('version')),
    /**
     * Compiles a template once (idempotent) and returns its handle, the source's SHA-256.
     * `context` is declared open: templates read it without declaring it.
     * @param {string} source
     * @returns {string}
     */
    compile: (source) => {
      const { handle, reads } = /** @type {{ handle: string; reads: (string | null | false)[][] | null }} */ (
        call('compile', source)
      );
      contextReads.set(handle, reads);
      return handle;
    },
    /**
     * The parts of `context` a compiled template reads (null: all of it), found by CUE in its syntax tree.
     * @param {string} handle
     * @returns {(string | null | false)[][] | null}
     */
    reads: (handle) => contextReads.get(handle) ?? null,
    /** @param {string} handle */
    release: (handle) => {
      call('release', handle);
      contextReads.delete(handle);
    },
    /**
     * `output`, `outputs` (as [name, object] pairs, each read on its own), `patch` and `errs`.
     * @param {string} handle
     * @param {unknown} parameter
     * @param {unknown} context
     * @returns {CueRenderValue}
     */
    render: (handle, parameter, context) =>
      /** @type {CueRenderValue} */ (
        call('render', handle, JSON.stringify(parameter), contextJSON(handle, context))
      ),
    /**
     * The named top-level fields, evaluated with `parameter` and `context` (health policies).
     * @param {string} handle
     * @param {unknown} parameter
     * @param {unknown} context
     * @param {string[]} fields
     * @returns {Record<string, unknown>}
     */
    evaluate: (handle, parameter, context, fields) =>
      /** @type {Record<string, unknown>} */ (
        call(
          'evaluate',
          handle,
          JSON.stringify(parameter),
          contextJSON(handle, context),
          JSON.stringify(fields),
        )
      ),
    /**
     * Unifies properties with the template's `parameter`: every error with its path.
     * @param {string} handle
     * @param {unknown} properties
     * @returns {CueVetValue}
     */
    vet: (handle, properties) => /** @type {CueVetValue} */ (call('vet', handle, JSON.stringify(properties))),
    /**
     * The OpenAPI v3 document of `parameter` (`components.schemas.parameter`).
     * @param {string} handle
     * @returns {Record<string, any>}
     */
    schema: (handle) => /** @type {Record<string, any>} */ (call('schema', handle)),
    /**
     * CUE's own OpenAPI v3 export of `parameter` (`components.schemas.parameter`); it refuses
     * some constraints (`*1 | int & >=0`), so it is not what the renderer relies on.
     * @param {string} handle
     * @returns {Record<string, any>}
     */
    openapi: (handle) => /** @type {Record<string, any>} */ (call('openapi', handle)),
    /**
     * The `+patchKey=`, `+patchStrategy=`, `+usage=` markers of a source's fields.
     * @param {string} source
     * @returns {CueAnnotation[]}
     */
    comments: (source) => /** @type {CueAnnotation[]} */ (call('comments', source)),
    /** Test hook: a panic inside an entry point (recovered: a CueEvalError). */
    panic: () => call('panic'),
    /** Test hook: an unrecoverable panic in a goroutine (the runtime dies). */
    crash: () => call('crash'),
  };
}

/**
 * Keeps of `context` only the given paths: each a list of keys, `null` standing for every
 * key of an object (`for o in context.outputs { o.kind }` reads outputs.*.kind), a last
 * `false` for "only whether it exists" (`context.output.status != _|_`: an object there is
 * kept as `{}`, plus what other paths read of it). A path
 * through a value that is not an object keeps that value whole; a missing key ends it. The
 * result shares the values it keeps with `context` and never changes `context`.
 * @param {unknown} context
 * @param {(string | null | false)[][]} paths
 * @returns {unknown}
 */
export function pruneContext(context, paths) {
  if (!isObject(context)) return context;
  if (paths.some((p) => p.length === 0)) return context;
  /** @type {Record<string, unknown>} */
  const out = {};
  /** The objects made here: any other object in `out` is one of context's, kept whole. */
  const made = new Set([out]);
  /**
   * @param {Record<string, unknown>} from
   * @param {Record<string, unknown>} to
   * @param {(string | null | false)[]} path
   * @param {number} i
   */
  const keep = (from, to, path, i) => {
    const step = /** @type {string | null} */ (path[i]);
    const keys = step === null ? Object.keys(from) : Object.hasOwn(from, step) ? [step] : [];
    const existenceOnly = path[i + 1] === false;
    for (const key of keys) {
      const value = from[key];
      if (i === path.length - 1 || !isObject(value)) {
        to[key] = value;
        continue;
      }
      let next = to[key];
      if (next === undefined) {
        next = {};
        made.add(next);
        to[key] = next;
      }
      if (made.has(next) && !existenceOnly)
        keep(value, /** @type {Record<string, unknown>} */ (next), path, i + 1);
    }
  };
  for (const path of paths) keep(context, out, path, 0);
  return out;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The module's bytes. Gunzipping 6 MB into 26 MB costs about 70 ms of CPU per load, so the
 * first load keeps the raw module beside the shipped cue.wasm.gz, named by the CRC-32 and
 * size that the gzip trailer records: a rebuilt cue.wasm.gz has another name, so a stale copy
 * is never read. Writing it is best effort (a read-only install simply gunzips every time).
 * @param {string} dir
 * @returns {Buffer}
 */
function moduleBytes(dir) {
  const gzPath = join(dir, 'cue.wasm.gz');
  const trailer = Buffer.alloc(8);
  const fd = openSync(gzPath, 'r');
  try {
    readSync(fd, trailer, 0, 8, fstatSync(fd).size - 8);
  } finally {
    closeSync(fd);
  }
  const size = trailer.readUInt32LE(4);
  const rawPath = join(dir, `cue-${trailer.readUInt32LE(0).toString(16).padStart(8, '0')}-${size}.wasm`);
  try {
    const raw = readFileSync(rawPath);
    if (raw.length === size) return raw;
  } catch {
    // not kept yet
  }
  const raw = gunzipSync(readFileSync(gzPath));
  const temp = `${rawPath}.${process.pid}.${threadId}.tmp`;
  try {
    writeFileSync(temp, raw);
    renameSync(temp, rawPath); // atomic: a concurrent reader sees the whole file or none
  } catch {
    rmSync(temp, { force: true });
  }
  return raw;
}

/** @param {string} text */
function lastLines(text) {
  const lines = text.trim().split('\n');
  const first = lines.findIndex((l) => /^(panic|fatal error|runtime:)/.test(l));
  return (first >= 0 ? lines.slice(first, first + 2) : lines.slice(-2)).join(' ').trim();
}

/** @typedef {Awaited<ReturnType<typeof loadCue>>} CueRuntime */
