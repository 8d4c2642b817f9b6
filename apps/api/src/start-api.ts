import type { RendererHandle } from '#renderer';
import 'reflect-metadata';
import { ACTORS } from '#api';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { jsonLogger } from '#runtime';
import { ApiModule } from './api.module.js';
import { AUTHENTICATOR, type Authenticator } from './auth/authenticator.js';
import { requestPrincipal } from './auth/request-principal.js';
import { loadTokensFile } from './auth/tokens-file.js';
import { abortOnClose, accessLog, jsonBody, requestTimeout } from './http/middleware.js';
import { ProblemFilter } from './http/problem.filter.js';
import { ClusterService } from './kube/cluster.service.js';
import { resolveApiOptions, type ApiOptions } from './options.js';
import { defaultWebDir, webPage } from './web/web-page.js';

export interface RunningApi {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  /** The renderer's worker pools: workers, busy, queued, replaced (a runaway shows as busy). */
  evaluations(): RendererHandle['stats'];
  stop(): Promise<void>;
}

/**
 * Starts the REST API in this process (`oam api`, the local plane, tests):
 * resolves once every cache has synced and it listens. A tokens file that
 * cannot be used, or a cluster that does not answer, rejects before listening.
 */
export async function startApi(options: ApiOptions): Promise<RunningApi> {
  const resolved = resolveApiOptions(options);
  if (resolved.auth === 'tokens') {
    if (!resolved.tokensFile) throw new Error('--auth tokens needs --tokens-file');
    loadTokensFile(resolved.tokensFile); // fail now, with the file's own message
  }
  const log = resolved.logger ?? jsonLogger({ fields: { logger: ACTORS.api } });
  const app = await NestFactory.create(ApiModule.register({ ...resolved, logger: log }), {
    logger: false,
    abortOnError: false,
    bodyParser: false,
    ...(resolved.corsOrigins.length
      ? { cors: { origin: resolved.corsOrigins, allowedHeaders: ['Authorization', 'Content-Type'] } }
      : {}),
  });
  try {
    app.use(accessLog(log, app.get(ClusterService).manager.registry));
    if (resolved.webDir !== false) app.use(webPage(resolved.webDir ?? defaultWebDir()));
    app.use(requestTimeout(resolved.requestTimeoutMs));
    app.use(abortOnClose());
    const auth = app.get<Authenticator>(AUTHENTICATOR);
    app.use(jsonBody(resolved.bodyLimitBytes, async (req) => !!(await requestPrincipal(auth, req))));
    app.useGlobalFilters(new ProblemFilter(log));
    await app.get(ClusterService).start();
    await app.listen(resolved.port, resolved.host);
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    evaluations: () => app.get(ClusterService).renderer.stats,
    stop: () => (stopping ??= app.close()),
  };
}
