import type { Test } from 'uvu';
import { startTestServer, type TestServer } from './server.js';
import { checkViolationsAfterEach } from './violations.js';

/** What a suite adds around its server: `open` builds its helpers once the server runs, `close` lets go of them before it stops. */
export interface SuiteParts<X extends object> {
  open?: (t: TestServer) => Promise<X>;
  close?: (x: X) => Promise<void>;
}

/**
 * The one lifecycle under every suite that shares a server (suite.ts useServer, gitea.ts useGitea
 * and suites with nothing around it): before starts a test server with `env` and adds what `open`
 * returns to the context; after closes that, then the server; after.each reports each test's
 * contract violations with its name. The context is filled in by `before`, so suites read it
 * inside tests and hooks, never at load time.
 */
export function useTestServer<X extends object = {}>(test: Test, env: Record<string, string> = {}, parts: SuiteParts<X> = {}): { t: TestServer } & X {
  const ctx = {} as { t: TestServer } & X;
  let opened: X | undefined;
  test.before(async () => {
    ctx.t = await startTestServer(env);
    if (parts.open) {
      opened = await parts.open(ctx.t);
      Object.assign(ctx, opened);
    }
  });
  test.after(async () => {
    // A server whose start failed has nothing to stop; one whose helpers failed to open still stops.
    if (opened && parts.close) await parts.close(opened);
    if (ctx.t) await ctx.t.close();
  });
  // Each test's contract violations are reported with its name and fail the file (violations.ts).
  checkViolationsAfterEach(test, () => ctx.t);
  return ctx;
}
