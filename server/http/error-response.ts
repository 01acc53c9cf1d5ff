import type { GenericSchema } from 'valibot';

/** How one API dialect writes its errors; both binders, the contract check and the event sockets share it. */
export interface ErrorDialect {
  /** The JSON body for an error message (ARI `{message}`, Gitea `{message, url}`). */
  body(message: string): object;
  /** The content type error bodies are sent with. */
  contentType: string;
  /** What every error body must match; test mode checks answers against it. */
  schema: GenericSchema;
  /** The shape's name in a contract violation, e.g. `{"message"}`. */
  shape: string;
}

/** A JSON error answer in the dialect's shape. */
export function errorResponse(d: ErrorDialect, status: number, message: string, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(d.body(message)), { status, headers: headers ? { 'content-type': d.contentType, ...headers } : { 'content-type': d.contentType } });
}
