import type { KubeConfig } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import { DEFAULT_SYSTEM_NAMESPACE } from '#api';
import type { Logger } from '#runtime';

export type AuthMode = 'kubernetes' | 'tokens';

/** How to run the REST API; `oam api`'s flags map onto these one to one. */
export interface ApiOptions {
  kubeConfig: KubeConfig;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  auth: AuthMode;
  /** With `auth: 'tokens'`: the YAML list of tokens. */
  tokensFile?: string;
  /** Where built-in definitions live (looked up after the namespace's own). */
  systemNamespace?: string;
  /** Origins allowed by CORS; none (the default) turns CORS off. */
  corsOrigins?: string[];
  /** Requests per second per token (burst twice that). */
  rateLimitQps?: number;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  bodyLimitBytes?: number;
  /** A request that takes longer is answered 503 (watch streams excepted). */
  requestTimeoutMs?: number;
  logger?: Logger;
  /** The built web catalog (default: the package's dist/web); false serves none. */
  webDir?: string | false;
  registry?: Registry;
  qps?: number;
  burst?: number;
  /** Wall-clock backstop of one template evaluation (default 15 s: a preview waits for it). */
  evalTimeoutMs?: number;
  /** Most CPU time one template evaluation may use (default: the renderer's). */
  evalCpuLimitMs?: number;
  /** Most memory one template evaluation may use, in bytes (default: the renderer's). */
  evalMemoryLimitBytes?: number;
}

type OptionalApiOption =
  'tokensFile' | 'logger' | 'registry' | 'kubeConfig' | 'webDir' | 'evalCpuLimitMs' | 'evalMemoryLimitBytes';
export type ResolvedApiOptions = Required<Omit<ApiOptions, OptionalApiOption>> &
  Pick<ApiOptions, OptionalApiOption>;

export const API_OPTIONS = Symbol('API_OPTIONS');

export function resolveApiOptions(options: ApiOptions): ResolvedApiOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return {
    host: '127.0.0.1',
    port: 8080,
    systemNamespace: DEFAULT_SYSTEM_NAMESPACE,
    corsOrigins: [],
    rateLimitQps: 50,
    bodyLimitBytes: 1024 * 1024,
    requestTimeoutMs: 30_000,
    qps: 50,
    burst: 100,
    evalTimeoutMs: 15_000,
    ...(defined as ApiOptions),
  };
}
