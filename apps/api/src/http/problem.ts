import { z } from 'zod';

/** One error at one place in the request: `spec.components[0].properties.port`. */
export const FieldErrorSchema = z.object({
  path: z.string().describe('dotted field path in the request body (empty for the whole request)'),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** Every error response (RFC 9457 problem details, `application/problem+json`), plus each field error. */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  errors: z.array(FieldErrorSchema).optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** An error a handler throws to answer with that status; the filter writes it as a Problem. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly errors?: FieldError[],
  ) {
    super(detail);
    this.name = 'ApiProblem';
  }

  toJSON(): Problem {
    return {
      type: 'about:blank',
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      detail: this.message,
      ...(this.errors?.length ? { errors: this.errors } : {}),
    };
  }
}

/** 422 with each error at its path. */
export function invalid(errors: FieldError[], detail?: string): ApiProblem {
  return new ApiProblem(
    422,
    detail ?? (errors.length === 1 ? errors[0].message : `${errors.length} errors in the request`),
    errors,
  );
}
