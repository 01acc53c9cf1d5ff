import { DomainError, type ErrorKind } from '../../errors.js';

const STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state: 409,
  too_large: 413,
  unprocessable: 422,
  internal: 500,
};

/** Gitea's mapping of error kinds to statuses (APIErrorAuto); the body is `{message, url}`. */
export function giteaError(err: unknown): { status: number; message: string } | undefined {
  if (err instanceof DomainError) return { status: STATUS[err.kind], message: err.message };
  return undefined;
}

