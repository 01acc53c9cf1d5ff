import * as v from 'valibot';
import type { Logger } from '../log.js';
import { errorResponse, type ErrorDialect } from './error-response.js';

/** Where violations go, and how many schema issues one violation names. */
export interface ContractCheckOptions {
  dialect: ErrorDialect;
  violations: string[];
  log: Logger;
  /** At most this many issues are listed per violation (all when unset). */
  maxIssues?: number;
}

/** Test mode's check of one answer: the dialect says what applies, this decides and reports. */
export type ContractCheck = (
  res: Response,
  body: unknown,
  /** The operation declares this status (or it is one every route may give). */
  declared: boolean,
  /** The schema the body must match, when the status is a success with a declared model. */
  schema: v.GenericSchema | null | undefined,
  /** The model's name in the violation text. */
  schemaName: string,
  /** The body must have the dialect's error shape. */
  isError: boolean,
  /** The operation, as the violation names it: `GET /path (name)`. */
  where: string,
) => Response;

/**
 * Builds the checker both binders run in test mode: an undeclared status, a
 * body off its schema or an error body off the dialect's shape is recorded,
 * logged, and answered as a 500 naming the violation, so a test sees it.
 */
export function createContractCheck(opts: ContractCheckOptions): ContractCheck {
  const limit = opts.maxIssues ?? Infinity;
  return (res, body, declared, schema, schemaName, isError, where) => {
    let problem: string | undefined;
    if (!declared) problem = `status ${res.status} is not declared`;
    else if (schema) {
      const r = v.safeParse(schema, body);
      if (!r.success) problem = `body does not match ${schemaName}: ${r.issues.slice(0, limit).map((i) => `${i.path?.map((x) => String(x.key)).join('.') ?? ''} ${i.message}`).join('; ')}`;
    } else if (isError && !v.safeParse(opts.dialect.schema, body).success) problem = `error body is not ${opts.dialect.shape}`;
    if (problem === undefined) return res;
    const msg = `contract violation in ${where}: ${problem}`;
    opts.violations.push(msg);
    opts.log.error({ body }, msg);
    return errorResponse(opts.dialect, 500, msg);
  };
}
