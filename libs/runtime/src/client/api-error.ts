/** An error answer from the API server (a `Status` object), with the request that caused it. */
export class KubeApiError extends Error {
  constructor(
    /** HTTP status code; 0 when the request never got an answer (network error, timeout). */
    readonly code: number,
    /** Status.reason, e.g. NotFound, Conflict, Expired, Gone, Timeout. */
    readonly reason: string,
    message: string,
    readonly verb: string,
    readonly path: string,
    readonly status?: Record<string, unknown>,
  ) {
    super(`${verb} ${path}: ${code ? `${code} ${reason}: ` : ''}${message}`);
    this.name = 'KubeApiError';
  }

  /** Builds the error from a response body, which should be a Status but may be anything. */
  static fromResponse(code: number, body: string, verb: string, path: string): KubeApiError {
    let status: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object') status = parsed as Record<string, unknown>;
    } catch {
      status = undefined; // not JSON (a proxy's HTML page, say): keep the raw text as the message
    }
    const reason = typeof status?.reason === 'string' ? status.reason : httpReason(code);
    const message =
      typeof status?.message === 'string' ? status.message : body.slice(0, 500) || httpReason(code);
    return new KubeApiError(code, reason, message, verb, path, status);
  }
}

function httpReason(code: number): string {
  const map: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    409: 'Conflict',
    410: 'Gone',
    422: 'Invalid',
    429: 'TooManyRequests',
    500: 'InternalError',
    503: 'ServiceUnavailable',
    504: 'Timeout',
  };
  return map[code] ?? `HTTP${code}`;
}

export const isNotFound = (e: unknown): boolean => e instanceof KubeApiError && e.code === 404;
export const isConflict = (e: unknown): boolean => e instanceof KubeApiError && e.code === 409;
export const isAlreadyExists = (e: unknown): boolean =>
  e instanceof KubeApiError && e.code === 409 && e.reason === 'AlreadyExists';
/** 410 Gone / Expired: the resourceVersion (or continue token) is too old; a re-list is needed. */
export const isGone = (e: unknown): boolean =>
  e instanceof KubeApiError && (e.code === 410 || e.reason === 'Expired' || e.reason === 'Gone');
