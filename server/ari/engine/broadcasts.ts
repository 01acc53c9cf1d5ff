import { badRequest, conflict, notFound } from '../../errors.js';
import type { BroadcastOffer, Channel } from './channel.js';
import type { Engine } from './engine.js';
import { userRegExp } from './expression.js';

/** StasisBroadcast()'s claim window when its timeout argument is missing or not in 0…60000 ms (Asterisk's default and range). */
export const BROADCAST_DEFAULT_TIMEOUT_MS = 500;
const MAX_TIMEOUT_MS = 60_000;
/** Asterisk compiles no app_filter longer than this; such a filter filters nothing. */
const MAX_FILTER_LENGTH = 256;
/** Asterisk passes at most this many arguments to the winner. */
const MAX_ARGS = 128;
/** The spellings Asterisk reads as "yes" (ast_true). */
const TRUE_WORDS = new Set(['yes', 'true', 'y', 't', '1', 'on']);

/** What happens to a call once it is claimed: the dialplan interpreter puts it in the winner, or carries on when it cannot. */
export interface ClaimedCallPort {
  claimed(ch: Channel, app: string, args: string[]): void;
}

/**
 * StasisBroadcast([timeout][,app_filter][,args][,notify_claimed]), its
 * arguments split at commas: the claim window in ms (a leading integer, as C's
 * %d reads it; missing or outside 0…60000 gives 500), a regular expression
 * application names must match, colon-separated arguments for the winner's
 * StasisStart (empty ones kept), and whether CallClaimed is sent.
 */
export function parseBroadcastArgs(args: string[]): { timeoutMs: number; offer: BroadcastOffer } {
  const [timeout = '', filter = '', stasisArgs = '', notify = ''] = args;
  const lead = /^\s*([+-]?\d+)/.exec(timeout);
  const n = lead ? Number(lead[1]) : NaN;
  const timeoutMs = Number.isInteger(n) && n >= 0 && n <= MAX_TIMEOUT_MS ? n : BROADCAST_DEFAULT_TIMEOUT_MS;
  return {
    timeoutMs,
    offer: {
      filter: filter === '' ? null : filter,
      notifyClaimed: TRUE_WORDS.has(notify.trim().toLowerCase()),
      args: stasisArgs === '' ? [] : stasisArgs.split(':').slice(0, MAX_ARGS),
      winner: null,
    },
  };
}

/**
 * The filter as a matcher, or null when it filters nothing: no filter, one
 * too long, or one that does not compile (Asterisk then offers the call to
 * every application). It comes from the dialplan, whose variables ARI callers
 * and the far end can set, so it runs on the linear-time engine: no pattern
 * can make matching backtrack. Like POSIX regexec it matches anywhere in the
 * name unless anchored.
 */
function compileFilter(filter: string | null): RegExp | null {
  if (filter === null || filter.length > MAX_FILTER_LENGTH) return null;
  try {
    return userRegExp(filter);
  } catch {
    return null;
  }
}

/**
 * Calls offered to several applications at once (StasisBroadcast()) and the
 * claims on them. The offer lives on the channel's record, so it is committed
 * with the CallBroadcast that announces it and survives a restart; it ends
 * when the claim window closes or the winner hands the call back to the
 * dialplan, and a claim after that is a 404.
 */
export class Broadcasts {
  constructor(private readonly eng: Engine, private readonly dialplan: ClaimedCallPort) {}

  /** Puts the call on offer and sends CallBroadcast to each application the filter lets through; returns the claim window (simulated ms). */
  offer(ch: Channel, args: string[]): number {
    const { timeoutMs, offer } = parseBroadcastArgs(args);
    ch.d.broadcast = offer;
    this.eng.touch(ch);
    this.eng.emit('CallBroadcast', { channel: this.eng.snapshot(ch), caller: ch.d.caller.number, called: ch.d.dialplan.exten }, this.audience(offer));
    return timeoutMs;
  }

  /**
   * POST /events/claim. The first claim wins whoever makes it (the claimer
   * need not have been offered the call); later ones are 409 for as long as
   * the winner has the call.
   */
  claim(channelId: string | undefined, application: string | undefined): void {
    if (!channelId) throw badRequest('channelId parameter is required');
    if (!application) throw badRequest('application parameter is required');
    // By unique id only, as Asterisk keeps its offers.
    const ch = this.eng.hasId(channelId) ? this.eng.find(channelId) : undefined;
    const offer = ch?.d.broadcast;
    if (!ch || !offer) throw notFound('Channel not found or not in broadcast state');
    if (offer.winner !== null) throw conflict('Channel has already been claimed by another application');
    offer.winner = application;
    this.eng.touch(ch);
    if (offer.notifyClaimed) this.eng.emit('CallClaimed', { channel: this.eng.snapshot(ch), winner_app: application }, this.audience(offer));
    this.dialplan.claimed(ch, application, offer.args);
  }

  /** Ends the offer (the window closed, or the call is back in the dialplan): later claims are 404. */
  end(ch: Channel): void {
    if (!ch.d.broadcast) return;
    delete ch.d.broadcast;
    this.eng.touch(ch);
  }

  /** The applications the server knows whose names the offer's filter matches (all of them without a filter). */
  private audience(offer: BroadcastOffer): string[] {
    const match = compileFilter(offer.filter);
    return this.eng.apps.list().map((a) => a.name).filter((name) => !match || match.test(name));
  }
}
