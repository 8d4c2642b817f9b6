import { BuiltinDefinitionsError, loadBuiltinDefinitions } from '#definitions';
import { createRenderer, renderSources } from '#renderer';
import { readInputs } from '../../io/read-inputs.js';
import { formatObjects } from '../../output/print-objects.js';
import { reportProblems } from '../../output/report.js';
import { UserError } from '../../output/user-error.js';
import type { RenderFlags } from './index.js';

/** Exit 0 with the objects on stdout, or 1 with every error on stderr and nothing on stdout. */
export async function runRender(flags: RenderFlags): Promise<number> {
  const files = await readInputs(flags.file);
  const builtins = await loadBuiltinDefinitions().catch((err: unknown) => {
    // A broken built-in is our bug, but it should still read like any other error.
    throw err instanceof BuiltinDefinitionsError ? new UserError(err.message) : err;
  });
  // One worker: a one-shot render pays for loading the CUE module once, not once per worker.
  const handle = createRenderer({ poolSize: 1 });
  try {
    const result = await renderSources(files, handle.renderer, {
      builtins,
      strict: flags.strict,
      defaultNamespace: flags.namespace,
    });
    reportProblems(result.errors, result.warnings);
    if (result.errors.length > 0) return 1;
    const objects = result.apps.flatMap((a) => a.objects.map((o) => o.object));
    process.stdout.write(formatObjects(objects, flags.output));
    return 0;
  } finally {
    await handle.close();
  }
}
