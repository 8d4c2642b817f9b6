import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { HttpRequest as Request, HttpResponse as Response } from './express-types.js';
import { KubeApiError, type Logger } from '#runtime';
import { sendProblem } from './middleware.js';
import { ApiProblem, type FieldError } from './problem.js';

/**
 * Writes every failure as `application/problem+json`. Errors from the
 * Kubernetes API keep their status (404, 409, 422 with each cause at its
 * field); anything unexpected is a 500 whose detail says nothing internal
 * (the log has it, never a stack trace in a response).
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly log: Logger) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    // Work stopped because its response was already sent (or abandoned): nothing failed.
    if (err instanceof Error && err.name === 'AbortError' && res.headersSent) return void res.end();
    const problem = toProblem(err);
    if (problem.status >= 500)
      this.log.error('request failed', {
        method: req.method,
        path: req.path,
        error: err instanceof Error ? err.message : String(err),
      });
    sendProblem(res, problem);
  }
}

export function toProblem(err: unknown): ApiProblem {
  if (err instanceof ApiProblem) return err;
  if (err instanceof KubeApiError) return fromKube(err);
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const body = err.getResponse();
    const message =
      typeof body === 'object' && body && 'message' in body
        ? String((body as { message: unknown }).message)
        : err.message;
    // Express' body parser reports bad JSON and oversized bodies through HttpException-like errors.
    return new ApiProblem(status, message);
  }
  const status = (err as { status?: unknown; type?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new ApiProblem(status, bodyParserMessage(err as { type?: string; message?: string }));
  return new ApiProblem(500, 'internal error; the API server log has the details');
}

function bodyParserMessage(err: { type?: string; message?: string }): string {
  if (err.type === 'entity.too.large') return 'the request body is too large';
  if (err.type === 'entity.parse.failed') return `the request body is not valid JSON: ${err.message}`;
  return err.message ?? 'bad request';
}

/** The Kubernetes API's answer in the API's own shape; the API's own lack of permission is a 502. */
function fromKube(err: KubeApiError): ApiProblem {
  const status = err.status as {
    message?: string;
    details?: { causes?: { field?: string; message?: string }[] };
  };
  const detail = status?.message ?? err.message;
  if (err.code === 401 || err.code === 403)
    return new ApiProblem(502, `the cluster refused the API's own request: ${detail}`);
  if (err.code === 0) return new ApiProblem(503, `the cluster does not answer: ${err.message}`);
  const errors: FieldError[] = (status?.details?.causes ?? []).map((c) => ({
    path: c.field ?? '',
    message: c.message ?? '',
  }));
  return new ApiProblem(err.code >= 400 && err.code < 600 ? err.code : 502, detail, errors);
}
