// A worker thread rendering Handlebars templates, so that a template that loops for long
// blocks this thread, never the process's event loop. It speaks the protocol of
// ../worker-pool.ts: `{ type: 'ready', tid }` once loaded; then `{ id, ok, value }` or
// `{ id, ok: false, error, errors? }` per task (`errors`: the template's RenderError, sent
// as plain data; without it the failure is this engine's bug).
//
// Plain JS because Node 20 cannot start a .ts file in a worker; the engine itself is
// TypeScript, so this imports its compiled form. From dist/ that is the sibling .js file.
// From the sources (Jest) it is the same path under the repository's dist/, which the specs
// that render Handlebars build first: a worker never runs a second copy of the engine
// transpiled some other way, and a missing build fails at once with the command to run.
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { threadId } from '../thread-id.mjs';

const TASK_MODULE = 'handlebars-task.js';

/** @returns {string} the compiled task module's path */
function compiledTaskModule() {
  const here = dirname(fileURLToPath(import.meta.url));
  const sibling = join(here, TASK_MODULE);
  if (existsSync(sibling)) return sibling;
  for (let root = here; dirname(root) !== root; root = dirname(root)) {
    if (existsSync(join(root, 'package.json')) && existsSync(join(root, 'tsconfig.build.json'))) {
      const built = join(root, 'dist', relative(root, here), TASK_MODULE);
      if (existsSync(built)) return built;
      throw new Error(`${built} is missing: run \`npx tsc -p tsconfig.build.json\` in ${root}`);
    }
  }
  throw new Error(`cannot find ${TASK_MODULE} next to ${here} nor under a dist/ above it`);
}

const { createTaskRunner, toSent } = await import(pathToFileURL(compiledTaskModule()).href);
const run = createTaskRunner();
parentPort?.postMessage({ type: 'ready', tid: threadId() });

parentPort?.on('message', ({ id, task }) => {
  try {
    parentPort?.postMessage({ id, ok: true, value: run(task) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // A RenderError is the template's fault (its `detail` is what the engine reports).
    const errors = err instanceof Error && err.name === 'RenderError' ? toSent(err) : undefined;
    parentPort?.postMessage({ id, ok: false, error: message, errors });
  }
});
