import type { SimClient } from '../../client/sim-client.js';
import { instantOf, type LoadCall } from './load-call.js';

/** Records asked for per page of /sim/history (its maximum). */
const PAGE = 1000;
/** Pages read at most (a page may stop short of PAGE records when they are large). */
const MAX_PAGES = 2000;

/**
 * Completes each call from its record in the simulation's call history: when it was created,
 * answered and ended, and its hangup cause. The history is the server's own account, so it
 * also covers calls the app never saw (the tap shows only what reaches the app) and calls
 * answered in the dialplan before they reached the app. Reads newest first, a page at a time,
 * until every call was found or the history has no older record. Returns how many were found.
 */
export async function fillFromHistory(sim: SimClient, calls: LoadCall[]): Promise<number> {
  const wanted = new Map(calls.filter((c) => !c.refused).map((c) => [c.id, c]));
  let found = 0;
  let before: string | undefined;
  // Records older than the first of our calls cannot be ours: the reading stops there.
  const since = Math.min(...[...wanted.values()].map((c) => c.created ?? Infinity));
  for (let page = 0; page < MAX_PAGES && found < wanted.size; page++) {
    const records = await sim.history({ limit: PAGE, ...(before !== undefined ? { before } : {}) });
    for (const r of records) {
      const c = wanted.get(r.id);
      if (!c) continue;
      found++;
      c.created = instantOf(r.creationtime) ?? c.created;
      const answered = instantOf(r.answertime);
      if (answered !== undefined) c.answered = answered;
      c.ended = instantOf(r.endtime) ?? c.ended;
      c.cause = r.cause;
      c.causeTxt = r.cause_txt;
    }
    const oldest = records.at(-1);
    if (!oldest || (instantOf(oldest.endtime) ?? 0) < since) break;
    before = oldest.id;
  }
  return found;
}
