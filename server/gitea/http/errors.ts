import * as v from 'valibot';
import { DomainError, type ErrorKind } from '../../errors.js';
import type { ErrorDialect } from '../../http/error-response.js';

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

/** A guard's refusal with a status no domain error kind names (423 Locked). */
export class GiteaRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'GiteaRefusal';
  }
}

/** Gitea's mapping of error kinds to statuses (APIErrorAuto); the body is `{message, url}`. */
export function giteaError(err: unknown): { status: number; message: string } | undefined {
  if (err instanceof DomainError) return { status: STATUS[err.kind], message: err.message };
  if (err instanceof GiteaRefusal) return { status: err.status, message: err.message };
  return undefined;
}


/** Gitea's error shape: `{message, url}` (the url is the API's swagger page, read when each error is written). */
export function giteaErrors(site: { readonly swaggerUrl: string }): ErrorDialect {
  return {
    body: (message) => ({ message, url: site.swaggerUrl }),
    contentType: 'application/json;charset=utf-8',
    schema: v.strictObject({ message: v.string(), url: v.string() }),
    shape: '{"message","url"}',
  };
}
