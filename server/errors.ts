/**
 * Typed domain errors. The engine and services throw these; each API
 * dialect maps a kind to its status and error body in one place.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'invalid_state'
  | 'too_large'
  | 'unprocessable'
  | 'internal';

export class DomainError extends Error {
  constructor(readonly kind: ErrorKind, message: string) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badRequest = (m: string) => new DomainError('bad_request', m);
export const notFound = (m: string) => new DomainError('not_found', m);
export const conflict = (m: string) => new DomainError('conflict', m);
export const invalidState = (m: string) => new DomainError('invalid_state', m);
export const unprocessable = (m: string) => new DomainError('unprocessable', m);
export const forbidden = (m: string) => new DomainError('forbidden', m);
export const tooLarge = (m: string) => new DomainError('too_large', m);
export const unauthorized = (m: string) => new DomainError('unauthorized', m);
