import * as assert from 'uvu/assert';

// The Gitea error body every Gitea suite compares against, and the two checks they repeat on it.

/** An answer as the checks read it (request.ts's Reply, or anything with these fields). */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** Gitea's error body on `g`'s server: the message and the address of the API's documentation. */
export const apiError = (g: { url: string }, message: string): { message: string; url: string } => ({ message, url: `${g.url}/api/swagger` });

/** Asserts the answer (or the answer `p` resolves to) has `status` and Gitea's error body for `message`. */
export async function expectError(g: { url: string }, p: Answer | Promise<Answer>, status: number, message: string): Promise<void> {
  const r = await p;
  assert.is(r.status, status, `status (body ${r.text.slice(0, 500)})`);
  assert.equal(r.body, apiError(g, message));
}

/** expectError, and the answer is labelled JSON as Gitea labels it (`application/json;charset=utf-8`). */
export async function expectJsonError(g: { url: string }, p: Answer | Promise<Answer>, status: number, message: string): Promise<void> {
  const r = await p;
  await expectError(g, r, status, message);
  assert.is(r.headers.get('content-type'), 'application/json;charset=utf-8');
}
