// One call of a load run and what the event tap tells about it. Instants from the server
// (creation, StasisStart, answer, end) are epoch milliseconds read from the server's own
// timestamps; `sentAt` / `repliedAt` are the tool's monotonic clock (performance.now()).
import { parseAriTimestamp } from '../../server/util/timestamp.js';

/** What the tool knows about one call it placed. */
export interface LoadCall {
  id: string;
  /** When the placeCall request was sent (monotonic ms). */
  sentAt: number;
  /** When its answer arrived (monotonic ms). */
  repliedAt?: number;
  /** The server refused the call: `status message`. */
  refused?: string;
  /** The channel's creationtime: the "placed" instant every set-up time is measured from. */
  created?: number;
  stasisStart?: number;
  /** StasisStart showed the channel already Up (answered in the dialplan); the instant comes from the history. */
  upAtStasis?: boolean;
  answered?: number;
  ended?: number;
  cause?: number;
  causeTxt?: string;
  /** The tool hung it up after the call time-out. */
  timedOut?: boolean;
  /** Monotonic ms of StasisEnd, while no ChannelDestroyed has come yet. */
  stasisEndAt?: number;
  /** The far end hung up: nothing after that is the app's reaction. */
  farHangup?: boolean;
  /** A hangup was requested (by either end): the StasisEnd that follows is the channel going away. */
  hangingUp?: boolean;
  /** Timestamp of the newest digit the app has not reacted to yet. */
  pendingDigit?: number;
}

/** An event timestamp (`2025-01-01T00:00:00.797+0000`) as epoch ms. */
export function instantOf(ts: unknown): number | undefined {
  if (typeof ts !== 'string') return undefined;
  const n = parseAriTimestamp(ts);
  return Number.isNaN(n) ? undefined : n;
}

/** The channel an app event is about: its channel, or the target of a playback on a channel. */
export function channelOf(event: Record<string, any>): string | undefined {
  if (typeof event.channel?.id === 'string') return event.channel.id;
  const target = event.playback?.target_uri;
  return typeof target === 'string' && target.startsWith('channel:') ? target.slice('channel:'.length) : undefined;
}

/**
 * Events that count as the app's reaction to a digit: a prompt started, a state change (an
 * answer), a bridge joined, a hangup the app asked for (ChannelHangupRequest with soft set,
 * as an ARI hangup raises it), or the channel leaving the app (StasisEnd). PlaybackFinished is
 * not one: a prompt ending by itself looks the same on the wire as one the app stopped.
 */
function isReaction(e: Record<string, any>): boolean {
  switch (e.type) {
    case 'PlaybackStarted':
    case 'ChannelStateChange':
    case 'ChannelEnteredBridge':
    case 'StasisEnd':
      return true;
    case 'ChannelHangupRequest':
      return e.soft === true;
    default:
      return false;
  }
}

/**
 * Applies one tapped event to its call. Returns a DTMF response latency (ms between the last
 * digit and the reaction, both server timestamps) when the event is a reaction to digits, and
 * says whether the channel is now gone (ChannelDestroyed, or StasisEnd after a hangup request).
 */
export function applyEvent(call: LoadCall, e: Record<string, any>, now: number): { latency?: number; destroyed: boolean } {
  const at = instantOf(e.timestamp);
  let latency: number | undefined;
  if (at !== undefined && call.pendingDigit !== undefined && !call.farHangup && isReaction(e)) {
    latency = at - call.pendingDigit;
    call.pendingDigit = undefined;
  }
  switch (e.type) {
    case 'StasisStart':
      call.stasisStart ??= at;
      call.created ??= instantOf(e.channel?.creationtime);
      if (e.channel?.state === 'Up') call.upAtStasis = true;
      break;
    case 'ChannelStateChange':
      if (e.channel?.state === 'Up') call.answered ??= at;
      break;
    case 'ChannelDtmfReceived':
      if (!call.farHangup) call.pendingDigit = at;
      break;
    case 'ChannelHangupRequest':
      if (e.soft !== true) call.farHangup = true;
      call.hangingUp = true;
      break;
    case 'StasisEnd':
      call.stasisEndAt = now;
      // A channel leaves its app after a hangup request only as it is destroyed; its app is no
      // longer subscribed then, so this is the last the tap shows of it (the cause comes from the history).
      if (call.hangingUp) {
        call.ended ??= at;
        return { ...(latency !== undefined ? { latency } : {}), destroyed: true };
      }
      break;
    case 'ChannelDestroyed':
      call.ended = at;
      call.cause = e.cause;
      call.causeTxt = e.cause_txt;
      return { ...(latency !== undefined ? { latency } : {}), destroyed: true };
  }
  return { ...(latency !== undefined ? { latency } : {}), destroyed: false };
}
