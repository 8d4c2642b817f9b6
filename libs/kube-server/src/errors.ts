/**
 * An error the API server answers with, in the Kubernetes `Status` format
 * (kind: Status, status: Failure, reason, code, details.causes[]). Every
 * module of the server throws this; the HTTP layer turns it into a response.
 */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Expired'
  | 'InternalError'
  | 'Timeout'
  | 'ServiceUnavailable'
  /** No reason: kube-apiserver answers some internal errors (500) with a bare message. */
  | '';

/** One field-level cause, as in `details.causes[]` (reason e.g. FieldValueInvalid, FieldValueRequired, FieldManagerConflict). */
export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details: StatusDetails = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The response body: a meta/v1 Status object. */
  toStatus(): Record<string, unknown> {
    const details = Object.keys(this.details).length ? { details: this.details } : {};
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      ...(this.reason ? { reason: this.reason } : {}),
      ...details,
      code: this.code,
    };
  }
}
