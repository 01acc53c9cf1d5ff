import { causeText } from './causes.js';
import type { Channel } from './channel.js';

/** The reason phrases our simulated SIP far ends send with each status. */
const REASON: Record<number, string> = {
  180: 'Ringing', 183: 'Session Progress', 200: 'OK',
  403: 'Forbidden', 404: 'Not Found', 408: 'Request Timeout', 410: 'Gone', 480: 'Temporarily Unavailable',
  484: 'Address Incomplete', 486: 'Busy Here', 488: 'Not Acceptable Here', 500: 'Internal Server Error',
  501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Server Timeout', 603: 'Decline',
};

/** The Asterisk cause PJSIP derives from a SIP status (its sip2cause table; ranges for the rest). */
const CAUSE_OF: Record<number, number> = {
  401: 21, 403: 21, 404: 1, 405: 127, 407: 21, 408: 18, 409: 41, 410: 22, 411: 127, 413: 127, 414: 127, 415: 127,
  420: 3, 480: 19, 481: 127, 482: 127, 483: 19, 484: 28, 485: 1, 486: 17, 487: 127, 488: 58, 491: 127, 493: 127,
  500: 38, 501: 29, 502: 27, 503: 34, 504: 102, 505: 127, 600: 17, 603: 21, 604: 1, 606: 58,
};

export function causeForSipStatus(status: number): number {
  const known = CAUSE_OF[status];
  if (known !== undefined) return known;
  if (status >= 400 && status < 500) return 127;
  if (status >= 500 && status < 600) return 34;
  if (status >= 600 && status < 700) return 127;
  return 16;
}

/** The response a Dial status stands for on a SIP channel we dialled (a refusal: the status it was refused with). */
function responseFor(ch: Channel, dialstatus: string): number | undefined {
  switch (dialstatus) {
    case 'RINGING': return 180;
    case 'PROGRESS': return 183;
    case 'ANSWER': return 200;
    case '': case 'NOANSWER': return undefined;
    default: return ch.d.techCause;
  }
}

/**
 * Keeps the technology cause of the latest response a PJSIP channel we
 * dialled received (`SIP 486 Busy Here`), under the channel's own name, as
 * chan_pjsip does for every response: what HANGUPCAUSE(name,tech|ast) and
 * HANGUPCAUSE_KEYS() read. True when something was kept.
 */
export function noteDialResponse(ch: Channel, dialstatus: string): boolean {
  const status = ch.d.tech === 'PJSIP' ? responseFor(ch, dialstatus) : undefined;
  if (status === undefined) return false;
  (ch.d.dialedCauses ??= {})[ch.d.name] = { code: `SIP ${status} ${REASON[status] ?? ''}`.trimEnd(), cause: causeForSipStatus(status) };
  return true;
}

/** HANGUPCAUSE(channel,type): the kept technology cause, or the Asterisk cause in words; undefined when nothing is kept for that channel. */
export function dialedCause(ch: Channel, name: string, type: 'tech' | 'ast'): string | undefined {
  const c = ch.d.dialedCauses?.[name];
  if (!c) return undefined;
  return type === 'tech' ? c.code : causeText(c.cause);
}
