import { ACTORS } from '#api';
import { loadTokensFile, startApi, TokensFileError } from '#api-server';
import { jsonLogger, KubeApiError } from '#runtime';
import { isConnectionError, loadKubeConfig } from '../../cluster/kubeconfig.js';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import type { ApiFlags } from './index.js';

/** Runs until SIGINT/SIGTERM (exit 0). Prints the URL once it serves; logs go to stderr as JSON lines. */
export async function runApi(flags: ApiFlags): Promise<number> {
  const auth = flags.auth ?? (flags.tokensFile ? 'tokens' : 'kubernetes');
  if (auth === 'tokens' && !flags.tokensFile)
    throw new UserError('--auth tokens needs --tokens-file FILE (a YAML list of {token, namespaces, verbs})');
  if (auth === 'kubernetes' && flags.tokensFile)
    throw new UserError('--tokens-file is only read with --auth tokens');
  if (auth === 'tokens') readTokens(flags.tokensFile!); // its own message, before anything else
  const kubeConfig = loadKubeConfig(flags);
  const logger = jsonLogger({ level: flags.logLevel, fields: { logger: ACTORS.api } });
  let api;
  try {
    api = await startApi({
      kubeConfig,
      host: flags.host,
      port: flags.port,
      auth,
      tokensFile: flags.tokensFile,
      systemNamespace: flags.systemNamespace,
      corsOrigins: flags.corsOrigin,
      evalCpuLimitMs: flags.evalCpuLimit,
      evalMemoryLimitBytes: flags.evalMemoryLimit,
      logger,
    });
  } catch (err) {
    throw startError(err, flags, kubeConfig.getCurrentCluster()?.server);
  }
  process.stdout.write(
    `oam REST API listening on ${api.url} (auth: ${auth}; OpenAPI: ${api.url}/api/v1/openapi.json)\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  logger.info('shutting down');
  await api.stop();
  return EXIT.OK;
}

function startError(err: unknown, flags: ApiFlags, server: string | undefined): unknown {
  if (err instanceof TokensFileError) return new UserError(err.message);
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE')
    return new UserError(
      `port ${flags.port} on ${flags.host} is in use: pass --port N, or --port 0 for any free port`,
      EXIT.CLUSTER,
    );
  if (code === 'EADDRNOTAVAIL') return new UserError(`cannot listen on ${flags.host}: no such local address`);
  if (err instanceof KubeApiError || isConnectionError(err))
    return new UserError(
      `cannot start the REST API against ${server}: ${(err as Error).message}`,
      EXIT.CLUSTER,
    );
  return err;
}

function readTokens(file: string): void {
  try {
    loadTokensFile(file);
  } catch (err) {
    if (err instanceof TokensFileError) throw new UserError(err.message);
    throw err;
  }
}
