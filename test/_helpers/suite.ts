import type { Test } from 'uvu';
import { connectEvents, type EventLog } from './events.js';
import type { TestServer } from './server.js';
import { useTestServer } from './use-test-server.js';

/** The app(s) one event socket serves, optionally with subscribeAll (a socket that sees every channel). */
export type EventsSpec = string | string[] | { apps: string | string[]; subscribeAll?: boolean };

/** A suite's server (`t`) and its named event sockets, filled in by `before`. */
export type Served<K extends string> = { t: TestServer } & Record<K, EventLog>;

/** Opens the named event sockets in order; if one fails, those already open are closed. */
async function openEvents(url: string, events: Record<string, EventsSpec>): Promise<Record<string, EventLog>> {
  const logs: Record<string, EventLog> = {};
  try {
    for (const [name, spec] of Object.entries(events)) {
      const { apps, subscribeAll } = typeof spec === 'object' && !Array.isArray(spec) ? spec : { apps: spec, subscribeAll: false };
      logs[name] = await connectEvents(url, apps, subscribeAll ? { subscribeAll } : {});
    }
  } catch (err) {
    await closeEvents(logs);
    throw err;
  }
  return logs;
}

async function closeEvents(logs: Record<string, EventLog>): Promise<void> {
  for (const log of Object.values(logs)) await log.close();
}

/**
 * Registers an ARI suite's hooks (the shared lifecycle, use-test-server.ts): before starts a test
 * server (`env`) and opens `events` in order (default `{ ev: 'app1' }`); after closes them, then
 * the server; after.each reports each test's contract violations.
 */
export function useServer<K extends string = 'ev'>(test: Test, opts: { env?: Record<string, string>; events?: Record<K, EventsSpec> } = {}): Served<K> {
  const events: Record<string, EventsSpec> = opts.events ?? { ev: 'app1' };
  return useTestServer(test, opts.env, { open: (t) => openEvents(t.url, events), close: closeEvents }) as Served<K>;
}
