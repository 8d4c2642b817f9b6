import { evalLimits } from '../target-options.js';
import { BuiltinDefinitionsError, loadBuiltinDefinitions } from '#definitions';
import {
  createRenderer,
  DEFAULT_CLUSTER,
  parseKubeVersion,
  parseSources,
  renderObjects,
  typesUsed,
  type ClusterInfo,
} from '#renderer';
import { readInputs } from '../../io/read-inputs.js';
import { formatObjects } from '../../output/print-objects.js';
import { reportProblems } from '../../output/report.js';
import { UserError } from '../../output/user-error.js';
import type { RenderFlags } from './index.js';

/** Exit 0 with the objects on stdout, or 1 with every error on stderr and nothing on stdout. */
export async function runRender(flags: RenderFlags): Promise<number> {
  const cluster = clusterOf(flags.kubeVersion);
  // One worker: a one-shot render pays for loading the CUE module once, not once per worker.
  // It starts loading now, while this thread reads the inputs and the built-ins.
  const handle = createRenderer({ poolSize: 1, timeoutMs: flags.evalTimeout, ...evalLimits(flags) });
  handle.warm();
  try {
    const files = await readInputs(flags.file);
    const parsed = parseSources(files);
    if (parsed.errors.length > 0) {
      reportProblems(parsed.errors, parsed.warnings);
      return 1;
    }
    // Only the built-ins the inputs use: parsing all of them costs more than one render.
    const builtins = await loadBuiltinDefinitions(undefined, typesUsed(parsed.objects)).catch(
      (err: unknown) => {
        // A broken built-in is our bug, but it should still read like any other error.
        throw err instanceof BuiltinDefinitionsError ? new UserError(err.message) : err;
      },
    );
    const result = await renderObjects(parsed.objects, handle.renderer, {
      builtins,
      strict: flags.strict,
      defaultNamespace: flags.namespace,
      cluster,
    });
    reportProblems(result.errors, [...parsed.warnings, ...result.warnings]);
    if (result.errors.length > 0) return 1;
    const objects = result.apps.flatMap((a) => a.objects.map((o) => o.object));
    process.stdout.write(formatObjects(objects, flags.output));
    return 0;
  } finally {
    await handle.close();
  }
}

/** `--kube-version X.Y`: the cluster templates render for; without it, the fixed default. */
function clusterOf(flag: string | undefined): ClusterInfo {
  if (flag === undefined) return DEFAULT_CLUSTER;
  const version = parseKubeVersion(flag);
  if (!version) throw new UserError(`--kube-version: expected MAJOR.MINOR such as 1.30, got "${flag}"`);
  return { ...DEFAULT_CLUSTER, version };
}
