import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Test } from 'uvu';
import type { Account, GiteaWorld } from '../_helpers/gitea.js';

/** The organisation suites' cast: olga (who creates organisations), pete (made a second owner), sam (an outsider). */
export interface Cast {
  olga: Account;
  pete: Account;
  sam: Account;
}

/** Creates the three accounts, each with an `all` token, one after the other (ids in that order: lists by id are predictable). */
export async function makeCast(g: GiteaWorld): Promise<Cast> {
  const olga = await g.user('olga');
  const pete = await g.user('pete');
  const sam = await g.user('sam');
  return { olga, pete, sam };
}

/** The cast, made before the suite's tests (after the server starts); read its fields inside tests. */
export function useCast(test: Test, ctx: { g: GiteaWorld }): Cast {
  const cast = {} as Cast;
  test.before(async () => void Object.assign(cast, await makeCast(ctx.g)));
  return cast;
}

/**
 * Sends `method path` with a JSON body in two parts and runs `between` at a known point: once the
 * server has the request's head and its guards have passed (they wait for no I/O with a token, so
 * they are done by the next turn of the loop) while it waits for the rest of the body.
 */
export async function withBodyPending(
  g: GiteaWorld,
  method: string,
  path: string,
  parts: [string, string],
  between: () => Promise<void>,
): Promise<{ status: number; body: unknown }> {
  const server = g.t.server.httpServer;
  const guardsPassed = new Promise<void>((resolve) => {
    const seen = (req: IncomingMessage) => {
      if (req.url !== path) return;
      server.off('request', seen);
      setImmediate(resolve);
    };
    server.on('request', seen);
  });
  let finish = () => {};
  const answer = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = httpRequest(`${g.url}${path}`, { method, headers: { authorization: `token ${g.admin.token}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || 'null') }));
    });
    req.on('error', reject);
    req.write(parts[0]);
    finish = () => req.end(parts[1]);
  });
  await guardsPassed;
  await between();
  finish();
  return answer;
}
