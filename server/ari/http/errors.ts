import * as v from 'valibot';
import { DomainError, type ErrorKind } from '../../errors.js';
import type { ErrorDialect } from '../../http/error-response.js';

/** ARI's status for each domain error kind; bodies are always `{"message": …}`. */
export const ARI_STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state: 412,
  too_large: 413,
  unprocessable: 422,
  internal: 500,
};

/** ARI's error shape: `{"message"}`, sent as application/json. */
export const ARI_ERRORS: ErrorDialect = {
  body: (message) => ({ message }),
  contentType: 'application/json',
  schema: v.strictObject({ message: v.string() }),
  shape: '{"message"}',
};

/** The status and message ARI answers for an error, or undefined for one that is not ours (a bug: 500). */
export function ariError(err: unknown): { status: number; message: string } | undefined {
  return err instanceof DomainError ? { status: ARI_STATUS[err.kind], message: err.message } : undefined;
}
