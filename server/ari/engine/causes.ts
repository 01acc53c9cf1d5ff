import { HANGUP_REASON_CAUSES } from '../../../protocol/ari/hangup-reasons.js';

/** Q.850 cause texts as Asterisk names them (ast_cause2str); unlisted codes read "Unknown". */
const CAUSE_TEXT: Record<number, string> = {
  0: 'Unknown',
  1: 'Unallocated (unassigned) number',
  2: 'No route to specified transmit network',
  3: 'No route to destination',
  6: 'Channel unacceptable',
  7: 'Call awarded and being delivered in an established channel',
  16: 'Normal Clearing',
  17: 'User busy',
  18: 'No user responding',
  19: 'User alerting, no answer',
  20: 'Subscriber absent',
  21: 'Call Rejected',
  22: 'Number changed',
  23: 'Redirected to new destination',
  26: 'Answered elsewhere',
  27: 'Destination out of order',
  28: 'Invalid number format',
  29: 'Facility rejected',
  30: 'Response to STATus ENQuiry',
  31: 'Normal, unspecified',
  34: 'Circuit/channel congestion',
  38: 'Network out of order',
  41: 'Temporary failure',
  42: 'Switching equipment congestion',
  43: 'Access information discarded',
  44: 'Requested channel not available',
  50: 'Facility not subscribed',
  52: 'Outgoing call barred',
  54: 'Incoming call barred',
  57: 'Bearer capability not authorized',
  58: 'Bearer capability not available',
  65: 'Bearer capability not implemented',
  66: 'Channel type not implemented',
  69: 'Facility not implemented',
  81: 'Invalid call reference value',
  88: 'Incompatible destination',
  95: 'Invalid message unspecified',
  96: 'Mandatory information element is missing',
  97: 'Message type nonexist.',
  98: 'Wrong message',
  99: 'Info. element nonexist or not implemented',
  100: 'Invalid information element contents',
  101: 'Message not compatible with call state',
  102: 'Recover on timer expiry',
  111: 'Protocol error, unspecified',
  127: 'Interworking, unspecified',
};

export function causeText(cause: number): string {
  return CAUSE_TEXT[cause] ?? 'Unknown';
}

/** Hangup reason names and their causes, as protocol/ declares them, looked up by any string. */
export const REASON_CAUSE: Readonly<Record<string, number>> = HANGUP_REASON_CAUSES;

export const CAUSE = {
  NORMAL: 16,
  BUSY: 17,
  NO_ANSWER: 19,
  CONGESTION: 34,
  SUBSCRIBER_ABSENT: 20,
} as const;

/** The softhangup flag Asterisk reports as `cause` in an ARI-requested ChannelHangupRequest. */
export const SOFTHANGUP_EXPLICIT = 32;

/** Dial status a failed outgoing call reports for a far-end cause (app_dial's mapping). */
export function dialStatusForCause(cause: number): string {
  switch (cause) {
    case 17: return 'BUSY';
    case 18: case 19: return 'NOANSWER';
    case 34: case 38: case 42: case 44: return 'CONGESTION';
    default: return 'CHANUNAVAIL';
  }
}

/**
 * The SIP final response a simulated SIP far end refuses a call with, for
 * the cause it refuses with (the usual Q.850-to-SIP mapping); undefined for
 * causes that are no refusal (normal clearing, answered elsewhere, …).
 */
const SIP_STATUS_FOR_CAUSE: Record<number, number> = {
  1: 404, 2: 404, 3: 404, 17: 486, 18: 408, 19: 480, 20: 480, 21: 403, 22: 410, 27: 502, 28: 484,
  29: 501, 34: 503, 38: 500, 41: 503, 42: 503, 44: 503, 58: 488, 65: 488, 88: 488, 102: 504,
};

export function sipStatusForCause(cause: number): number | undefined {
  return SIP_STATUS_FOR_CAUSE[cause];
}
