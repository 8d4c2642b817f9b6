import type { ApiError } from '../api/client';

/** An error as the API said it: API down, token refused, not found, invalid (with every field error). */
export function ProblemView({ error, title }: { error: ApiError; title?: string }) {
  const heading =
    title ??
    (error.status === 0
      ? 'The API is not reachable'
      : error.status === 401
        ? 'Not signed in'
        : error.status === 403
          ? 'Not allowed'
          : error.status === 422
            ? 'Validation failed'
            : error.status === 409
              ? 'Conflict'
              : error.problem.title);
  return (
    <div className="problem" role="alert">
      <strong>{heading}</strong>
      <p>{error.problem.detail}</p>
      {error.fieldErrors.length > 0 && (
        <ul>
          {error.fieldErrors.map((e) => (
            <li key={e.path + e.message}>
              <code>{e.path || '(request)'}</code>: {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}
