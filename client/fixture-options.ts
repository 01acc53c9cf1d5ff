import type { ScriptStep } from '../protocol/sim/script.js';

// What startTrunkline's `fixtures` option may add to the bundled fixtures. The
// fields are those of fixtures/README.md; the server checks them at start-up, and a
// bad one makes startTrunkline reject with the server's message naming it.

/** An endpoint of endpoints.json: how its far end behaves (every field optional). */
export interface EndpointFixture {
  callerid?: string;
  context?: string;
  language?: string;
  accountcode?: string;
  state?: 'online' | 'offline' | 'unknown';
  ringAfterMs?: number | null;
  answerAfterMs?: number | null;
  rejectAfterMs?: number | null;
  rejectCause?: number;
  deviceStateBusyAt?: number;
  rtp?: { jitterMs?: number; lossPercent?: number; rttMs?: number };
  transferHandling?: 'core' | 'ari-only';
  referStatus?: number;
  codec?: 'ulaw' | 'alaw' | 'slin' | 'slin16';
  script?: ScriptStep[];
}

/** Additions to the bundled fixtures; what is given wins over a bundled entry of the same name. */
export interface FixtureOptions {
  /** Endpoints by `TECH/resource` key, e.g. `{ 'PJSIP/desk': { context: 'office', answerAfterMs: 500 } }`. */
  endpoints?: Record<string, EndpointFixture>;
  dialplan?: {
    /** Dialplan global variables. */
    globals?: Record<string, string>;
    /** Contexts by name, each extensions by name, each a list of `priority[(label)],App(args)` lines; a bundled context gets the extensions added. */
    contexts?: Record<string, Record<string, string[]>>;
  };
  /** Sounds by id: the path of a WAV file (English), or paths by language (`{ en: …, fr: … }`). */
  sounds?: Record<string, string | Record<string, string>>;
}
