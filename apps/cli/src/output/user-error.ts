/** A mistake in what the user asked for: printed as one clear message, never with a stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'UserError';
  }
}
