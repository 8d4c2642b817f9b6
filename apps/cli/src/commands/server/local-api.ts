import { ACTORS } from '#api';
import type { KubeConfig } from '@kubernetes/client-node';
import { ensureLocalTokensFile, startApi } from '#api-server';
import { jsonLogger } from '#runtime';
import { apiTokensFile } from '../../plane/plane.js';
import type { ServerFlags } from './index.js';

export interface LocalApi {
  url: string;
  tokensFile: string;
  stop(): Promise<void>;
}

/**
 * The local plane's REST API: tokens auth with `$OAM_HOME/api-tokens.yaml`
 * (one full-access token, created on first start, mode 0600), on the plane's
 * host and a free port unless `--api-port` says otherwise.
 */
export async function startLocalApi(kubeConfig: KubeConfig, flags: ServerFlags): Promise<LocalApi> {
  const tokensFile = apiTokensFile();
  ensureLocalTokensFile(tokensFile);
  const api = await startApi({
    kubeConfig,
    host: flags.host,
    port: flags.apiPort,
    auth: 'tokens',
    tokensFile,
    evalCpuLimitMs: flags.evalCpuLimit,
    evalMemoryLimitBytes: flags.evalMemoryLimit,
    logger: jsonLogger({ fields: { logger: ACTORS.api } }),
  });
  return { url: api.url, tokensFile, stop: () => api.stop() };
}
