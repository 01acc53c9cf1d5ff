/**
 * Hangup reasons by name, and the Q.850 cause each one stands for: the names a DELETE of a
 * channel (and the far end's hangup in /sim) accepts, and the causes the engine then reports.
 */
export const HANGUP_REASON_CAUSES = {
  normal: 16,
  busy: 17,
  congestion: 34,
  no_answer: 19,
  timeout: 18,
  rejected: 21,
  unallocated: 1,
  normal_unspecified: 31,
  number_incomplete: 28,
  codec_mismatch: 58,
  interworking: 127,
  failure: 38,
  answered_elsewhere: 26,
} as const;

/** A hangup reason's name. */
export type HangupReason = keyof typeof HANGUP_REASON_CAUSES;

/** Every hangup reason's name, in the order the documents list them. */
export const HANGUP_REASONS = Object.keys(HANGUP_REASON_CAUSES) as readonly HangupReason[];
