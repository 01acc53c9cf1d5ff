/** An answer from the server that was not the operation's success status: its status and body travel with it. */
export class TrunklineError extends Error {
  override readonly name = 'TrunklineError';

  constructor(
    /** The operation's nickname (placeCall, advanceClock, …). */
    readonly operation: string,
    /** The HTTP status the server answered with. */
    readonly status: number,
    /** The answer's body: parsed JSON when it was JSON, else its text. */
    readonly body: unknown,
    what: string,
  ) {
    const detail = body && typeof body === 'object' && 'message' in body ? String((body as { message: unknown }).message) : typeof body === 'string' ? body.slice(0, 500) : '';
    super(`${what} answered ${status}${detail ? `: ${detail}` : ''}`);
  }
}
