import type { Test } from 'uvu';
import { connectEvents, type EventLog } from './events.js';
import { startTestServer, type TestServer } from './server.js';
import { checkViolationsAfterEach } from './violations.js';

/** The app(s) one event socket serves, optionally with subscribeAll (a socket that sees every channel). */
export type EventsSpec = string | string[] | { apps: string | string[]; subscribeAll?: boolean };

/** A suite's server (`t`) and its named event sockets, filled in by `before`. */
export type Served<K extends string> = { t: TestServer } & Record<K, EventLog>;

/**
 * Registers a suite's hooks: before starts a test server (`env`) and opens
 * `events` in order (default `{ ev: 'app1' }`); after closes them, then the
 * server; after.each reports each test's contract violations.
 */
export function useServer<K extends string = 'ev'>(test: Test, opts: { env?: Record<string, string>; events?: Record<K, EventsSpec> } = {}): Served<K> {
  const events: Record<string, EventsSpec> = opts.events ?? { ev: 'app1' };
  const ctx = {} as Served<K>;
  const logs = ctx as unknown as Record<string, EventLog>;
  test.before(async () => {
    ctx.t = await startTestServer(opts.env);
    for (const [name, spec] of Object.entries(events)) {
      const { apps, subscribeAll } = typeof spec === 'object' && !Array.isArray(spec) ? spec : { apps: spec, subscribeAll: false };
      logs[name] = await connectEvents(ctx.t.url, apps, subscribeAll ? { subscribeAll } : {});
    }
  });
  test.after(async () => {
    for (const name of Object.keys(events)) await logs[name]!.close();
    await ctx.t.close();
  });
  // Each test's contract violations are reported with its name and fail the file (violations.ts).
  checkViolationsAfterEach(test, () => ctx.t);
  return ctx;
}
